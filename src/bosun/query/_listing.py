"""A listing of reference objects ("which carriers belong to the Gemini Cooperation"): a search on
the object's own index, answered with a table of the objects (their title, then the attributes
asked)."""

from __future__ import annotations

from typing import Any

from bosun.catalog import Catalog
from bosun.catalog.schema import ObjectSpec
from bosun.understanding import Meaning


def listed_object(meaning: Meaning, catalog: Catalog) -> ObjectSpec | None:
    """The reference object a meaning lists, or None when it is about the records."""
    if meaning.index == catalog.record.index:
        return None
    return next((o for o in catalog.spec.objects.values() if o.index == meaning.index), None)


def listing_query(obj: ObjectSpec, filters: list[dict[str, Any]], size: int) -> dict[str, Any]:
    order = obj.title_field or obj.id_field or "_doc"
    return {
        "query": {"bool": {"filter": filters}},
        "track_total_hits": True,
        "size": size,
        "sort": [{order: "asc"}],
    }


Table = tuple[list[str], list[list[Any]], int]


def listing_table(meaning: Meaning, obj: ObjectSpec, response: dict[str, Any]) -> Table:
    """(columns, rows, total): the objects' title, their id when it differs, and each attribute
    asked."""
    wanted = [obj.title_field, obj.id_field, *(c.field for c in meaning.conditions)]
    columns = [c for c in dict.fromkeys(wanted) if c]
    rows = [[h["_source"].get(c) for c in columns] for h in response["hits"]["hits"]]
    return columns, rows, int(response["hits"]["total"]["value"])
