"""reference_lookup: the first of a link's two sub-goals ("TEU carried by Ocean Alliance members").

It reads the reference index for the objects whose attribute the link asks ("carriers whose alliance
is Ocean Alliance") and hands their keys on; es_query_gen, wired to them by an InputRef, filters the
records' field with a `terms` clause on those keys. An attribute value no object has is said, never
answered unfiltered.
"""

from __future__ import annotations

from typing import Any

from bosun import answers
from bosun.catalog import Catalog
from bosun.errors import UnsupportedQuery, UserError
from bosun.query import filters
from bosun.understanding import Meaning
from bosun.understanding.meaning import Condition, Link, LinkGroup
from bosun.workers.context import Context
from bosun.workers.models import GoalParams, WorkerInput, WorkerResult
from bosun.workers.registry import worker
from bosun.workers.slots import ANALYSIS_RESULT, LINKED_KEYS, FoundKeys, LinkedKeys

MAX_KEYS = 10_000  # a reference index is small; more objects than this are refused, never cut short


def has_links(params: GoalParams) -> bool:
    """The goal filters or groups on a linked object's attribute: its query needs the objects'
    keys."""
    meaning = params.meaning
    return meaning is not None and (bool(meaning.links) or meaning.link_group is not None)


@worker(
    "reference_lookup",
    "Finds the reference objects with the attribute a link asks for and hands on their keys",
    consumes=[ANALYSIS_RESULT],
    produces=[LINKED_KEYS],
    goal_type="support",
    preconditions=["the goal filters or groups on an attribute of a linked object"],
    title="look up the linked objects",
)
def reference_lookup(wi: WorkerInput, ctx: Context) -> WorkerResult:
    meaning = wi.get(ANALYSIS_RESULT)
    found = [_keys(link, ctx) for link in meaning.links]
    for each in found:
        if not each.keys:
            raise UserError(answers.no_linked(each.link, ctx.catalog))
    groups = {} if meaning.link_group is None else _grouped_keys(meaning.link_group, ctx)
    return WorkerResult.of(wi, LINKED_KEYS.of(LinkedKeys(found=found, groups=groups)))


def _grouped_keys(group: LinkGroup, ctx: Context) -> dict[str, list[str]]:
    """Each value of the attribute grouped by → the keys of the objects that have it, in the order
    of the values (objects without the attribute are in no group)."""
    index = ctx.catalog.object(group.object).index
    body: dict[str, Any] = {
        "query": {"bool": {"filter": [{"exists": {"field": group.attribute}}]}},
        "size": MAX_KEYS,
        "_source": [group.key, group.attribute],
        "sort": [{group.key: "asc"}],
        "track_total_hits": True,
    }
    response = ctx.engine.search(index, body)
    if int(response["hits"]["total"]["value"]) > MAX_KEYS:
        raise UnsupportedQuery("reference_lookup", f"more than {MAX_KEYS:,} {index} to group")
    groups: dict[str, list[str]] = {}
    for hit in response["hits"]["hits"]:
        key, value = hit["_source"].get(group.key), hit["_source"].get(group.attribute)
        if key is not None and value is not None:
            groups.setdefault(str(value), []).append(str(key))
    return dict(sorted(groups.items()))


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


def wired(wi: WorkerInput) -> LinkedKeys | None:
    """The links' keys, when the planner wired them to this sub-goal."""
    value = wi.resolved_inputs.get(LINKED_KEYS.name)
    return None if value is None else LINKED_KEYS.read(value)


def with_keys(meaning: Meaning, linked: LinkedKeys | None, catalog: Catalog) -> Meaning:
    """The meaning with each link's keys as a filter on the record field that holds them, and what
    each link read said as an assumption ("“Ocean Alliance members” read as the carriers with
    alliance Ocean Alliance: CMA CGM, COSCO, EVERGREEN, OOCL")."""
    if not meaning.links and meaning.link_group is None:
        return meaning
    if linked is None:
        raise UnsupportedQuery(
            "es_query_gen", "the linked objects were not looked up before the query"
        )
    conditions = [
        Condition(field=f.link.field, values=list(f.keys), source=f.link.words)
        for f in linked.found
    ]
    said = [answers.linked(f.link, f.keys, catalog) for f in linked.found]
    grouped = meaning.link_group
    if grouped is not None:
        grouped = grouped.model_copy(update={"keys": linked.groups})
    return meaning.model_copy(
        update={
            "conditions": [*meaning.conditions, *conditions],
            "assumptions": [*meaning.assumptions, *said],
            "link_group": grouped,
        }
    )
