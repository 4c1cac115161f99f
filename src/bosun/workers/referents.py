"""last_answer_rows: the rows of the thread's last answer a goal is about ("which of them is
quickest?"), handed to the query.

The reading carries the rows the thread kept with the last turn (`Meaning.referent`); this worker
hands their keys on, and es_query_gen, wired to them by an InputRef, filters the grouping field on
them (every row but them, for "the rest"). The plan and the trace show the edge from the last
answer's rows to the query.
"""

from __future__ import annotations

from bosun.errors import UnsupportedQuery
from bosun.understanding import Meaning
from bosun.understanding.meaning import Condition
from bosun.workers.context import Context
from bosun.workers.models import GoalParams, WorkerInput, WorkerResult
from bosun.workers.registry import worker
from bosun.workers.slots import ANALYSIS_RESULT, POINTED_ROWS, PointedRows


def has_referent(params: GoalParams) -> bool:
    """The goal is about the rows of the last answer: its query needs their keys."""
    return params.meaning is not None and params.meaning.referent is not None


@worker(
    "last_answer_rows",
    "Hands on the keys of the last answer's rows that the goal points at",
    consumes=[ANALYSIS_RESULT],
    produces=[POINTED_ROWS],
    goal_type="support",
    preconditions=["the goal points at the rows of the thread's last answer"],
    title="take the last answer's rows",
)
def last_answer_rows(wi: WorkerInput, ctx: Context) -> WorkerResult:
    pointed_at = wi.get(ANALYSIS_RESULT).referent
    if pointed_at is None or not pointed_at.keys:
        raise UnsupportedQuery("last_answer_rows", "the goal points at no rows of the last answer")
    rows = PointedRows(
        field=pointed_at.field,
        keys=list(pointed_at.keys),
        negate=pointed_at.negate,
        words=pointed_at.words,
    )
    return WorkerResult.of(wi, POINTED_ROWS.of(rows))


def wired_rows(wi: WorkerInput) -> PointedRows | None:
    """The last answer's rows, when the planner wired them to this sub-goal."""
    value = wi.resolved_inputs.get(POINTED_ROWS.name)
    return None if value is None else POINTED_ROWS.read(value)


def with_rows(meaning: Meaning, rows: PointedRows | None) -> Meaning:
    """The meaning filtered on the last answer's rows it points at (a filter on the grouping field
    with their keys)."""
    if meaning.referent is None:
        return meaning
    if rows is None:
        raise UnsupportedQuery(
            "es_query_gen", "the last answer's rows were not handed on before the query"
        )
    kept = [c for c in meaning.conditions if c.field != rows.field or c.negate != rows.negate]
    condition = Condition(field=rows.field, values=rows.keys, negate=rows.negate, source=rows.words)
    return meaning.model_copy(update={"conditions": [*kept, condition]})
