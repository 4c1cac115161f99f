"""The tagger: a question read once, left to right, into typed spans.

Dates first (the date grammar), then names (the catalog's name index), then the longest phrase of
the lexicon at each place; a word nothing covers is a span without tags, reported unless it is a
number.

    >>> [s.text for s in tag("top 5 shippers to LA", lexicon, names)]   # doctest: +SKIP
    ['top', '5', 'shippers', 'to', 'LA']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from typing import Any, Protocol

from bosun.understanding.amounts import amounts, quantities
from bosun.understanding.grammar import QUIET, Lexicon, Tag
from bosun.understanding.names import Found
from bosun.understanding.timewords import TimeRange, find_time_ranges

_NUMBER = r"(?<![\w.])-?\d(?:[\d,]*\d)?(?:\.\d+)?"
_POSSESSIVE = re.compile(r"['’]s\b", re.I)


@dataclass(frozen=True)
class Token:
    start: int
    end: int
    text: str
    norm: str


@dataclass
class Span:
    """Tokens [first, last) of the question and what they can be; `used` is set by the rule that
    reads them."""

    first: int
    last: int
    text: str
    key: str
    start: int = 0  # characters of the question the span covers
    end: int = 0
    tags: list[Tag] = field(default_factory=list)
    used: bool = False

    def has(self, kind: str) -> bool:
        return any(t.kind == kind for t in self.tags)

    def values(self, kind: str) -> list[Any]:
        return [t.value for t in self.tags if t.kind == kind]

    def value(self, kind: str) -> Any:
        found = self.values(kind)
        return found[0] if found else None

    @property
    def quiet(self) -> bool:
        """Carries no content: filler, function words, neutral verbs (and punctuation)."""
        return (bool(self.tags) and any(t.kind in QUIET for t in self.tags)) or self.key in (
            "",
            ";",
        )


@cache
def _token_pattern(scales: tuple[str, ...]) -> re.Pattern[str]:
    """Tokens, not wordings: a number (not glued to letters, but for a scale of the grammar:
    "1.5M"), a word, a symbol."""
    glued = "|".join(re.escape(s) for s in sorted(scales, key=len, reverse=True) if s.isalpha())
    return re.compile(rf"{_NUMBER}(?=(?:{glued})?(?!\w))|[\w&]+|[$#;%*]", re.I)


def without_possessive(text: str) -> str:
    """ "Maersk's" → "Maersk": the name a possessive names, as the tokens read it."""
    return _POSSESSIVE.sub("", text)


def tokens(text: str, scales: tuple[str, ...] = ()) -> list[Token]:
    masked = _POSSESSIVE.sub(lambda m: " " * len(m.group(0)), text)
    pattern = _token_pattern(scales)
    return [
        Token(m.start(), m.end(), m.group(0), m.group(0).lower()) for m in pattern.finditer(masked)
    ]


def tag(
    text: str,
    today: date,
    lexicon: Lexicon,
    names: list[Found],
    plural_suffixes: tuple[str, ...] = ("s",),
    marks: Sequence[Marked] = (),
) -> list[Span]:
    """`marks`: phrases already known to be something (values of linked objects), placed before
    names."""
    toks = tokens(text, lexicon.scales)
    spans: dict[int, Span] = {}
    dated = _without_quantities(_without_shifts(text, toks, lexicon), toks, lexicon)
    for time in find_time_ranges(dated, today):
        _place(spans, toks, time.at, time.at + len(time.text), text, Tag("time", time))
    for mark in marks:
        _place(spans, toks, mark.start, mark.end, text, *mark.tags)
    for found in names:
        _place(spans, toks, found.start, found.end, text, Tag("name", found))
    words = [t.norm for t in toks]
    for first, last, value in amounts(words, lexicon):
        _place(spans, toks, toks[first].start, toks[last - 1].end, text, Tag("number", value))
    _phrases(spans, toks, text, lexicon, plural_suffixes)
    return [spans[i] for i in sorted(spans)]


class Marked(Protocol):
    """A phrase known before tagging: where it stands and its tags."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...

    @property
    def tags(self) -> tuple[Tag, ...]: ...


def _without_shifts(text: str, toks: list[Token], lexicon: Lexicon) -> str:
    """The text with each period said relative to another ("the same month last year") blanked: it
    is not a date of its own, so the date grammar must not read its "last year"."""
    blanked = list(text)
    for i in range(len(toks)):
        for size in range(min(lexicon.longest, len(toks) - i), 1, -1):
            key = " ".join(t.norm for t in toks[i : i + size])
            if any(t.kind == "period_shift" for t in lexicon.get(key)):
                blanked[toks[i].start : toks[i + size - 1].end] = " " * (
                    toks[i + size - 1].end - toks[i].start
                )
                break
    return "".join(blanked)


def _without_quantities(text: str, toks: list[Token], lexicon: Lexicon) -> str:
    """The text with each number that is a quantity blanked ("over 2000 shipments"): the date
    grammar must not read it as a year."""
    blanked = list(text)
    for i in quantities([t.norm for t in toks], lexicon):
        blanked[toks[i].start : toks[i].end] = " " * (toks[i].end - toks[i].start)
    return "".join(blanked)


def _place(
    spans: dict[int, Span], toks: list[Token], start: int, end: int, text: str, *tags_: Tag
) -> None:
    inside = [i for i, t in enumerate(toks) if t.start >= start and t.end <= end]
    if not inside or any(_covered(spans, i) for i in inside):
        return
    first, last = inside[0], inside[-1] + 1
    start, end = toks[first].start, toks[last - 1].end
    spans[first] = Span(
        first,
        last,
        text[start:end],
        " ".join(t.norm for t in toks[first:last]),
        start,
        end,
        list(tags_),
    )


def _covered(spans: dict[int, Span], index: int) -> bool:
    return any(s.first <= index < s.last for s in spans.values())


def _phrases(
    spans: dict[int, Span],
    toks: list[Token],
    text: str,
    lexicon: Lexicon,
    plural_suffixes: tuple[str, ...],
) -> None:
    """The longest lexicon phrase at each uncovered place; a number or an untagged word
    otherwise."""
    i = 0
    while i < len(toks):
        if _covered(spans, i):
            i += 1
            continue
        size, tags = _longest(toks, i, spans, lexicon, plural_suffixes)
        last = i + size
        key = " ".join(t.norm for t in toks[i:last])
        start, end = toks[i].start, toks[last - 1].end
        spans[i] = Span(i, last, text[start:end], key, start, end, tags or _number(toks[i].norm))
        i = last


def _longest(
    toks: list[Token],
    i: int,
    spans: dict[int, Span],
    lexicon: Lexicon,
    plural_suffixes: tuple[str, ...],
) -> tuple[int, list[Tag]]:
    for size in range(min(lexicon.longest, len(toks) - i), 0, -1):
        if any(_covered(spans, j) for j in range(i, i + size)):
            continue
        key = " ".join(t.norm for t in toks[i : i + size])
        tags = (
            lexicon.get(key)
            or _singular(key, lexicon, plural_suffixes)
            or _plural(key, lexicon, plural_suffixes)
        )
        if tags:
            return size, list(tags)
    return 1, []


def _singular(key: str, lexicon: Lexicon, plural_suffixes: tuple[str, ...]) -> list[Tag]:
    """ "transits" reads as "transit": a plural the lexicon does not list."""
    for suffix in plural_suffixes:
        plural, _, singular = suffix.partition(">")  # "ies>y": countries → country
        # "grade as" is no plural of "grade a": a letter takes no plural ending
        last = key.rsplit(" ", 1)[-1]
        if key.endswith(plural) and len(key) > len(plural) + 2 and len(last) > len(plural) + 1:
            found = lexicon.get(key[: -len(plural)] + singular)
            if found:
                return found
    return []


def _plural(key: str, lexicon: Lexicon, plural_suffixes: tuple[str, ...]) -> list[Tag]:
    """ "box count" reads through "boxes": a singular whose plural alone the lexicon lists (catalogs
    list nouns as their questions name them, often in the plural). The first ending that fits is the
    plural's."""
    if len(key.rsplit(" ", 1)[-1]) < 3:
        return []
    for suffix in plural_suffixes:
        plural, _, singular = suffix.partition(">")
        if key.endswith(singular):
            return lexicon.get(key[: len(key) - len(singular)] + plural) or []
    return []


def _number(norm: str) -> list[Tag]:
    """A number written with digits ("1,500", "-5", "2.5"); "inf" or "nan" are words, not
    numbers."""
    if not any(ch.isdigit() for ch in norm):
        return []
    try:
        return [Tag("number", float(norm.replace(",", "")))]
    except ValueError:
        return []


def is_plural(span: Span, plural_suffixes: tuple[str, ...]) -> bool:
    last = span.key.split()[-1] if span.key else ""
    endings = [s.partition(">")[0] for s in plural_suffixes]
    return any(last.endswith(e) and not last.endswith(e + e) for e in endings)


def time_of(span: Span) -> TimeRange | None:
    found: TimeRange | None = span.value("time")
    return found
