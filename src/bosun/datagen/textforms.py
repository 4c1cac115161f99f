"""Columns whose text is a form other tools write, read as what they mean: R's row names and months written
with their year ("Mar-2018").

Both work on the typed table `files.py` reads, before date parts are derived and the mapping is inferred.
"""

from __future__ import annotations

import re

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

#: the forms a month of a year is written in (strptime), tried in order; a column is read with the first form
#: that parses every value it holds. Each has a year and a month and no day, so a full date never matches.
MONTH_FORMS = ("%b-%Y", "%b %Y", "%B %Y", "%B-%Y", "%Y-%m", "%Y/%m", "%m/%Y", "%m-%Y", "%b-%y", "%b %y")
#: a month's name or number beside a year of four digits (or of two after a name): codes such as "3-12" are not
#: months of a year
_MONTH_SHAPE = r"[A-Za-z]{3,9}[- ]\d{2}(\d{2})?|\d{4}[-/]\d{1,2}|\d{1,2}[-/]\d{4}"
_UNNAMED = re.compile(r"column\d+")  # how DuckDB names a column whose header cell is empty


def with_month_dates(table: pa.Table, missing: tuple[str, ...]) -> tuple[pa.Table, list[str]]:
    """Text columns of months with their year ("Mar-2018", "2018-03") as dates on the month's first day; a value
    in `missing` (the words for a missing value) is missing."""
    notes = []
    for name in [f.name for f in table.schema if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)]:
        column = pc.if_else(pc.is_in(pc.utf8_trim_whitespace(table.column(name)), pa.array(missing)),
                            pa.scalar(None, table.column(name).type), table.column(name))
        form = _month_form(column)
        if form is None:
            continue
        sample = column.drop_null()[0].as_py()
        table = table.set_column(table.schema.get_field_index(name), name, _as_months(column, form))
        notes.append(f"{name}: months written with their year (\"{sample}\") → a date on each month's first day")
    return table, notes


def _month_form(column: pa.ChunkedArray) -> str | None:
    """The first form that reads every value present (and there is one)."""
    values = pc.unique(column.drop_null())
    if len(values) == 0:
        return None
    con = duckdb.connect()
    try:
        con.register("__months", pa.table({"v": values}))
        for form in MONTH_FORMS:
            row = con.execute("SELECT count(*) = count(try_strptime(trim(v), ?)) AND bool_and(regexp_full_match("
                              "trim(v), ?)) FROM __months", [form, _MONTH_SHAPE]).fetchone()
            if row and row[0]:
                return form
    finally:
        con.close()
    return None


def _as_months(column: pa.ChunkedArray, form: str) -> pa.ChunkedArray:
    con = duckdb.connect()
    try:
        con.register("__months", pa.table({"v": column}))
        dated: pa.Table = con.execute("SELECT CAST(strptime(trim(v), ?) AS DATE) AS d FROM __months",
                                      [form]).to_arrow_table()
    finally:
        con.close()
    return dated.column("d")
