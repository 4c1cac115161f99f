"""An answer's table at the terminal: headers in the catalog's words, one format per column, figures
right-aligned, money short with its currency's symbol.

What a column holds is read from its header and the catalog, as the answer's tables name them:

    header                                   holds                 unit from
    a field's name (carrier_name, teu)       the field's values    the field (a year: as written)
    ending in "%" or "(%)"                   a percentage          -
    "X: …" right after the column "X"        what X was taken over  - (a count)
    a step's word (change, running total)    the figure before it  the column before
    with a measure's label (declared value   that measure          the measure, or its field
    (USD) per month (average), TEU · 2025)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bosun.interfaces.cli.terminal import printable
from bosun.interfaces.numbers import NumberFormat, column_format, currency_symbol

if TYPE_CHECKING:
    from rich.table import Table

    from bosun.catalog import Catalog, FieldSpec
    from bosun.workers.models import ResultTable

SHOWN_ROWS = 50
_PERCENT = re.compile(r"%\)?$")  # "change %", "share of TEU (%)"
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")  # carrier_name in "carrier_name groups"


@dataclass(frozen=True)
class ColumnKind:
    """What a column holds: its header in catalog words, the unit of its figures, whether they are
    percentages, and whether they name things (a year, a code) rather than measure them."""

    header: str
    unit: str | None = None
    percent: bool = False
    as_written: bool = False


def column_kinds(columns: list[str], catalog: Catalog) -> list[ColumnKind]:
    """Each column's kind, in order (a change takes the unit of the figure before it)."""
    kinds: list[ColumnKind] = []
    for at, name in enumerate(columns):
        before = (columns[at - 1], kinds[-1]) if kinds else None
        kinds.append(_kind(name, catalog, before))
    return kinds


def _kind(name: str, catalog: Catalog, before: tuple[str, ColumnKind] | None) -> ColumnKind:
    header = header_words(name, catalog)
    spec = _field(name, catalog)
    if _PERCENT.search(name):
        return ColumnKind(header, percent=True)
    if spec is not None:
        return ColumnKind(header, spec.unit, as_written=spec.role != "measure")
    if before is not None and name.startswith(f"{before[0]}: "):
        return ColumnKind(header)  # a percentile's "records with a value"
    if before is not None and _follows_figure(name, before[1]):
        return ColumnKind(header, before[1].unit)
    return ColumnKind(header, _measure_unit(name, catalog))


def header_words(name: str, catalog: Catalog) -> str:
    """A column's header as the reading line says it: each field's name in the catalog's words
    ("port of unlading", "day of the week of arrival date", "carrier groups")."""
    from bosun.understanding.readback import field_name

    if _field(name, catalog) is not None:
        return field_name(name, catalog)
    return _SNAKE.sub(lambda m: field_name(m.group(0), catalog), name)


def _field(name: str, catalog: Catalog) -> FieldSpec | None:
    """The field a column holds: the record's, else a listed reference object's."""
    specs = [catalog.record, *catalog.spec.objects.values()]
    return next((obj.fields[name] for obj in specs if name in obj.fields), None)


def _follows_figure(name: str, before: ColumnKind) -> bool:
    """A running total or a change of the figure in the column before (the grammar's words for
    those steps name them)."""
    from bosun.understanding import english

    steps = english().steps
    return not before.as_written and not before.percent and name in (*steps.running, *steps.change)


def _measure_unit(name: str, catalog: Catalog) -> str | None:
    """The unit of the catalog measure whose label (or whose field's readable name) the header
    holds, the longest such label; None when it holds none."""
    units = _measure_units(catalog)
    held = [label for label in units if re.search(rf"(?<!\w){re.escape(label)}(?!\w)", name)]
    return units[max(held, key=len)] if held else None


def _measure_units(catalog: Catalog) -> dict[str, str | None]:
    """Every catalog measure's label, and every measure field's readable name → its unit."""
    fields = catalog.record.fields
    units: dict[str, str | None] = {
        name.replace("_", " "): spec.unit for name, spec in fields.items() if spec.role == "measure"
    }
    for measure in catalog.spec.measures.values():
        field_unit = fields[measure.field].unit if measure.field else None
        units[measure.label] = measure.unit or field_unit
    return units


def currencies(catalog: Catalog) -> dict[str, str]:
    """The catalog's units that are currencies → their symbols ({"USD": "$"})."""
    units = [m.unit for m in catalog.spec.measures.values()]
    units += [f.unit for obj in catalog.spec.objects.values() for f in obj.fields.values()]
    found = {unit: currency_symbol(unit) for unit in units if unit}
    return {unit: symbol for unit, symbol in found.items() if symbol is not None}


@dataclass(frozen=True)
class Cells:
    """How one column's cells are written: figures in the column's one format, the rest as text."""

    figures: NumberFormat | None = None

    def __call__(self, value: Any) -> str:
        if value is None:
            return ""
        if self.figures is not None and _is_figure(value):
            return self.figures(value)
        return printable(str(value))


def _is_figure(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def cells_of(kind: ColumnKind, values: Sequence[Any]) -> Cells:
    """The writing of a column whose cells are `values`: figures when they all are."""
    present = [v for v in values if v is not None]
    if not present or not all(_is_figure(v) for v in present):
        return Cells()
    figures = column_format(
        present,
        percent=kind.percent,
        currency=currency_symbol(kind.unit),
        as_written=kind.as_written,
    )
    return Cells(figures)


def table_of(result: ResultTable, catalog: Catalog) -> Table:
    """The result's first rows as a table: periods in words, each column in its one format."""
    from rich.table import Table
    from rich.text import Text

    kinds = column_kinds(result.columns, catalog)
    rows = [_named(row, result.period_names) for row in result.rows[:SHOWN_ROWS]]
    columns = [[row[at] if at < len(row) else None for row in rows] for at in range(len(kinds))]
    writings = [cells_of(kind, values) for kind, values in zip(kinds, columns, strict=True)]
    table = Table()
    for kind, writing in zip(kinds, writings, strict=True):
        header = Text(printable(kind.header))
        table.add_column(header, justify="left" if writing.figures is None else "right")
    for row in rows:  # Text: a value is never read as Rich markup
        table.add_row(*(Text(writing(v)) for writing, v in zip(writings, row, strict=False)))
    return table


def _named(row: list[Any], period_names: dict[str, str]) -> list[Any]:
    """The row with each period (its first day) in words: "2025-01-01" by month is "January 2025"."""
    return [period_names.get(v, v) if isinstance(v, str) else v for v in row]
