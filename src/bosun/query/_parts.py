"""Groups of a date part in an answer: in the part's own order (Monday first), each said by its
name.

A weekday grouping is a `terms` aggregation on the derived field (catalog/parts.py): ordered by its
key when nothing ranks the groups, so the rows read Monday to Sunday, and its keys (ISO numbers)
shown as en.yaml's names.
"""

from __future__ import annotations

from typing import Any

from bosun.catalog import Catalog
from bosun.catalog.schema import DatePartName
from bosun.understanding import Meaning
from bosun.understanding.readback import part_value_name


def _grouped_part(meaning: Meaning, catalog: Catalog) -> DatePartName | None:
    """The part the first grouping is of ("weekday"), or None."""
    spec = catalog.record.fields.get(meaning.group_by[0]) if meaning.group_by else None
    return spec.derived.part if spec is not None and spec.derived is not None else None


def part_order(meaning: Meaning, catalog: Catalog) -> dict[str, str] | None:
    """{"_key": "asc"} for groups of a date part that nothing ranks or sorts; None otherwise."""
    if _grouped_part(meaning, catalog) is None or meaning.top_n is not None or meaning.sort:
        return None
    return {"_key": "asc"}


def named_parts(meaning: Meaning, catalog: Catalog, rows: list[list[Any]]) -> list[list[Any]]:
    """Rows whose first cell is a part's number, with the number said by name: 5 → "Friday"."""
    part = _grouped_part(meaning, catalog)
    if part is None or part == "hour":  # an hour is said as its number
        return rows
    return [[part_value_name(part, row[0]), *row[1:]] for row in rows]
