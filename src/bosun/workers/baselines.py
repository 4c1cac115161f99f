"""overall_figure: the first of the two sub-goals of groups held against the overall figure ("ports
that handled more TEU than average", "carriers whose average transit time is below the overall
average").

It computes the figure the threshold's bound is (understanding's `Baseline`): the measure over
every record in scope for a level, or the average of the groups' own figures for a measure that
adds up, under the question's filters and time. es_query_gen, wired to it by an InputRef, binds
the figure into the threshold. One query cannot do both, on the embedded engine or a cluster: a
bucket_selector reads only its own bucket's paths, never a figure over every bucket.
"""

from __future__ import annotations

from typing import Any

from bosun import query
from bosun.errors import UnsupportedQuery
from bosun.understanding import Meaning
from bosun.understanding.meaning import Baseline, PerGroup, PerPeriod, Step, Threshold
from bosun.workers.context import Context
from bosun.workers.links import has_links, wired, with_keys
from bosun.workers.models import GoalParams, WorkerInput, WorkerResult
from bosun.workers.registry import worker
from bosun.workers.slots import ANALYSIS_RESULT, BASELINE_FIGURE, LINKED_KEYS, OverallFigure


def held(meaning: Meaning) -> Threshold | None:
    """The meaning's threshold against the overall figure, if it has one."""
    return next(
        (s for s in meaning.steps if isinstance(s, Threshold) and s.against is not None), None
    )


def has_baseline(params: GoalParams) -> bool:
    """The goal holds groups against the overall figure: its query needs the figure first."""
    return params.meaning is not None and held(params.meaning) is not None


@worker(
    "overall_figure",
    "Computes the overall figure that groups are held against ('more TEU than average') and "
    "hands it on",
    consumes=[ANALYSIS_RESULT],
    produces=[BASELINE_FIGURE],
    goal_type="support",
    consumes_if=[(LINKED_KEYS, has_links)],
    preconditions=["the goal keeps the groups above or below the overall figure"],
    title="compute the overall figure",
)
def overall_figure(wi: WorkerInput, ctx: Context) -> WorkerResult:
    meaning = with_keys(wi.get(ANALYSIS_RESULT), wired(wi), ctx.catalog)
    step = held(meaning)
    if step is None or step.against is None:
        raise UnsupportedQuery("overall_figure", "the goal holds no group against a figure")
    compiled = query.compile(overall_meaning(meaning, step, step.against), ctx.catalog)
    response = ctx.engine.search(compiled.index, compiled.body)
    query.tabulate(compiled, response, ctx.catalog)  # refuses an average over groups left out
    value = query.overall(compiled.meaning, response)
    figure = OverallFigure(value=value, query=compiled.body)
    return WorkerResult.of(wi, BASELINE_FIGURE.of(figure))


def overall_meaning(meaning: Meaning, step: Threshold, against: Baseline) -> Meaning:
    """The meaning of the overall figure: the threshold's measure under the same filters and time,
    over every record, or averaged over the groups (or periods) the threshold keeps."""
    measure = meaning.measures[step.measure]
    base: dict[str, Any] = {
        "measures": [measure],
        "group_by": [],
        "interval": None,
        "steps": [],
        "top_n": None,
        "sort": [],
        "intent_type": "aggregation",
    }
    if against.over == "records":
        return meaning.model_copy(update=base)
    return meaning.model_copy(update={**base, **_over_groups(meaning)})


def _over_groups(meaning: Meaning) -> dict[str, Any]:
    """The grouping whose figures are averaged: the first field, or else the periods."""
    averaged: Step
    if meaning.group_by and meaning.interval is None:
        averaged = PerGroup()
        return {"group_by": meaning.group_by[:1], "steps": [averaged]}
    if meaning.interval is not None and not meaning.group_by:
        averaged = PerPeriod(interval=meaning.interval)
        return {"steps": [averaged]}
    raise UnsupportedQuery(
        "overall_figure", "an average over both groups and periods to hold each against"
    )


def wired_figure(wi: WorkerInput) -> OverallFigure | None:
    """The overall figure, when the planner wired it to this sub-goal."""
    value = wi.resolved_inputs.get(BASELINE_FIGURE.name)
    return None if value is None else BASELINE_FIGURE.read(value)


def with_figure(meaning: Meaning, figure: OverallFigure | None) -> Meaning:
    """The meaning with the overall figure as its threshold's bound ("above 1,234.5")."""
    step = held(meaning)
    if step is None or step.against is None:
        return meaning
    if figure is None:
        raise UnsupportedQuery(
            "es_query_gen", "the overall figure was not computed before the query"
        )
    against = step.against.model_copy(update={"value": figure.value})
    bound = Threshold(measure=step.measure, against=against, **{against.op: figure.value})
    steps = [bound if s is step else s for s in meaning.steps]
    return meaning.model_copy(update={"steps": steps})
