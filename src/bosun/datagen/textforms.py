"""Columns whose text is a form other tools write, read as what they mean: months written with their
year ("Mar-2018", "2018-03") are dates on the month's first day.

Worked out in SQL over the staged table `files.py` reads, before date parts are derived and the
mapping is inferred: no row passes through Python.
"""

from __future__ import annotations

import duckdb

# : the forms a month of a year is written in (strptime), tried in order; a column is read with the
# first form : that parses every value it holds. Each has a year and a month and no day, so a full
# date never matches.
MONTH_FORMS = (
    "%b-%Y",
    "%b %Y",
    "%B %Y",
    "%B-%Y",
    "%Y-%m",
    "%Y/%m",
    "%m/%Y",
    "%m-%Y",
    "%b-%y",
    "%b %y",
)
# : a month's name or number beside a year of four digits (or of two after a name): codes such as
# "3-12" are not : months of a year
_MONTH_SHAPE = r"[A-Za-z]{3,9}[- ]\d{2}(\d{2})?|\d{4}[-/]\d{1,2}|\d{1,2}[-/]\d{4}"


def month_columns(
    con: duckdb.DuckDBPyConnection, table: str, texts: list[str], missing: tuple[str, ...]
) -> dict[str, tuple[str, str]]:
    """Text column → (the SQL reading it as the month's first day, a note) for each column of months
    with their year. Evidence: every value present (not a missing-value word) has a month's shape
    (one pass over the table for all columns), then parses with one form."""
    present = {name: _present(name, missing) for name in texts}
    if not present:
        return {}
    shaped = con.execute(
        "SELECT "
        + ", ".join(
            f"count({v}) > 0 AND bool_and(regexp_full_match({v}, '{_MONTH_SHAPE}'))"
            for v in present.values()
        )
        + f" FROM {table}"
    ).fetchall()[0]
    found = {}
    for (name, value), ok in zip(present.items(), shaped, strict=True):
        form = _form(con, table, value) if ok else None
        if form is not None:
            sample = con.execute(f"SELECT any_value({value}) FROM {table}").fetchall()[0][0]
            found[name] = (
                f"CAST(try_strptime({value}, '{form}') AS DATE)",
                f'{name}: months written with their year ("{sample}") → a date on each month\'s '
                "first day",
            )
    return found


def _present(name: str, missing: tuple[str, ...]) -> str:
    """The column's trimmed text, NULL for a missing-value word."""
    quoted = '"' + name.replace('"', '""') + '"'
    words = ", ".join("'" + w.replace("'", "''") + "'" for w in missing)
    return f"CASE WHEN trim({quoted}) IN ({words}) THEN NULL ELSE trim({quoted}) END"


def _form(con: duckdb.DuckDBPyConnection, table: str, value: str) -> str | None:
    """The first form that reads every value present."""
    for form in MONTH_FORMS:
        row = con.execute(
            f"SELECT count({value}) = count(try_strptime({value}, ?)) FROM {table}", [form]
        ).fetchone()
        if row and row[0]:
            return form
    return None
