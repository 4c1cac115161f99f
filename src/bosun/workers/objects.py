"""graphql_lookup: one business object and the attributes asked of it, through GraphQL."""

from __future__ import annotations

from typing import Any

from bosun import answers
from bosun.errors import UnknownEntity, UnsupportedQuery
from bosun.workers.context import Context
from bosun.workers.models import Deliverable, ResultTable, WorkerInput, WorkerResult
from bosun.workers.registry import worker
from bosun.workers.slots import ANALYSIS_RESULT, OBJECT_DETAILS


@worker(
    "graphql_lookup",
    "Looks up one business object and the attributes asked of it through GraphQL",
    consumes=[ANALYSIS_RESULT],
    produces=[OBJECT_DETAILS],
    goal_type="deliverable",
    preconditions=["the goal asks about one business object, not about groups of records"],
    title="look up the object",
)
def graphql_lookup(wi: WorkerInput, ctx: Context) -> WorkerResult:
    lookup = wi.get(ANALYSIS_RESULT).lookup
    if lookup is None:
        raise UnsupportedQuery("graphql_lookup", "the goal names no single business object")
    obj = ctx.catalog.object(lookup.object)
    noun = obj.synonyms[0] if obj.synonyms else lookup.object
    fields, row = fetch_object(ctx, lookup.object, lookup.key, lookup.term, lookup.fields)
    key = row.get(fields[0])
    title = f"{noun} {key}"
    labels = [answers.attribute_label(obj.fields[f].synonyms, f) for f in fields]
    if lookup.fields:  # the attributes asked: one row, stated in words
        said = [(label, row.get(f)) for f, label in zip(fields[1:], labels[1:], strict=True)]
        text = answers.object_attributes(key, noun, said)
        table = ResultTable(
            title=title,
            reading=answers.object_reading(title, labels[1:]),
            columns=fields,
            labels=labels,
            rows=[[row.get(f) for f in fields]],
            total=1,
            sub_goal_id=wi.sub_goal.id,
        )
    else:  # everything about it: one line per field
        text = answers.object_described(key, noun, obj.description)
        table = ResultTable(
            title=title,
            reading=title,
            columns=answers.object_columns(),
            rows=[[f, row.get(f)] for f in fields],
            total=len(fields),
            sub_goal_id=wi.sub_goal.id,
        )
    return WorkerResult.of(wi, OBJECT_DETAILS.of(Deliverable(text=text, tables=[table])))


def fetch_object(
    ctx: Context,
    name: str,
    key: str,
    term: str,
    asked: list[str] | None = None,
) -> tuple[list[str], dict[str, Any]]:
    """The fields fetched (the id first, then those asked, else all) and the row of the object whose
    id is `key`."""
    obj = ctx.catalog.object(name)
    if obj.id_field is None:
        raise UnsupportedQuery("graphql_lookup", f"{name} has no id field to look one up by")
    fields = [obj.id_field, *(asked or [f for f in obj.fields if f != obj.id_field])]
    row = ctx.objects.fetch(name, key, fields)
    if row is None:
        noun = obj.synonyms[0] if obj.synonyms else name
        raise UnknownEntity(term, answers.unknown_object(noun, term, obj.index))
    return fields, row
