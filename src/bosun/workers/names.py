"""Codes said with their names (issue #24 class 8): where the catalog's reference names a record
field's codes ("UA" in flights, "United Air Lines Inc." in airlines), an answer lists "UA (United
Air Lines Inc.)"; the table keeps the codes the data holds."""

from __future__ import annotations

from typing import Any

from bosun.catalog import Catalog


def code_names(catalog: Catalog, field: str) -> dict[str, str]:
    """code → name for a field whose entity says its codes' names (say_names); empty for any other
    field."""
    for entity in catalog.spec.entities.values():
        targets = [t for t in entity.targets if t.field == field and t.value_from is None]
        if (
            entity.say_names
            and entity.object
            and entity.name_field
            and entity.extra_names
            and targets
        ):
            rows = catalog.reference_rows(entity.object)
            return {
                row[entity.name_field]: row[entity.extra_names[0]]
                for row in rows
                if row.get(entity.name_field) and row.get(entity.extra_names[0])
            }
    return {}


def with_names(rows: list[list[Any]], names: dict[str, str]) -> list[list[Any]]:
    """The rows with their first cell said with its name: "UA" → "UA (United Air Lines Inc.)"."""
    return [[_named(row[0], names), *row[1:]] for row in rows]


def _named(code: Any, names: dict[str, str]) -> Any:
    name = names.get(str(code))
    return f"{code} ({name})" if name and name != str(code) else code
