"""A share of the last answer (issue 36): "what percentage of that was Maersk?", "what share of
all Savannah TEU do they make up together?", "the leader's share, in percent?". A share is a part
over a whole, both of the last question's figure: the part is a value the turn names ("was
Maersk"), else the row it picks ("the leader"), else the rows shown when the last answer was a top
few ("together"), else the last question's filters the turn does not name ("of all Seattle
arrivals" after reefer boxes into Seattle: the reefer filter). The whole is the last question
without the part. After groups, with nothing named, each group's share of them all.

>>> from bosun.understanding.meaning import Condition, Meaning
>>> seattle = Condition(field="port", values=["SEATTLE"])
>>> reefer = Condition(field="type", values=["20RF", "40RF"])
>>> last = Meaning(text="reefer into Seattle", index="shipments", conditions=[reefer, seattle])
>>> split = share_split(last, Named(part=[], whole=[seattle]), Rows())
>>> [c.field for c in split.part], [c.field for c in split.whole], split.grouped
(['type'], ['port'], False)
>>> maersk = Condition(field="carrier", values=["MAERSK"])
>>> split = share_split(last, Named(part=[], whole=[maersk]), Rows())
>>> [c.field for c in split.part], [c.field for c in split.whole]
(['carrier'], ['type', 'port'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bosun.understanding.grammar import Grammar
from bosun.understanding.inflections import plural
from bosun.understanding.meaning import Condition, Meaning, Measure, Share
from bosun.understanding.reading import AnswerRows

_SHOWN = 10  # the rows a reading lists
_ADDITIVE = ("count", "sum")  # a share of a figure that adds up over records; not of an average


@dataclass(frozen=True)
class Named:
    """The value filters a turn names: as the part of its share ("what percentage was Maersk"),
    or of the whole ("of all Seattle arrivals", names alone)."""

    part: list[Condition]
    whole: list[Condition]


@dataclass(frozen=True)
class Rows:
    """The last answer's rows a share can be of: the one the turn picks ("the top one"), and those
    shown when the last answer was a top few, each as a filter on the grouping field."""

    picked: Condition | None = None
    shown: Condition | None = None


@dataclass(frozen=True)
class Split:
    """The part and the whole's filters; `grouped`: the last grouping kept, a share per group."""

    part: list[Condition]
    whole: list[Condition]
    grouped: bool


def shareable(previous: Meaning) -> bool:
    """The last answer is a figure that adds up (a count or a sum, not yet a share) or a list of
    records (their count), in one period: a share of it means something."""
    simple = previous.intent_type in ("aggregation", "search") and previous.lookup is None
    measures = previous.measures[:1]
    additive = all(m.agg in _ADDITIVE and m.share is None for m in measures)
    return simple and additive and not (previous.periods or previous.compare)


def named_in(own: Meaning) -> Named:
    """The value filters the turn's own reading names: a share's part, its filters, and the one
    object a name alone would look up ("what percentage was Maersk?" reads Maersk as a carrier)."""
    shares = [m.share for m in own.measures if m.share is not None]
    part = list(shares[0].part) if shares else []
    looked_up = own.entities if own.lookup is not None else []
    alone = [Condition(field=e.field, values=[e.value], source=e.term) for e in looked_up]
    return Named(part=part, whole=[*own.conditions, *alone])


def share_split(previous: Meaning, named: Named, rows: Rows) -> Split | None:
    """Which filters make the part and which the whole, by the first of `_READINGS` that finds a
    part; None when the turn leaves none."""
    for reading in _READINGS:
        split = reading(previous, named, rows)
        if split is not None:
            return split
    return None


def _named_part(previous: Meaning, named: Named, rows: Rows) -> Split | None:
    """ "what percentage of that was Maersk?": values the last question did not filter on."""
    new_part = _new(named.part, previous)
    new_whole = _new(named.whole, previous)
    if not new_part and (named.part or not new_whole):
        return None
    part = new_part or new_whole
    return _valued(previous, part, [c for c in new_whole if c not in part], rows)


def _picked(previous: Meaning, named: Named, rows: Rows) -> Split | None:
    """ "what share did the top one have?": the row picked."""
    if rows.picked is None:
        return None
    return Split([rows.picked], _off(previous.conditions, [rows.picked]), grouped=False)


def _shown(previous: Meaning, named: Named, rows: Rows) -> Split | None:
    """ "what share do they make up together?" after the top 5 (or after rows a turn pointed
    at): the rows shown, added up."""
    if rows.shown is None or not (previous.top_n or previous.referent):
        return None
    return Split([rows.shown], _off(previous.conditions, [rows.shown]), grouped=False)


def _each_group(previous: Meaning, named: Named, rows: Rows) -> Split | None:
    """ "what share is that?" after TEU by carrier: each group's share of them all."""
    if not (previous.group_by or previous.interval) or named.whole:
        return None
    return Split([], list(previous.conditions), grouped=True)


def _unnamed(previous: Meaning, named: Named, rows: Rows) -> Split | None:
    """ "what percentage of all Seattle arrivals is that?" after reefer boxes into Seattle: the
    last question's filters the turn does not name (reefer) over those it names (Seattle)."""
    kept = {c.field for c in [*named.part, *named.whole]}
    part = [c for c in previous.conditions if c.field not in kept]
    whole = [c for c in previous.conditions if c.field in kept]
    grouped = bool(previous.group_by or previous.interval)
    return Split(part, whole, grouped) if part else None


_READINGS = (_named_part, _picked, _shown, _each_group, _unnamed)


def _new(conditions: list[Condition], previous: Meaning) -> list[Condition]:
    """Those of `conditions` the last question did not have (by field, values and negation)."""
    had = {_said(c) for c in previous.conditions}
    return [c for c in conditions if _said(c) not in had]


def _said(condition: Condition) -> tuple[Any, ...]:
    return condition.field, tuple(map(str, condition.values)), condition.negate


def _off(conditions: list[Condition], others: list[Condition]) -> list[Condition]:
    """`conditions` but those on the fields of `others`."""
    fields = {c.field for c in others}
    return [c for c in conditions if c.field not in fields]


def _valued(previous: Meaning, part: list[Condition], added: list[Condition], rows: Rows) -> Split:
    """A share of values the turn names: the whole is the last question's filters, those on the
    part's fields dropped and the turn's others replacing theirs; a grouping on the part's field
    is dropped ("what percentage were apparel?" after shipments by commodity), another kept, on
    the same groups when the last answer showed a top few."""
    whole = _off(previous.conditions, [*part, *added]) + added
    fields = {c.field for c in part}
    grouped = bool(previous.group_by or previous.interval) and not fields & set(previous.group_by)
    if grouped and rows.shown is not None and previous.top_n:
        whole.append(rows.shown)
    return Split(part, whole, grouped)


def shared(previous: Meaning, split: Split, measure: Measure, label: str, **kept: Any) -> Meaning:
    """The last question asked as a share of `measure` (labelled `label`), with the part and
    whole of `split`; `kept`: the reading's own parts (dates, assumptions, unread words)."""
    share = measure.model_copy(
        update={"share": Share(part=split.part), "name": f"share_{measure.name}", "label": label}
    )
    plain: dict[str, Any] = {
        "intent_type": "aggregation",
        "measures": [share],
        "conditions": split.whole,
        "group_by": previous.group_by if split.grouped else [],
        "interval": previous.interval if split.grouped else None,
        "top_n": None,
        "order": "desc",
        "sort": [],
        "compare": [],
        "steps": [],
        "periods": [],
        "page": 1,
        "lookup": None,
        "referent": None,
    }
    return previous.model_copy(update={**plain, **kept})


def shown_rows(rows: AnswerRows | None, field: str) -> Condition | None:
    """The rows the last answer showed, all of them kept, as a filter on their field."""
    if rows is None or rows.field != field or rows.cut or not rows.keys:
        return None
    return Condition(field=field, values=list(rows.keys))


def rows_said(rows: Condition, things: str, grammar: Grammar) -> str:
    """The rows a share is of, said: "the 3 shippers of the last answer: A, B, C"."""
    keys = [str(k) for k in rows.values]
    words = grammar.referents
    template = words.said_one if len(keys) == 1 else words.said
    said = template.format(count=len(keys), things=plural(things), thing=things)
    shown = ", ".join(keys[:_SHOWN])
    if len(keys) > _SHOWN:
        shown = grammar.phrases.more_values.format(shown=shown, more=len(keys) - _SHOWN)
    return f"{said}: {shown}"
