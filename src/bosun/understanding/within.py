"""What a ranking is inside (issue 35): a ranking scoped by a within word ("each", "every", "per",
"for each", "in every" …) and a coarser period, or a group of values, is a ranking inside each of
them, never one ranking over everything.

    "the quietest week in each quarter"        → weeks ranked inside each quarter
    "busiest month of each year"               → months ranked inside each year
    "top 2 carriers at every east coast port"  → carriers ranked inside each port the link names
    "for each kitchen product, the top buyer"  → buyers ranked inside each product of the category

Pure functions over the tagged spans; the within words are en.yaml's `steps.within`, the fields the
catalog's (through `dimension`). group_steps.top_each writes what they find into the Meaning.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from bosun.understanding.meaning import INTERVALS, Interval
from bosun.understanding.tagger import Span

# what narrows a noun to some of its values: "east coast" ports, "kitchen" products
_NARROWING = ("link_value", "value", "name")


@dataclass(frozen=True)
class Nested:
    """A period ranked inside a coarser one said with a within word: `ranked` inside `holder`,
    which the words `said` name ("in each", "quarter")."""

    ranked: Interval
    holder: Interval
    said: list[Span]


def nested_periods(spans: list[Span], within_words: Collection[str]) -> Nested | None:
    """The two periods of "the quietest week in each quarter", the coarser said with a within word
    and the finer without one; None unless the question says exactly those two.

        "the quietest week in each quarter of 2025" → Nested("week", "quarter", [in each, quarter])
    """
    cued: dict[Interval, list[Span]] = {}
    plain: set[Interval] = set()
    for i in range(len(spans)):
        unit, said = _period_at(spans, i, within_words)
        if unit is None:
            continue
        if said:
            cued.setdefault(unit, said)
        else:
            plain.add(unit)
    plain -= set(cued)
    if len(cued) != 1 or len(plain) != 1:
        return None
    (holder, said), ranked = next(iter(cued.items())), next(iter(plain))
    if INTERVALS.index(ranked) >= INTERVALS.index(holder):
        return None
    return Nested(ranked=ranked, holder=holder, said=said)


def scoped_period(spans: list[Span], within_words: Collection[str]) -> list[Span]:
    """The words of the first period said with a within word ("each month", "per" + "week"), or
    none.

        "the heaviest shipment each month" → [each month]
    """
    for i in range(len(spans)):
        unit, said = _period_at(spans, i, within_words)
        if unit is not None and said:
            return said
    return []


def _period_at(
    spans: list[Span], i: int, within_words: Collection[str]
) -> tuple[Interval | None, list[Span]]:
    """The period span i names, and the words that say it with a within word ("each year", "per" +
    "quarter"); no words when it is said without one ("week", "monthly")."""
    span = spans[i]
    if span.has("interval"):
        unit: Interval = span.value("interval")
        return unit, [span] if span.key.split()[0] in within_words else []
    if not span.has("interval_unit"):
        return None, []
    before = spans[i - 1] if i > 0 else None
    if before is not None and before.key in within_words:
        return span.value("interval_unit"), [before, span]
    return span.value("interval_unit"), []


def value_group(
    spans: list[Span],
    within_words: Collection[str],
    dimension: Callable[[Span], str | None],
) -> tuple[str, list[Span]] | None:
    """The field a within word groups by through values that narrow its noun ("every east coast
    port": port_of_unlading, the values filtering as they do alone), with the within word and the
    noun.

        "top 2 carriers at every east coast port" → ("port_of_unlading", [every, port])
    """
    for i, cue in enumerate(spans):
        if cue.key not in within_words:
            continue
        j = i + 1
        while j < len(spans) and any(spans[j].has(kind) for kind in _NARROWING):
            j += 1
        field = dimension(spans[j]) if i + 1 < j < len(spans) else None
        if field is not None:
            return field, [cue, spans[j]]
    return None
