"""The tagger: a question read once, left to right, into typed spans.

Dates first (the date grammar), then names (the catalog's name index), then the longest phrase of
the lexicon at each place, in any inflection of its last word (`Lexicon.read`); a word nothing
covers is a span without tags, reported unless it is a number. Each step costs the same at every
word, so tagging is linear in the question's length.

    >>> [s.text for s in tag("top 5 shippers to LA", lexicon, names)]   # doctest: +SKIP
    ['top', '5', 'shippers', 'to', 'LA']
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from typing import Any, Protocol

from bosun.understanding.amounts import NUMBER, amounts, quantities
from bosun.understanding.grammar import QUIET, Lexicon, Tag
from bosun.understanding.inflections import is_plural as plural_phrase
from bosun.understanding.names import Found
from bosun.understanding.shorthand import time_ranges
from bosun.understanding.timewords import TimeRange

_NUMBER = rf"(?<![\w.]){NUMBER}"
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

    def has(self, *kinds: str) -> bool:
        """The span can be one of `kinds`."""
        return any(t.kind in kinds for t in self.tags)

    def unread(self, kind: str) -> bool:
        """The span can be a `kind` and no rule has read it yet."""
        return not self.used and self.has(kind)

    def read_if(self, *kinds: str) -> None:
        """Marks the span read when it can be one of `kinds` ("vs" once a comparison is read)."""
        self.used = self.used or self.has(*kinds)

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


def kind_at(spans: Sequence[Span], j: int | None, *kinds: str) -> bool:
    """There is a span at `j` and it can be one of `kinds`."""
    return j is not None and 0 <= j < len(spans) and spans[j].has(*kinds)


def unread_at(spans: Sequence[Span], j: int | None, kind: str) -> bool:
    """There is a span at `j`, it can be a `kind`, and no rule has read it yet."""
    return j is not None and 0 <= j < len(spans) and spans[j].unread(kind)


def read(spans: Iterable[Span]) -> None:
    """Marks every span read."""
    for span in spans:
        span.used = True


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
    marks: Sequence[Marked] = (),
) -> list[Span]:
    """`marks`: phrases already known to be something (values of linked objects), placed before
    names."""
    toks = tokens(text, lexicon.scales)
    sheet = _Sheet(text, toks)
    dated = _without_quantities(_without_shifts(text, toks, lexicon), toks, lexicon)
    for time in time_ranges(dated, today, lexicon.abbreviations):
        sheet.place(time.at, time.at + len(time.text), Tag("time", time))
    for mark in marks:
        sheet.place(mark.start, mark.end, *mark.tags)
    for found in names:
        sheet.place(found.start, found.end, Tag("name", found))
    words = [t.norm for t in toks]
    for first, last, value in amounts(words, lexicon):
        sheet.place(toks[first].start, toks[last - 1].end, Tag("number", value))
    _phrases(sheet, lexicon)
    return [sheet.spans[i] for i in sorted(sheet.spans)]


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


class _Sheet:
    """The question's tokens, the spans placed on them so far, and which tokens those cover: one
    flag a token, so a look-up costs the same however long the question is."""

    def __init__(self, text: str, toks: list[Token]) -> None:
        self.text = text
        self.toks = toks
        self.starts = [t.start for t in toks]
        self.spans: dict[int, Span] = {}
        self.taken = [False] * len(toks)

    def place(self, start: int, end: int, *tags_: Tag) -> None:
        """A span of the tokens wholly inside characters [start, end), unless one is taken."""
        first = bisect_left(self.starts, start)
        last = first
        while last < len(self.toks) and self.toks[last].end <= end:
            last += 1
        if last > first and not any(self.taken[first:last]):
            self.add(first, last, list(tags_))

    def add(self, first: int, last: int, tags_: list[Tag]) -> None:
        start, end = self.toks[first].start, self.toks[last - 1].end
        key = " ".join(t.norm for t in self.toks[first:last])
        self.spans[first] = Span(first, last, self.text[start:end], key, start, end, tags_)
        self.taken[first:last] = [True] * (last - first)

    def free(self, first: int, size: int) -> int:
        """How many of the `size` tokens from `first` are free before the first taken one."""
        free = 0
        while free < size and first + free < len(self.toks) and not self.taken[first + free]:
            free += 1
        return free


def _phrases(sheet: _Sheet, lexicon: Lexicon) -> None:
    """The longest lexicon phrase at each uncovered place, in any inflection of its last word; a
    number or an untagged word otherwise."""
    i = 0
    while i < len(sheet.toks):
        if sheet.taken[i]:
            i += 1
            continue
        size, tags = _longest(sheet, i, lexicon)
        sheet.add(i, i + size, tags or _number(sheet.toks[i].norm))
        i += size


def _longest(sheet: _Sheet, i: int, lexicon: Lexicon) -> tuple[int, list[Tag]]:
    for size in range(sheet.free(i, lexicon.longest), 0, -1):
        tags = lexicon.read(" ".join(t.norm for t in sheet.toks[i : i + size]))
        if tags:
            return size, list(tags)
    return 1, []


def _number(norm: str) -> list[Tag]:
    """A number written with digits ("1,500", "-5", "2.5"); "inf" or "nan" are words, not
    numbers."""
    if not any(ch.isdigit() for ch in norm):
        return []
    try:
        return [Tag("number", float(norm.replace(",", "")))]
    except ValueError:
        return []


def is_plural(span: Span) -> bool:
    """Whether the span ends in a plural noun: "which carriers" asks for several."""
    return plural_phrase(span.key)


def time_of(span: Span) -> TimeRange | None:
    found: TimeRange | None = span.value("time")
    return found
