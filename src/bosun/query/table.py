"""The table a query's response becomes: its columns, each with the role it plays, and its rows.

A reader asks a row for what it wants by role (its keys, its period, a measure's figure, the change)
and never counts columns: where each column is, only the compiler knows.

    role            the column holds                                       e.g.
    key             a group's value, or what a listed record or object is  carrier_name, bol_number
    period          a period's first day (ISO)                             period
    figure          a measure's value: one per measure (and per period,    total TEU, TEU · 2025
                    when periods are compared)
    part, whole     a share's part and whole, beside its percentage        TEU: part, TEU: whole
    count           how many a figure was computed over: the records with  months, team_id groups
                    a value (a percentile), the periods or groups averaged
    total           the sum an average per period or per group was taken   total TEU
                    of
    running         a running total                                        running total
    change          the change from the period before, or from the first   change
                    period compared to the last
    change_percent  that change in percent                                 change %
    difference      the first side's figure minus the other's              difference
    field           another field of a listed record or object             port_of_lading

Beside its rows a table keeps what the answer says about them: the records' first and last dates (a
period the data cuts short is no whole period), how many groups a step chose among, and how many
groups set logic tested.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Role = Literal[
    "key",
    "period",
    "figure",
    "part",
    "whole",
    "count",
    "total",
    "running",
    "change",
    "change_percent",
    "difference",
    "field",
]
Row = list[Any]
_MEASURED = ("figure", "part", "whole", "count")  # the roles of a measure's own cells


class Column(BaseModel):
    """One column: its heading, its role, and the measure (and compared period) it is of."""

    model_config = ConfigDict(frozen=True)  # one PERIOD column serves every table

    name: str
    role: Role
    measure: int | None = Field(
        None, description="the index of the measure a figure, part, whole, count or total is of"
    )
    period: int | None = Field(None, description="the index of the compared period a figure is of")
    side: int | None = Field(None, description="the index of the side of a difference it is of")
    label: str = Field("", description="the heading in words (the catalog's), set with the rows")
    unit: str | None = Field(None, description="the unit of its figures: TEU, USD, % …")

    def fits(self, role: Role, measure: int | None, period: int | None) -> bool:
        """Is this a column of `role`, of `measure` and `period` where they are given?"""
        if self.role != role:
            return False
        if measure is not None and self.measure != measure:
            return False
        return period is None or self.period == period


PERIOD = Column(name="period", role="period")


class Table(BaseModel):
    """An answer's table: columns with roles, rows, the total, and what the answer says of them."""

    columns: list[Column]
    rows: list[Row]
    total: int = Field(description="the records matched (a search), or the number of rows")
    dates: tuple[date | None, date | None] = Field(
        (None, None), description="the records' first and last dates, for a query of periods"
    )
    groups: int | None = Field(
        None,
        description="how many groups a step after grouping chose among (a threshold's 'of 62 "
        "ports')",
    )
    considered: int | None = Field(
        None, description="how many groups set logic tested (of which `rows` passed)"
    )

    @property
    def names(self) -> list[str]:
        """The columns' headings, in order."""
        return [column.name for column in self.columns]

    @property
    def headings(self) -> list[str]:
        """The columns' headings in words ("carrier", "month"), in order: a column without a
        label is headed by its name."""
        return [column.label or column.name for column in self.columns]

    @property
    def units(self) -> list[str | None]:
        """The unit of each column's figures (None where they have none), in order."""
        return [column.unit for column in self.columns]

    @property
    def roles(self) -> list[Role]:
        """The columns' roles, in order."""
        return [column.role for column in self.columns]

    @property
    def figureless(self) -> bool:
        """Rows whose figures are all missing: measures over no records (the average TEU of a year
        the data does not hold), which are no answer."""
        figures = [at for at, column in enumerate(self.columns) if column.role == "figure"]
        return bool(figures) and all(row[at] is None for row in self.rows for at in figures)

    @property
    def labelling(self) -> list[Column]:
        """The columns that say what a row is: its keys and its period, in order."""
        return [column for column in self.columns if column.role in ("key", "period")]

    def column(
        self, role: Role, measure: int | None = None, period: int | None = None
    ) -> Column | None:
        """The first column of `role` (of `measure`, of `period`, where given), or None."""
        at = self._at(role, measure, period)
        return None if at is None else self.columns[at]

    def cell(
        self, row: Row, role: Role, measure: int | None = None, period: int | None = None
    ) -> Any:
        """The row's cell of the first column of `role` (of `measure`, of `period`, where given)."""
        at = self._at(role, measure, period)
        if at is None:
            raise KeyError(f"the table has no {role} column ({measure=}, {period=})")
        return row[at]

    def keys(self, row: Row) -> list[Any]:
        """The row's keys: its groups' values, or what a listed record is."""
        return self._cells(row, ("key",))

    def key(self, row: Row) -> Any:
        """The row's first key (None when the table has none)."""
        return next(iter(self.keys(row)), None)

    def period(self, row: Row) -> Any:
        """The first day of the row's period (None when the table has no period)."""
        return next(iter(self._cells(row, ("period",))), None)

    def labels(self, row: Row) -> list[Any]:
        """What the row is: its keys and its period, in column order ("MAERSK", "2025-01-01")."""
        return self._cells(row, ("key", "period"))

    def figures(self, row: Row) -> list[Any]:
        """The row's figures: one per measure (and per period, when periods are compared)."""
        return self._cells(row, ("figure",))

    def figure(self, row: Row, measure: int | None = None, period: int | None = None) -> Any:
        """The row's figure of `measure` (in `period`): the first figure when neither is given."""
        return self.cell(row, "figure", measure, period)

    def measured(self, row: Row, measure: int) -> list[Any]:
        """Every cell of one measure, in column order: a share's percentage, part and whole; a
        percentile and the records it is over; else the figure alone."""
        return [
            cell
            for column, cell in zip(self.columns, row, strict=False)
            if column.measure == measure and column.role in _MEASURED
        ]

    def value(self, row: Row, name: str) -> Any:
        """The row's cell under the heading `name` (a record's field)."""
        return row[self.names.index(name)]

    def renamed(self, field: str, say: Callable[[Any], Any]) -> Table:
        """The table with the cells of the key column `field` said another way (a code by its
        name, a weekday's number by its word)."""
        at = next(
            (i for i, c in enumerate(self.columns) if c.role == "key" and c.name == field), None
        )
        if at is None:
            return self
        rows = [[*row[:at], say(row[at]), *row[at + 1 :]] for row in self.rows]
        return self.model_copy(update={"rows": rows})

    def _at(self, role: Role, measure: int | None, period: int | None) -> int | None:
        return next((i for i, c in enumerate(self.columns) if c.fits(role, measure, period)), None)

    def _cells(self, row: Row, roles: tuple[Role, ...]) -> list[Any]:
        return [
            cell for column, cell in zip(self.columns, row, strict=False) if column.role in roles
        ]
