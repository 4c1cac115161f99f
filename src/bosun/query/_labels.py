"""Each column's heading in words and the unit of its figures, decided once where the table is
made, so that every interface heads and writes a column the same way.

    role             heading                                        unit
    key, field       the field as people call it ("carrier")        the field's
    period           the interval ("month"); "period" without one   -
    figure, total    the measure's label; a field grouped by in     the measure's; "%" for a share
                     its catalog words ("TEU per carrier (average)")
    part, whole      as named                                       the measure's
    count            as named, a field in its catalog words          -
    running, change, as named                                       the first figure's
    difference
    change_percent   as named                                       "%"
"""

from __future__ import annotations

import re

from bosun.catalog import Catalog, FieldSpec
from bosun.query.table import Column, Table
from bosun.understanding import Meaning
from bosun.understanding.phrases import field_name

PERCENT = "%"
_NAMED = ("key", "field")
_OF_FIGURE = ("running", "change", "difference")


def labelled(table: Table, meaning: Meaning, catalog: Catalog) -> Table:
    """`table` with each column's heading in words and its figures' unit."""
    first = table.column("figure")
    figure_unit = None if first is None else _unit(first, meaning, catalog)
    columns = [
        column.model_copy(
            update={
                "label": _label(column, meaning, catalog),
                "unit": _unit(column, meaning, catalog, figure_unit),
            }
        )
        for column in table.columns
    ]
    return table.model_copy(update={"columns": columns})


def _label(column: Column, meaning: Meaning, catalog: Catalog) -> str:
    if column.role in _NAMED:
        return _field_words(column.name, catalog)
    if column.role == "period":
        return meaning.interval or column.name
    return _fields_said(column.name, meaning.group_by, catalog)


def _unit(
    column: Column, meaning: Meaning, catalog: Catalog, figure_unit: str | None = None
) -> str | None:
    """The unit of the column's figures; a running total or a change has the figure's
    (`figure_unit`)."""
    if column.role in _OF_FIGURE:
        return figure_unit
    if column.role in _NAMED:
        spec = _field(column.name, catalog)
        return None if spec is None else spec.unit
    if column.role == "change_percent":
        return PERCENT
    if column.measure is None or column.role == "count":
        return None
    measure = meaning.measures[column.measure]
    if column.role == "figure" and measure.share is not None:
        return PERCENT
    return measure.unit


def _field_words(name: str, catalog: Catalog) -> str:
    """A record's field as people call it; a listed reference object's by its first synonym."""
    if name in catalog.record.fields:
        return field_name(name, catalog)
    spec = _field(name, catalog)
    if spec is not None and spec.synonyms:
        return spec.synonyms[0]
    return name.replace("_", " ")


def _fields_said(name: str, fields: list[str], catalog: Catalog) -> str:
    """A heading with each field grouped by in it in the catalog's words: "carrier_name groups" is
    "carrier groups"."""
    for field in fields:
        name = re.sub(rf"(?<!\w){re.escape(field)}(?!\w)", field_name(field, catalog), name)
    return name


def _field(name: str, catalog: Catalog) -> FieldSpec | None:
    """The field a column holds: the record's, else a reference object's."""
    specs = [catalog.record, *catalog.spec.objects.values()]
    return next((obj.fields[name] for obj in specs if name in obj.fields), None)
