"""A grouping by a linked object's attribute ("TEU by alliance"): a `filters` aggregation with one
bucket per value of the attribute, each holding the records whose field is one of the keys of the
objects with that value (both engines run `filters`; neither orders its buckets, so the rows are
ranked here).

    >>> linked_groups(meaning_of("TEU by alliance"))                         # doctest: +SKIP
    {'filters': {'filters': {'Gemini Cooperation': {'terms': {'carrier_name': ['HAPAG-LLOYD',
    'MAERSK']}}, …}}}
"""

from __future__ import annotations

from typing import Any

from bosun.errors import UnsupportedQuery
from bosun.understanding import Meaning


def applies(meaning: Meaning) -> bool:
    """The meaning's grouping is by a linked attribute."""
    group = meaning.link_group
    return group is not None and meaning.group_by[:1] == [group.attribute]


def linked_groups(meaning: Meaning) -> dict[str, Any]:
    """The `filters` aggregation grouping by the attribute, from the keys the lookup found."""
    group = meaning.link_group
    if group is None or not group.keys:
        raise UnsupportedQuery("es_query_gen", "the linked objects were not looked up to group by")
    if meaning.steps or meaning.interval or len(meaning.group_by) > 1:
        raise UnsupportedQuery(
            "es_query_gen", f"a grouping by {group.attribute} is answered alone, by one figure each"
        )
    named = {value: {"terms": {group.field: keys}} for value, keys in group.keys.items()}
    return {"filters": {"filters": named}}


def buckets(agg: dict[str, Any]) -> list[dict[str, Any]]:
    """The named buckets of a `filters` aggregation as a terms aggregation's list, the empty ones
    left out as a terms aggregation leaves them."""
    named: dict[str, dict[str, Any]] = agg["buckets"]
    return [{"key": name, **bucket} for name, bucket in named.items() if bucket["doc_count"]]
