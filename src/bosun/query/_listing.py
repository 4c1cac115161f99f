"""A listing of reference objects ("which carriers belong to the Gemini Cooperation"): a search on
the object's own index, answered with a table of the objects (their title, then the attributes
asked)."""

from __future__ import annotations

from typing import Any

from bosun.catalog import Catalog
from bosun.catalog.schema import ObjectSpec
from bosun.query.table import Column, Table
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


def listing_table(meaning: Meaning, obj: ObjectSpec, response: dict[str, Any]) -> Table:
    """The objects listed: their title, their id when it differs, and each attribute asked."""
    wanted = [obj.title_field, obj.id_field, *(c.field for c in meaning.conditions)]
    return record_table([c for c in dict.fromkeys(wanted) if c], response)


def record_table(names: list[str], response: dict[str, Any]) -> Table:
    """The hits of a search as rows of the fields `names`: the first names each hit (its key), the
    rest are its fields; the total is every record matched."""
    columns = [
        Column(name=name, role="key" if at == 0 else "field") for at, name in enumerate(names)
    ]
    rows = [[h["_source"].get(name) for name in names] for h in response["hits"]["hits"]]
    return Table(columns=columns, rows=rows, total=int(response["hits"]["total"]["value"]))
