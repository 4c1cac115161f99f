"""Rows of the last answer picked by their place (issue 36, conv-ordinal): "the second", "the third
one", "the second carrier", "the peak month", "it" after an answer of one row.

An ordinal points at a row when "the" comes before it and, after it, nothing, a quiet word or a
noun of the rows ("one", the unit of the last answer's periods, a word of its field's name): "the
first quarter" after a list of carriers is a date, not a row.

>>> from bosun.understanding.tagger import Span, Tag
>>> def span(i, word, *tags):
...     return Span(i, i + 1, word, word, tags=[Tag(kind, value) for kind, value in tags])
>>> the, of = span(0, "the", ("function", None)), span(2, "of", ("function", None))
>>> second = span(1, "second", ("ordinal", 2))
>>> ordinals_said([of, the, second], {"one", "carrier"})
[('the second', 2)]
>>> ordinals_said([the, second, span(2, "quarter", ("interval_unit", "quarter"))], {"one"})
[]
"""

from __future__ import annotations

from bosun.understanding.grammar import ReferentWords
from bosun.understanding.meaning import Meaning, Measure
from bosun.understanding.names import normalize
from bosun.understanding.tagger import Span


def row_nouns(field_words: list[str], interval_words: list[str]) -> set[str]:
    """The words that name one of the last answer's rows: "one", the words of its field's name
    ("carrier"), the words of its periods' unit ("month")."""
    return {"one", *field_words, *interval_words}


def ordinals_said(spans: list[Span], nouns: set[str]) -> list[tuple[str, int]]:
    """Each ordinal that points at a row, with its words and its place (-1: "the last")."""
    return [
        (f"the {span.text}", int(span.value("ordinal")))
        for at, span in enumerate(spans)
        if span.value("ordinal") and _at_row(spans, at, nouns)
    ]


def ordinals_listed(spans: list[Span]) -> list[tuple[str, int]]:
    """Every ordinal after "the", wherever it stands: two or more ("the first and the third") can
    only be rows."""
    return [
        (f"the {span.text}", int(span.value("ordinal")))
        for at, span in enumerate(spans)
        if span.value("ordinal") and at > 0 and spans[at - 1].key == "the"
    ]


def _at_row(spans: list[Span], at: int, nouns: set[str]) -> bool:
    """The word at `at` follows "the" and comes before nothing, a quiet word or a noun of rows."""
    if at == 0 or spans[at - 1].key != "the":
        return False
    after = spans[at + 1] if at + 1 < len(spans) else None
    return after is None or after.quiet or after.key in nouns


def only_asks(before: list[str], words: ReferentWords) -> bool:
    """The words before a rank word only ask which row it is ("what was the" busiest month), with
    nothing the row is for ("the carriers in the" peak month).

    >>> from bosun.understanding.grammar import english
    >>> only_asks("and what was the".split(), english().referents)
    True
    >>> only_asks("show me the carriers in the".split(), english().referents)
    False
    """
    said = [w for w in before if w != "the"]
    while said and said[0] in words.openers:
        said = said[1:]
    return not said or " ".join(said) in {normalize(p) for p in words.pick}


def index_of(place: int, rows: int) -> int | None:
    """The row's index for a place counted from the first (1) or from the last (-1)."""
    index = place - 1 if place > 0 else rows + place
    return index if 0 <= index < rows else None


def measures_kept(own: Meaning, previous: Meaning, default: str, counted: bool) -> list[Measure]:
    """The measures of a turn about one row: its own, but when it names none and only ranks ("who
    shipped the most of the top one?"), those of the last answer; `counted`: the turn says the
    default measure's words ("how many shipments")."""
    named = [m for m in own.measures if m.name != default]
    if named or counted or not previous.measures:
        return own.measures
    return previous.measures
