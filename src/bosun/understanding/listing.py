"""A turn that lists the last answer's records or their fields (issue 36): "what are their ETAs?",
"when are they due?", "who are the consignees?", "where are they?", "show me the records", after a
list of records or a figure over them. The last question's filters stand for its records.

A turn is read so when every content word of it names a field of the records (a field's words, a
date word: "due" is the ETA), the records themselves, or is a question word the catalog maps to a
field (`asks`: "where"); "when" alone asks the default date. The values of a grouping field
("who are the consignees?") are listed once each, with the last figure after one; any other field
is listed for each record ("their ETAs"), and so is every field of records picked by a ranking
("who shipped them?" after the heaviest 5).

>>> from bosun.understanding.tagger import Span, Tag
>>> when = Span(0, 1, "when", "when", tags=[Tag("dated", None), Tag("structure", None)])
>>> they = Span(1, 2, "they", "they", tags=[Tag("backref", None)])
>>> due = Span(2, 3, "due", "due", tags=[Tag("date_word", "eta_date")])
>>> asked_of_records([when, they, due], {"where": "port"}, "arrival_date")
Asked(fields=['eta_date'], records=False, pointed=True)
>>> where = Span(0, 1, "where", "where", tags=[Tag("wh", None)])
>>> asked_of_records([where, they], {"where": "port"}, "arrival_date")
Asked(fields=['port'], records=False, pointed=True)
>>> asked_of_records([Span(0, 1, "Maersk", "maersk", tags=[Tag("value", None)])], {}, "d") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from bosun.catalog import Catalog
from bosun.understanding.meaning import Meaning
from bosun.understanding.tagger import Span

# what else a turn about the records may say: their noun, a pointer back, a date verb
_NAMING_NO_FIELD = ("record", "backref", "date_word")


@dataclass(frozen=True)
class Asked:
    """What a turn lists of the last answer's records: the fields it names, in order; whether it
    names the records themselves ("show me the records"); whether a word points back at them
    ("their", "they")."""

    fields: list[str]
    records: bool
    pointed: bool


def asked_of_records(
    spans: list[Span],
    asks: dict[str, str],
    default_date: str,
    questions: frozenset[str] = frozenset(),
) -> Asked | None:
    """The fields a turn names of the records, when it says nothing else of content but a question
    word of `questions` ("who"); None when it says something else (a value, a measure, a ranking)
    or names nothing."""
    fields: list[str] = []
    asked = _asked_here(spans, asks)
    for span in spans:
        named = _named(span, asked)
        if named is None and span.key not in questions:
            return None
        fields += [f for f in named or [] if f not in fields]
    records = any(s.has("record") and not s.has("field") for s in spans)
    if any(s.has("dated") for s in spans):  # "when": the date a date word names, else the default
        dates = [d for s in spans for d in s.values("date_word")]
        fields += [d for d in dates[:1] or [default_date] if d not in fields]
    if not (fields or records):
        return None
    return Asked(fields, records, pointed=any(s.has("backref") for s in spans))


def _asked_here(spans: list[Span], asks: dict[str, str]) -> dict[str, str]:
    """The catalog's question words as this turn says them, its first word → its field: the longest
    of `asks` whose words are all said ("where … from" before "where").

    >>> from bosun.understanding.tagger import Span
    >>> said = [Span(i, i + 1, w, w) for i, w in enumerate("where did they come from".split())]
    >>> _asked_here(said, {"where": "to_port", "where from": "from_port"})
    {'where': 'from_port'}
    """
    keys = {s.key for s in spans}
    said = [phrase for phrase in asks if set(phrase.split()) <= keys]
    return {p.split()[0]: asks[p] for p in sorted(said, key=lambda p: len(p.split()))}


def _named(span: Span, asks: dict[str, str]) -> list[str] | None:
    """The fields one span names: its field, a question word's field ("where"); none for a quiet
    word, the records' noun or a date word (a date only with "when": "when are they due?"); None
    for any other content."""
    if span.has("field"):
        return span.values("field")[:1]
    if span.key in asks:
        return [asks[span.key]]
    silent = span.quiet or any(span.has(kind) for kind in _NAMING_NO_FIELD)
    return [] if silent else None


def applies(previous: Meaning) -> bool:
    """The last answer was records, or a figure over them: not groups, periods or an object."""
    grouped = previous.group_by or previous.interval or previous.periods or previous.compare
    return not (grouped or previous.lookup is not None or previous.steps)


def listed_records(previous: Meaning, asked: Asked, catalog: Catalog) -> Meaning | None:
    """The last question's records again: the values of the grouping field named, each once (with
    the last figure, after one); else the records, each with the fields named. None for another
    field asked with nothing that points at the records ("and the weight?" is a figure, "what is
    an ETA?" a term)."""
    ranked = _ranked(previous)
    if _grouping_fields(asked, catalog) and not ranked:
        return _values(previous, asked.fields[0])
    if asked.fields and not asked.pointed:
        return None
    shown = [f for f in asked.fields if f != catalog.record.id_field]
    return _records(previous, shown, kept_ranking=ranked)


def _ranked(previous: Meaning) -> bool:
    """The last answer's records were picked by a ranking ("the heaviest 5")."""
    return previous.intent_type == "search" and bool(previous.top_n or previous.sort)


def _grouping_fields(asked: Asked, catalog: Catalog) -> bool:
    """Every field asked is one the records are grouped by ("consignees", "vessels")."""
    roles = {catalog.record.fields[f].role for f in asked.fields}
    return roles == {"dimension"}


def _values(previous: Meaning, field: str) -> Meaning:
    """The field's values among the records, each with the last figure, if any."""
    return previous.model_copy(
        update={
            "intent_type": "aggregation",
            "measures": previous.measures,
            "group_by": [field],
            "top_n": None,
            "order": "desc",
            "sort": [],
            "page": 1,
            "shown": [],
        }
    )


def _records(previous: Meaning, shown: list[str], kept_ranking: bool) -> Meaning:
    return previous.model_copy(
        update={
            "intent_type": "search",
            "measures": [],
            "top_n": previous.top_n if kept_ranking else None,
            "sort": previous.sort if kept_ranking else [],
            "page": 1,
            "shown": shown,
        }
    )
