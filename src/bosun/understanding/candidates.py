"""Candidate readings of one question (issue 35): the question as written and its variants, each
read and scored by what its reading explains; the best is read, two equally good are asked back.

The variants of today repair words: a word the tagger left untagged is read as the American
spelling of it ("tyre" → "tire"), or, when no English dictionary knows it either, as a word of the
grammar or the catalog close to it by Damerau-Levenshtein similarity (rapidfuzz: a swapped pair of
letters is one edit): "consignes" → "consignees". A repair is kept only when its reading explains
more of the question than the reading without it (the coverage audit decides what a reading
leaves unread), so a close word that explains nothing is never assumed. Other kinds of variants (a
number read as a year or an amount, a word read as a field or a value) join the same ranking.

    >>> score(reading_of("top consignes by TEU"), ...)     # doctest: +SKIP
    Score(unread=1, asked=0, edits=0, content=-2)     # "consignes" not understood
    >>> score(reading_of("top consignees by TEU"), ...)    # doctest: +SKIP
    Score(unread=0, asked=0, edits=1, content=-3)     # the better: “consignes” read as consignees

Bounded: at most `MOST_WORDS` words a question, `MOST_REPAIRS` repairs a word, each read once on
top of the best so far, and nothing at all read twice when no word is unknown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from bosun.understanding.audit import Verdict, content, flagged
from bosun.understanding.inflections import american, forms, in_dictionary
from bosun.understanding.meaning import Ambiguity, Meaning
from bosun.understanding.names import normalize
from bosun.understanding.shorthand import Shorthand
from bosun.understanding.tagger import Span

MOST_WORDS = 3  # unknown words of one question repaired
MOST_REPAIRS = 3  # close words tried for one unknown word
SHORTEST = 5  # a shorter word is not fuzzed: "vine" is no typo of "wine", nor "tops" of "toys"


@dataclass(frozen=True)
class Repair:
    """The word at characters [start, end) read as `read`: a "typo" `score` % alike, a British
    "spelling", "short" for a catalog word, or an "abbreviation" of the grammar's (no edit: the
    grammar says what it stands for)."""

    start: int
    end: int
    said: str
    read: str
    kind: str
    score: float = 100.0


@dataclass(frozen=True)
class Variant:
    """The question with some of its words repaired."""

    text: str
    repairs: tuple[Repair, ...] = ()

    def with_repair(self, repair: Repair) -> Variant:
        """The variant with one more repair, the last of its `repairs`."""
        return Variant(self.text, (*self.repairs, repair))

    @property
    def spelt(self) -> str:
        """The text with each repair written in (the rightmost first, so that offsets hold)."""
        text = self.text
        for repair in sorted(self.repairs, key=lambda r: r.start, reverse=True):
            text = text[: repair.start] + repair.read + text[repair.end :]
        return text


class Score(NamedTuple):
    """How well a reading explains its question, lower is better: words left unread, then things
    asked back, then words repaired (a repair must explain more to be taken), then the content
    words read, negated (of two repairs, the one that reads a word as content: "units" over
    "until")."""

    unread: int
    asked: int
    edits: int
    content: int


@dataclass(frozen=True)
class Scored:
    variant: Variant
    meaning: Meaning
    score: Score


def score(meaning: Meaning, verdict: Verdict | None, spans: list[Span], edits: int) -> Score:
    """The reading's score over the `spans` of its text: the words it reports or the audit finds
    unread (not understood, unknown terms) and those no tag places (no reading can explain them),
    the names it asks back, the repairs it took, the content words of the text."""
    said = flagged(meaning, verdict) if verdict is not None else meaning
    reported = [*said.not_understood, *said.unknown_terms, *(s.key for s in unknown(spans))]
    asked = [a.term for a in meaning.ambiguities if a.kind == "entity"]
    unread = {w for phrase in reported for w in normalize(phrase).split()}
    unread -= {w for term in asked for w in normalize(term).split()}  # asked back: not unread
    return Score(len(unread), len(asked), edits, -sum(1 for s in spans if content(s)))


@dataclass
class Words:
    """The words a repair may read an unknown word as: each single word of the grammar's and the
    catalog's phrases and of the names, at least `SHORTEST` letters long."""

    known: list[str]
    short: Shorthand = field(default_factory=Shorthand.none)
    min_score: float = 80.0  # the catalog's fuzzy_min_score: how alike a typo must be (0-100)
    margin: float = 3.0  # the catalog's ambiguity_margin: near the closest, also tried
    _close: dict[str, tuple[tuple[str, str, float], ...]] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        phrases: Iterable[str],
        min_score: float,
        margin: float,
        short: Shorthand | None = None,
    ) -> Words:
        single = {w for phrase in phrases for w in phrase.split()}
        known = sorted(w for w in single if w.isalpha() and len(w) >= SHORTEST)
        return cls(known, short or Shorthand.none(), min_score, margin)

    def close(self, said: str, spelt: bool = True) -> tuple[tuple[str, str, float], ...]:
        """(word read, kind of repair, similarity %) for an unknown word as written: what it is
        shorthand for, else (when `spelt`: not written like a name) its American spelling, else
        the known words most like it, when no English dictionary knows it."""
        key = f"{said} {spelt}"
        if key not in self._close:
            short = tuple((read, kind, 100.0) for read, kind in self.short.expansions(said))
            self._close[key] = short or (self._options(said.lower()) if spelt else ())
        return self._close[key]

    def _options(self, word: str) -> tuple[tuple[str, str, float], ...]:
        spelt = american(word)
        if spelt != word:
            return ((spelt, "spelling", 100.0),)
        if len(word) < SHORTEST or not word.isalpha() or in_dictionary(word):
            return ()
        near = process.extract(
            word,
            self.known,
            scorer=DamerauLevenshtein.normalized_similarity,
            # 4 of 5 letters right is 80 %: rapidfuzz's cutoff misses it by more than 1e-9
            score_cutoff=self.min_score / 100.0 - 1e-6,
            limit=MOST_REPAIRS,
        )
        best = near[0][1] if near else 0.0
        alike = [(w, s) for w, s, _ in near if best - s <= self.margin / 100.0]
        return tuple((w, "typo", 100.0 * s) for w, s in _one_form_each(alike))


def _one_form_each(alike: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """Forms of one word are one option, in the form most like the typo (the first): "consignes" is
    a typo of "consignees", not also of "consignee"."""
    kept: list[tuple[str, float]] = []
    for word, similarity in alike:
        if not any(word in forms(other) for other, _ in kept):
            kept.append((word, similarity))
    return kept


@dataclass(frozen=True)
class Reader:
    """How a variant is read (the rules backend's reading of a text) and judged (the coverage
    audit's verdict on that reading)."""

    read: Callable[[str], Meaning]
    judge: Callable[[Meaning], Verdict]
    tag: Callable[[str], list[Span]]
    said: dict[str, str]  # kind of repair → how the answer says it (en.yaml phrases.repaired)


def unknown(spans: list[Span]) -> list[Span]:
    """The words the tagger could not place: no tag, letters only."""
    return [s for s in spans if not s.tags and s.key.isalpha()]


def repairable(spans: list[Span], words: Words) -> list[Span]:
    """The unknown words a repair may read as others: not those written like a name after the
    first word ("the shipper Cosko"), which the name index reads, or asks back, itself, unless
    written in capitals ("by POL"): shorthand, if the catalog's words say so. And the untagged
    symbols the grammar reads as words ("#")."""
    symbols = [s for s in spans if not s.tags and s.key in words.short.grammar]
    named = [s for s in unknown(spans) if _spelt(s) or s.text.rstrip("s").isupper()]
    return sorted({s.first: s for s in [*named, *symbols]}.values(), key=lambda s: s.first)


def _spelt(span: Span) -> bool:
    """Not written like a name: the first word, or not capitalised."""
    return span.first == 0 or not span.text[:1].isupper()


def best_reading(text: str, spans: list[Span], words: Words, reader: Reader) -> Meaning:
    """The reading of `text` that explains it best among the text and its repaired variants; the
    first reading alone when no word of its `spans` can be repaired."""
    closest = [(s, words.close(s.text, _spelt(s))) for s in repairable(spans, words)]
    closest = [(span, options) for span, options in closest if options][:MOST_WORDS]
    first = reader.read(text)
    if not closest:
        return first
    best = _scored(Variant(text), first, reader)
    for span, options in closest:
        tried = [
            _read(
                best.variant.with_repair(Repair(span.start, span.end, span.text, *option)), reader
            )
            for option in options
        ]
        best, alike = chosen(best, tried)
        if alike:
            return _asked(_said(best, reader), span.text, alike)
    return _said(best, reader)


def chosen(current: Scored, tried: list[Scored]) -> tuple[Scored, list[str]]:
    """The best of `current` and the variants `tried` of one word, and the words read for it by
    variants that explain as well as the best but read otherwise (to ask back), if any. A variant
    must score better than `current` to be taken."""
    if not tried:
        return current, []
    best = min(tried, key=lambda t: t.score)
    if best.score >= current.score:
        return current, []
    alike = [t for t in tried if t.score == best.score and _gist(t.meaning) != _gist(best.meaning)]
    if not alike:
        return best, []
    return current, [t.variant.repairs[-1].read for t in [best, *alike]]


def _scored(variant: Variant, meaning: Meaning, reader: Reader) -> Scored:
    verdict = reader.judge(meaning)
    spans = reader.tag(meaning.text)
    edits = sum(1 for r in variant.repairs if r.kind != "abbreviation")
    return Scored(variant, meaning, score(meaning, verdict, spans, edits))


def _read(variant: Variant, reader: Reader) -> Scored:
    return _scored(variant, reader.read(variant.spelt), reader)


def _gist(meaning: Meaning) -> str:
    """What a reading asks, without the words it was read from."""
    said = {"text", "entities", "assumptions", "not_understood", "unknown_terms"}
    return meaning.model_dump_json(exclude=said)


def _said(best: Scored, reader: Reader) -> Meaning:
    """The best reading, of the question as written, saying each word it read as another."""
    told = [
        reader.said[r.kind].format(said=r.said, read=r.read, score=f"{r.score:.0f}")
        for r in best.variant.repairs
    ]
    update = {"text": best.variant.text, "assumptions": [*told, *best.meaning.assumptions]}
    return best.meaning.model_copy(update=update)


def _asked(meaning: Meaning, word: str, options: list[str]) -> Meaning:
    """The reading without the word, asking which of `options` it means."""
    asked = Ambiguity(term=word, kind="entity", options=sorted(set(options)))
    unread = [w for w in meaning.not_understood if w != word]
    return meaning.model_copy(
        update={"ambiguities": [*meaning.ambiguities, asked], "not_understood": unread}
    )
