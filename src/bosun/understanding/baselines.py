"""Groups held against the overall figure (issue 35): a comparison whose other side is an average
word where a number would stand.

    "carriers whose average transit time is below the overall average"
        → average transit days by carrier, Threshold(against=Baseline(op="lt", over="records"))
    "which ports handled more TEU than average"
        → total TEU by port, Threshold(against=Baseline(op="gt", over="groups"))
    "carriers with above-average transit times"     → by carrier, over the records
    "ports busier than average"                     → the count by port, over the groups
    "days in May with fewer shipments than average" → the count per day, over the days

A measure that adds up over records is held against the average of the groups' own figures, a
level against itself over every record in scope (`meaning.Baseline` says why). The figure is
computed by a sub-goal of its own before the groups are kept (workers/baselines.py). The words are
en.yaml's `baselines`; the average words its `aggregations`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, cast

from bosun.understanding.group_steps import (
    Claim,
    Composer,
    bound_measure,
    group_head,
    named_measure,
    settle,
)
from bosun.understanding.meaning import Baseline, Meaning, Measure, Threshold
from bosun.understanding.tagger import Span

Op = Literal["gt", "gte", "lt", "lte"]
# measures that add up over records: held against the average of the groups' figures
ADDITIVE = ("count", "sum", "cardinality")


@dataclass
class _Cue:
    """A comparison waiting for its other side: its operator, its spans, and the measure it names
    itself ("more TEU than", "slower than"), if any."""

    op: Op
    spans: list[Span]
    end: int  # where the words after the comparison start
    measure: Measure | None = None
    words: list[Span] = field(default_factory=list)


def against_overall(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "above average", "more TEU than the average port", "slower than average": a threshold on
    each group's measure whose bound is the same measure over everything in scope."""
    claims = [claim for i in range(len(spans)) if (claim := _claim(spans, i, c)) is not None]
    settle(meaning, claims)


def _claim(spans: list[Span], i: int, c: Composer) -> Claim | None:
    cue = _cue(spans, i, c)
    if cue is None:
        return None
    after = cue.end
    at = _average_word(spans, after, c)
    head = group_head(spans, i, c) if at is not None else None
    if at is None or head is None:
        return None
    measured = _measure(spans, head, i, at, cue, c)
    if measured is None or measured[0].share is not None:
        return None
    measure, words = _per_record(spans, *measured, c)
    over = "groups" if measure.agg in ADDITIVE else "records"
    said = [*cue.spans, *cue.words, *spans[after : at + 1], spans[head], *words]
    return Claim(
        Threshold(against=Baseline(op=cue.op, over=over)),
        [*said, *_whole(spans, at, spans[head], c)],
        measure=measure,
        group=c.dimension(spans[head]),
        interval=spans[head].value("interval_unit"),
    )


def _cue(spans: list[Span], i: int, c: Composer) -> _Cue | None:
    """ "above", "below", "more than", "slower than", "less popular than", "fewer shipments
    than"."""
    span = spans[i]
    if span.used:
        return None
    op = span.value("threshold")
    if op in ("gt", "gte", "lt", "lte"):
        return _Cue(cast(Op, op), [span], i + 1)
    return _comparative(spans, i, c) or _more_of(spans, i, c)


def _comparative(spans: list[Span], i: int, c: Composer) -> _Cue | None:
    """A catalog adjective's comparative before "than" ("slower than", "less popular than"): the
    adjective's measure, in its direction."""
    found = _adjective(spans, i)
    if found is None:
        return None
    (kind, name, direction, _), width = found
    measure = _adjective_measure(kind, name, c)
    # "slower than", "shorter transit times than": the measure may be said again before "than"
    than = i + width
    while than < len(spans) and _same_field(spans[than], measure, c):
        than += 1
    if than >= len(spans) or spans[than].key not in c.grammar.baselines.than:
        return None
    op: Op = "gt"
    if direction < 0:
        op = "lt"
    return _Cue(op, spans[i : than + 1], than + 1, measure)


Adjective = tuple[str, str, int, str]  # the tagger's: kind, name, direction, form


def _adjective_measure(kind: str, name: str, c: Composer) -> Measure:
    """What a catalog adjective measures: a field ("slower": transit days) or a measure ("busier":
    shipments)."""
    if kind == "field":
        return c.field_measure(name)
    return c.measure(name)


def _adjective(spans: list[Span], i: int) -> tuple[Adjective, int] | None:
    """The comparative at `i` ("slower"), or a degree word and the adjective after it ("less
    popular", its direction turned), with how many spans it takes."""
    comparative = [a for a in spans[i].values("adjective") if a[3] == "comparative"]
    if comparative:
        return comparative[0], 1
    degree = spans[i].value("degree")
    following = spans[i + 1 : i + 2]
    if not degree or degree[0] != "comparative" or not following:
        return None
    adjectives = following[0].values("adjective")
    if not adjectives:
        return None
    kind, name, direction, form = adjectives[0]
    return (kind, name, direction * degree[1], form), 2


def _more_of(spans: list[Span], i: int, c: Composer) -> _Cue | None:
    """ "more TEU than", "fewer shipments than", "less reefer boxes than": the measure between the
    comparison and "than" (values before it are filters, read already)."""
    words = c.grammar.baselines
    if spans[i].key not in (*words.more, *words.less):
        return None
    op: Op = "gt" if spans[i].key in words.more else "lt"
    for j in range(i + 1, min(len(spans), i + 5)):
        if spans[j].key in words.than:
            named = [s for s in spans[i + 1 : j] if named_measure(s, c) is not None]
            if len(named) != 1:
                return None
            measure = named_measure(named[0], c)
            return _Cue(op, [spans[i], spans[j]], j + 1, measure, named)
        if not _between(spans[j], c):
            return None
    return None


def _between(span: Span, c: Composer) -> bool:
    """What may stand between "more" and "than": the measure, a value or name, small words."""
    filters = span.has("value") or span.has("name") or c.glue(span)
    return filters or named_measure(span, c) is not None


def _average_word(spans: list[Span], start: int, c: Composer) -> int | None:
    """Where the average word stands after the comparison, past "the", "overall"."""
    j = start
    while j < len(spans) and spans[j].quiet and not spans[j].used:
        j += 1
    word = spans[j : j + 1]
    if not word or word[0].used:
        return None
    aggs = [agg[0] for agg in word[0].values("agg")]
    if word[0].has("measure"):
        aggs = ["avg"] if _averaged(word[0], c) is not None else []
    return j if "avg" in aggs else None


def _averaged(span: Span, c: Composer) -> Measure | None:
    """A catalog average named with its average word ("below-average order value"): the word
    both says the overall figure and names the measure."""
    names = span.values("measure")
    averages = c.grammar.aggregations["avg"].words
    if not names or span.key.split()[0] not in averages:
        return None
    measure = c.measure(names[0])
    return measure if measure.agg == "avg" else None


def _measure(
    spans: list[Span], head: int, i: int, at: int, cue: _Cue, c: Composer
) -> tuple[Measure, list[Span]] | None:
    """The measure compared: the comparison's own, named before it ("whose average transit time is
    below"), or after the average word ("above average transit time")."""
    who = [s for s in spans[head:i] if s.has("who")]
    if cue.measure is not None:
        # "transit times longer than average": the measure said before the adjective as well
        said = [s for s in spans[head + 1 : i] if _same_field(s, cue.measure, c)]
        return cue.measure, [*who, *said]
    averaged = _averaged(spans[at], c)
    if averaged is not None:
        return averaged, who
    found = bound_measure(spans, head, i, at, c)
    if found is None:
        return None
    return found[0], [*found[1], *who]


def _per_record(
    spans: list[Span], measure: Measure, words: list[Span], c: Composer
) -> tuple[Measure, list[Span]]:
    """ "above average TEU per shipment": a figure per record is the average of its field, held
    against the same average over every record."""
    said = [j for j, span in enumerate(spans) if any(span is w for w in words)]
    at = max(said, default=len(spans)) + 1
    per, noun = spans[at : at + 1], spans[at + 1 : at + 2]
    if measure.field is None or not per or not noun or not noun[0].has("record"):
        return measure, words
    if per[0].key not in c.grammar.steps.within:
        return measure, words
    return c.field_measure(measure.field, "avg"), [*words, per[0], noun[0]]


def _same_field(span: Span, measure: Measure, c: Composer) -> bool:
    named = named_measure(span, c)
    return named is not None and named.field is not None and named.field == measure.field


def _whole(spans: list[Span], at: int, head: Span, c: Composer) -> list[Span]:
    """ "the average carrier", "the average across all ports": the groups named again after the
    average word (their words are read)."""
    j = at + 1
    while j < len(spans) and spans[j].key in c.grammar.baselines.whole:
        j += 1
    named = spans[j : j + 1]
    if not named or named[0].used or not _same_groups(named[0], head, c):
        return []
    return spans[at + 1 : j + 1]


def _same_groups(span: Span, head: Span, c: Composer) -> bool:
    """Both words name the same grouping: a field's ("carrier", "carriers") or a period's."""
    field_ = c.dimension(head)
    unit = head.value("interval_unit")
    if field_ is not None:
        return c.dimension(span) == field_
    return unit is not None and span.value("interval_unit") == unit
