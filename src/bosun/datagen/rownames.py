"""R's row names (issue #24 class 1's exports): `write.csv` writes each row's name as a first column
with an empty header; for a data frame without names of its own those names are only the row numbers
1, 2, … n.

Evidence: the first column has no name in the file (DuckDB calls it `column0`, or `column00` in a
file of 10 to 99 columns: zero-padded to the width of the last column's number), holds whole
numbers, and they are exactly 1 to the number of rows, each once. Such a column says nothing about
the rows, so it is not loaded; row names that are words (a car's model in `mtcars`) are data and
stay.
"""

from __future__ import annotations

import re

import duckdb

UNNAMED_FIRST = re.compile(r"column0+")  # DuckDB's name for a first column whose header is empty


def row_numbers_column(relation: duckdb.DuckDBPyRelation) -> tuple[str, str] | None:
    """(the column, a note for the user) when the file's first column only numbers the rows."""
    if not relation.columns or not UNNAMED_FIRST.fullmatch(relation.columns[0]):
        return None
    first = relation.columns[0]
    if str(relation.types[0]) not in {
        "BIGINT",
        "INTEGER",
        "SMALLINT",
        "TINYINT",
        "HUGEINT",
        "UBIGINT",
    }:
        return None
    rows, smallest, largest, distinct = relation.aggregate(
        f'count(*), min("{first}"), max("{first}"), count(DISTINCT "{first}")'
    ).fetchall()[0]
    if not rows or smallest != 1 or largest != rows or distinct != rows:
        return None
    return first, (
        f"the first column has no name and numbers the rows 1 to {rows:,} (R's row names): "
        "not loaded"
    )
