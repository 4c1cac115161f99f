"""Keys said by name.

Codes with their names (issue #24 class 8): where the catalog's reference names a record field's
codes ("UA" in flights, "United Air Lines Inc." in airlines), an answer lists "UA (United Air Lines
Inc.)"; the table keeps the codes the data holds. Date parts by their words: a weekday grouping's
keys (ISO numbers) are en.yaml's names in the table and the text ("Friday"); an hour stays its
number.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from bosun.catalog import Catalog
from bosun.catalog.schema import DatePartName
from bosun.query import Table
from bosun.understanding.phrases import part_value_name


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


def with_names(table: Table, field: str, names: dict[str, str]) -> Table:
    """The table with the keys of `field` said with their names: "UA" → "UA (United Air Lines
    Inc.)"."""
    return table.renamed(field, lambda code: _named(code, names))


_NUMBERS = ("integer", "long")  # the field types of number keys


def key_names(table: Table, catalog: Catalog) -> Table:
    """The table with the keys of a numbered code said by the name its reference gives: genre_id 1
    → "Rock" (a number the records hold only to point at a reference row means nothing to a
    reader)."""
    for field in [column.name for column in table.columns if column.role == "key"]:
        names = numbered_names(catalog, field)
        if names:
            table = table.renamed(field, partial(_name_or_code, names))
    return table


def held_keys(catalog: Catalog, field: str) -> dict[str, int]:
    """name → number for a field whose keys `key_names` says by name, so what a later turn points at
    ("the top one": Rock) filters the number the data holds (genre_id 1)."""
    return {name: int(code) for code, name in numbered_names(catalog, field).items()}


def numbered_names(catalog: Catalog, field: str) -> dict[str, str]:
    """key → name for a number field whose entity reads a name's row for its key (`value_from`), a
    dimension the records group by; empty for any other field (a code such as an HS code "847130"
    is said as the data holds it)."""
    spec = catalog.record.fields.get(field)
    if spec is None or spec.role != "dimension" or spec.type not in _NUMBERS:
        return {}
    for entity in catalog.spec.entities.values():
        keys = [t.value_from for t in entity.targets if t.field == field and t.value_from]
        if entity.object and entity.name_field and keys:
            rows = catalog.reference_rows(entity.object)
            return {
                str(row[keys[0]]): row[entity.name_field]
                for row in rows
                if row.get(keys[0]) is not None and row.get(entity.name_field)
            }
    return {}


def part_names(table: Table, catalog: Catalog) -> Table:
    """The table with the keys of a date part said by name: 5 → "Friday"."""
    for field in [column.name for column in table.columns if column.role == "key"]:
        part = _part(field, catalog)
        if part is not None and part != "hour":  # an hour is said as its number
            table = table.renamed(field, partial(part_value_name, part))
    return table


def _part(field: str, catalog: Catalog) -> DatePartName | None:
    """The date part a record field is derived as ("weekday"), or None."""
    spec = catalog.record.fields.get(field)
    return spec.derived.part if spec is not None and spec.derived is not None else None


def _name_or_code(names: dict[str, str], code: Any) -> Any:
    return names.get(str(code), code)


def _named(code: Any, names: dict[str, str]) -> Any:
    name = names.get(str(code))
    return f"{code} ({name})" if name and name != str(code) else code
