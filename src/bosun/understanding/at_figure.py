"""The records holding the last figure (issue 36): "show me that shipment" after "what's the
earliest ETA among shipments in transit to Baltimore?" lists the records of the last question whose
ETA is that earliest one, never every record it counted. Only a lowest or highest of a field is held
by records; after any other figure (a count, a sum, an average) the turn is read as before.

>>> from bosun.understanding.meaning import Measure
>>> earliest = Measure(name="min_eta", agg="min", field="eta_date", label="minimum eta")
>>> last = Meaning(text="earliest ETA?", index="shipments", intent_type="aggregation",
...                measures=[earliest])
>>> held = records_at_figure(last, "2026-06-11")
>>> held.intent_type, held.conditions
('search', [Condition(field='eta_date', values=['2026-06-11'], gte=None, lte=None, gt=None, \
lt=None, negate=False, exists=None, source='2026-06-11')])
>>> records_at_figure(last, None) is None
True
"""

from __future__ import annotations

from datetime import date, datetime

from bosun.understanding.inflections import is_plural
from bosun.understanding.listing import Asked
from bosun.understanding.meaning import Condition, Meaning
from bosun.understanding.names import normalize
from bosun.understanding.tagger import Span

_HELD = ("min", "max")  # the aggregations whose figure is a value some records hold
_NEAR = 2**-23  # single precision's relative step: how near a held fraction is to the figure


def extreme(previous: Meaning) -> bool:
    """The last answer was one figure, the lowest or highest of a field over records."""
    grouped = previous.group_by or previous.interval or previous.periods or previous.compare
    measures = previous.measures
    one = len(measures) == 1 and measures[0].agg in _HELD and measures[0].field is not None
    return one and not grouped


def points_at_one(text: str, words: list[str]) -> str | None:
    """The longest of the grammar's `one_record` words said in `text` ("that shipment")."""
    padded = f" {normalize(text)} "
    found = [w for w in words if f" {normalize(w)} " in padded]
    return max(found, key=len, default=None)


def shown_of_one(spans: list[Span], asked: Asked | None) -> list[str] | None:
    """The fields a turn asks (`asked`, listing.py) of one record it names in the singular ("that
    shipment", "who was the consignee of that shipment?"), or of none ("show me that one"); None
    when it names records in the plural or says anything else (a measure, a value).

    >>> from bosun.understanding.tagger import Tag
    >>> that = Span(0, 1, "that", "that", tags=[Tag("structure", None), Tag("backref", None)])
    >>> one = Span(1, 2, "one", "one", tags=[Tag("function", None)])
    >>> shown_of_one([that, one], None)
    []
    >>> ships = Span(1, 2, "shipments", "shipments", tags=[Tag("record", None)])
    >>> shown_of_one([that, ships], Asked([], records=True, pointed=True)) is None
    True
    """
    if any(s.has("record") and is_plural(s.text) for s in spans):
        return None
    if asked is not None:
        return asked.fields
    return [] if all(s.quiet for s in spans) else None


def records_at_figure(
    previous: Meaning, figure: object, shown: list[str] | None = None
) -> Meaning | None:
    """The last question's records whose field holds `figure`, its lowest or highest, with the
    fields `shown`; None when the last answer was not such a figure or kept none."""
    if not extreme(previous) or figure is None:
        return None
    field = previous.measures[0].field
    assert field is not None  # extreme() checked it
    held = _holding(field, figure)
    return previous.model_copy(
        update={
            "intent_type": "search",
            "measures": [],
            "conditions": [*previous.conditions, held],
            "top_n": None,
            "sort": [],
            "page": 1,
            "shown": shown or [],
        }
    )


def _holding(field: str, figure: object) -> Condition:
    """`field` equal to `figure`; a fraction within a step of single precision of it, as a figure
    aggregated at single precision comes back (629728.19 for 629728.2)."""
    if isinstance(figure, float) and not figure.is_integer():
        margin = abs(figure) * _NEAR
        return Condition(field=field, gte=figure - margin, lte=figure + margin, source=str(figure))
    value = _value(figure)
    return Condition(field=field, values=[value], source=str(value))


def _value(figure: object) -> str | int | float | bool:
    """The figure as a condition compares it: a date as its ISO day, a number as it is."""
    if isinstance(figure, datetime):
        return figure.date().isoformat()
    if isinstance(figure, date):
        return figure.isoformat()
    if isinstance(figure, (str, int, float, bool)):
        return figure
    return str(figure)
