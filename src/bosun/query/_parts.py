"""Groups of a date part in the part's own order (Monday first).

A weekday grouping is a `terms` aggregation on the derived field (catalog/parts.py): ordered by its
key when nothing ranks the groups, so the rows read Monday to Sunday. Its keys (ISO numbers) are
said as en.yaml's names by the answer (workers/names.py), not here.
"""

from __future__ import annotations

from bosun.catalog import Catalog
from bosun.catalog.schema import DatePartName
from bosun.understanding import Meaning


def _grouped_part(meaning: Meaning, catalog: Catalog) -> DatePartName | None:
    """The part the first grouping is of ("weekday"), or None."""
    spec = catalog.record.fields.get(meaning.group_by[0]) if meaning.group_by else None
    return spec.derived.part if spec is not None and spec.derived is not None else None


def part_order(meaning: Meaning, catalog: Catalog) -> dict[str, str] | None:
    """{"_key": "asc"} for groups of a date part that nothing ranks or sorts; None otherwise."""
    if _grouped_part(meaning, catalog) is None or meaning.top_n is not None or meaning.sort:
        return None
    return {"_key": "asc"}
