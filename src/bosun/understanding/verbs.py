"""Nouns said as verbs. English puts the verb after the question's subject and before what it does
to, so a catalog noun standing there is the verb, not a grouping or the record:

    "which countries of origin ship the most TEU"   "ship" is no vessel
    "carriers that ship the most reefers"           nor here
    "which customers order the most units"          "order" is no count of orders
"""

from __future__ import annotations

from bosun.understanding.grammar import Tag, VerbPlace
from bosun.understanding.tagger import Span

_NOUN = frozenset({"field", "object", "entity_word", "date_word", "record"})
_SUBJECT = frozenset({"field", "object", "entity_word"})


def verbs_in_place(spans: list[Span], place: VerbPlace) -> list[Span]:
    """`spans`, each one-word noun in a verb's place read as a neutral verb."""
    for at in range(1, len(spans) - 1):
        if (
            _noun(spans[at])
            and _after_subject(spans, at, place)
            and _before_object(spans[at + 1], place)
        ):
            spans[at].tags = [Tag("neutral", None)]
    return spans


def _noun(span: Span) -> bool:
    kinds = {tag.kind for tag in span.tags}
    return span.last - span.first == 1 and bool(kinds) and kinds <= _NOUN


def _after_subject(spans: list[Span], at: int, place: VerbPlace) -> bool:
    before = spans[at - 1]
    if before.key in place.relatives and at >= 2:
        before = spans[at - 2]
    return any(tag.kind in _SUBJECT for tag in before.tags)


def _before_object(span: Span, place: VerbPlace) -> bool:
    return span.has("rank") or span.key.split(" ")[0] in place.objects
