"""An answer's table at the terminal: each column under the heading the answer gives it (the
catalog's words), its figures right-aligned in one format, full (money with its currency's symbol);
the text above says them short.

What a column holds is the answer's to say (its role and the unit of its figures); the catalog says
only whether a field's numbers name things (a year, a code) and are written as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bosun.interfaces.cli.terminal import printable
from bosun.interfaces.numbers import NumberFormat, column_format, currency_symbol

if TYPE_CHECKING:
    from rich.table import Table

    from bosun.catalog import Catalog
    from bosun.workers.models import ResultTable

SHOWN_ROWS = 50
PERCENT = "%"
_NAMING = ("key", "period", "field")  # the roles of columns that say what a row is


@dataclass(frozen=True)
class ColumnKind:
    """What a column holds: its heading, the unit of its figures, whether they are percentages, and
    whether they name things (a year, a code) rather than measure them."""

    header: str
    unit: str | None = None
    percent: bool = False
    as_written: bool = False


def column_kinds(result: ResultTable, catalog: Catalog) -> list[ColumnKind]:
    """Each column's kind, in order, from the answer's headings, units and roles."""
    roles: list[str | None] = [*result.roles] or [None] * len(result.columns)
    return [
        ColumnKind(label, unit, unit == PERCENT, _names_things(name, role, catalog))
        for name, label, unit, role in zip(
            result.columns, result.labels, result.units, roles, strict=True
        )
    ]


def _names_things(name: str, role: str | None, catalog: Catalog) -> bool:
    """A column of keys or of a record's fields whose field is not a measure: its numbers are
    written as they are (2025, not 2,025)."""
    if role not in _NAMING:
        return False
    specs = [catalog.record, *catalog.spec.objects.values()]
    spec = next((obj.fields[name] for obj in specs if name in obj.fields), None)
    return spec is None or spec.role != "measure"


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

    kinds = column_kinds(result, catalog)
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
    """The row with each period (its first day) in words: "2025-01-01" by month is "January
    2025"."""
    return [period_names.get(v, v) if isinstance(v, str) else v for v in row]
