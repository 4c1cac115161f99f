"""reference_lookup: the first of a link's two sub-goals ("TEU carried by Ocean Alliance members").

It reads the reference index for the objects whose attribute the link asks ("carriers whose alliance
is Ocean Alliance") and hands their keys on; es_query_gen, wired to them by an InputRef, filters the
records' field with a `terms` clause on those keys. An attribute value no object has is said, never
answered unfiltered.
"""

from __future__ import annotations

from typing import Any

from bosun.catalog import Catalog
from bosun.errors import UnsupportedQuery, UserError
from bosun.query import filters
from bosun.understanding import Meaning
from bosun.understanding.meaning import Condition, Link
from bosun.understanding.readback import condition_words
from bosun.workers.context import Context
from bosun.workers.models import GoalParams, WorkerInput, WorkerResult
from bosun.workers.registry import worker
from bosun.workers.slots import ANALYSIS_RESULT, LINKED_KEYS, FoundKeys, LinkedKeys

MAX_KEYS = 10_000  # a reference index is small; more objects than this are refused, never cut short


def has_links(params: GoalParams) -> bool:
    """The goal filters on a linked object's attribute: its query needs the objects' keys."""
    return params.meaning is not None and bool(params.meaning.links)


@worker(
    "reference_lookup",
    "Finds the reference objects with the attribute a link asks for and hands on their keys",
    consumes=[ANALYSIS_RESULT],
    produces=[LINKED_KEYS],
    goal_type="support",
    preconditions=["the goal filters on an attribute of a linked object"],
    title="look up the linked objects",
)
def reference_lookup(wi: WorkerInput, ctx: Context) -> WorkerResult:
    meaning = wi.get(ANALYSIS_RESULT)
    found = [_keys(link, ctx) for link in meaning.links]
    for each in found:
        if not each.keys:
            raise UserError(_none(each.link, ctx.catalog))
    return WorkerResult.of(wi, LINKED_KEYS.of(LinkedKeys(found=found)))


def _keys(link: Link, ctx: Context) -> FoundKeys:
    obj = ctx.catalog.object(link.object)
    scope = Meaning(text=link.words, index=obj.index, conditions=[link.condition])
    body: dict[str, Any] = {
        "query": {"bool": {"filter": filters(scope)}},
        "size": MAX_KEYS,
        "_source": [link.key],
        "sort": [{link.key: "asc"}],
        "track_total_hits": True,
    }
    response = ctx.engine.search(obj.index, body)
    if int(response["hits"]["total"]["value"]) > MAX_KEYS:
        raise UnsupportedQuery(
            "reference_lookup", f"more than {MAX_KEYS:,} {obj.index} match {link.words!r}"
        )
    keys = [
        str(h["_source"][link.key])
        for h in response["hits"]["hits"]
        if h["_source"].get(link.key) is not None
    ]
    return FoundKeys(link=link, keys=keys, query=body)


def _none(link: Link, catalog: Catalog) -> str:
    """ "No vessels have flag FR, so no shipments are on them (“French-flagged”)."""
    obj = catalog.object(link.object)
    return (
        f"No {obj.index} have {condition_words(link.condition, catalog)}, so there are no "
        f"{catalog.record.index} of theirs to count or list (“{link.words}”)."
    )


def wired(wi: WorkerInput) -> LinkedKeys | None:
    """The links' keys, when the planner wired them to this sub-goal."""
    value = wi.resolved_inputs.get(LINKED_KEYS.name)
    return None if value is None else LINKED_KEYS.read(value)


def with_keys(meaning: Meaning, linked: LinkedKeys | None, catalog: Catalog) -> Meaning:
    """The meaning with each link's keys as a filter on the record field that holds them, and what
    each link read said as an assumption ("“Ocean Alliance members” read as the carriers with
    alliance Ocean Alliance: CMA CGM, COSCO, EVERGREEN, OOCL")."""
    if not meaning.links:
        return meaning
    if linked is None:
        raise UnsupportedQuery(
            "es_query_gen", "the linked objects were not looked up before the query"
        )
    conditions = [
        Condition(field=f.link.field, values=list(f.keys), source=f.link.words)
        for f in linked.found
    ]
    said = [_said(f, catalog) for f in linked.found]
    return meaning.model_copy(
        update={
            "conditions": [*meaning.conditions, *conditions],
            "assumptions": [*meaning.assumptions, *said],
        }
    )


def _said(found: FoundKeys, catalog: Catalog) -> str:
    obj = catalog.object(found.link.object)
    asked = condition_words(found.link.condition, catalog)
    return f"“{found.link.words}” read as the {obj.index} with {asked}: {', '.join(found.keys)}"
