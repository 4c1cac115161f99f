"""Two values of one field compared, read as the field's groups (issue 34): "20GP compared with
40GP", "kitchen versus sports", "hazmat versus non-hazmat". Each side is a row of its own, never
two filters that no record passes together, nor one figure over both.

    "in-transit versus held shipments"   → status [in_transit, held], grouped by status
    "hazmat versus non-hazmat shipments" → no filter on is_hazardous, grouped by it
    "reefer shipments in 40RF boxes"     → container_type [40RF]: the narrower filter, not compared
"""

from __future__ import annotations

from bosun.understanding.meaning import Condition, Meaning
from bosun.understanding.rulekit import ComposerView
from bosun.understanding.tagger import Span


def sides(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """Value filters on one field said apart: disjoint values are one filter over both, compared;
    a value said with its own negation compares the whole field; one inside the other narrows."""
    kept: list[Condition] = []
    for condition in meaning.conditions:
        same = _earlier(kept, condition)
        if same is None:
            kept.append(condition)
        elif same.negate != condition.negate:
            _opposed(kept, same, condition, meaning)
        elif same.negate or set(same.values) & set(condition.values):
            _nested(kept, same, condition)
        else:
            same.values.extend(condition.values)
            _compare(meaning, condition.field)
    meaning.conditions = kept


def _earlier(kept: list[Condition], condition: Condition) -> Condition | None:
    """The filter on the same field's values kept before this one, if any."""
    if not condition.values:
        return None
    return next((x for x in kept if x.field == condition.field and x.values), None)


def _opposed(kept: list[Condition], same: Condition, other: Condition, meaning: Meaning) -> None:
    """ "hazmat versus non-hazmat": every record is one side or the other, so the field groups and
    neither side filters. A negation of other values ("held, not in transit") is kept beside."""
    if set(same.values) != set(other.values):
        kept.append(other)
        return
    kept.remove(same)
    _compare(meaning, other.field)


def _nested(kept: list[Condition], same: Condition, other: Condition) -> None:
    """ "reefer shipments in 40RF boxes": the narrower values, as both filters together mean; two
    negations ("not Maersk, not MSC") both hold."""
    if same.negate:
        kept.append(other)
    elif set(other.values) <= set(same.values):
        same.values = list(other.values)
    elif not set(same.values) <= set(other.values):
        kept.append(other)


def _compare(meaning: Meaning, field: str) -> None:
    if field not in meaning.compare:
        meaning.compare.append(field)


def more_of_the_sides(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "did Savannah or Charleston receive more TEU?": both sides, the larger first ("less": the
    smaller first); no side is dropped."""
    if not meaning.compare or meaning.top_n is not None:
        return
    for span in spans:
        degree = span.value("degree")
        if span.used or degree is None or degree[0] != "comparative":
            continue
        meaning.order = "desc" if degree[1] > 0 else "asc"
        span.used = True
