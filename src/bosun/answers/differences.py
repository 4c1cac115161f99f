"""The answer's words for the difference of two sides (issue 35).

"Total TEU, MAERSK minus MSC: 31,572 TEU − 34,897 TEU = -3,325 TEU."
"Total TEU, MAERSK minus MSC, 12 rows: January 2025 2,544 TEU − 2,794 TEU = -250 TEU; …"
"""

from __future__ import annotations

from typing import Any

from bosun.answers.figures import LISTED, figure, key, more_rows, no_rows
from bosun.answers.grammar import Compared, writing
from bosun.query import Table
from bosun.understanding.meaning import Difference, Meaning
from bosun.understanding.phrases import measure_words


def summary(meaning: Meaning, table: Table, sides: Difference, which: str) -> str:
    """Each row's two figures and the first minus the second; one sentence when there is one row
    (`which` says the records: "with arrival date 2025"; "" for all of them)."""
    words = _words()
    if not table.rows:
        return no_rows()
    what = measure_words(meaning.measures[0])
    if which:
        what = words.of_records.format(measure=what, which=which)
    said = {
        "measure": what[0].upper() + what[1:],
        "first": sides.values[0],
        "second": sides.values[1],
    }
    rows = [_row(table, row, meaning) for row in table.rows]
    if not (meaning.group_by or meaning.interval):
        return words.difference.format(**said, row=rows[0])
    return words.differences.format(
        **said,
        count=len(rows),
        rows="; ".join(rows[:LISTED]),
        more=more_rows(len(rows)),
    )


def _row(table: Table, row: list[Any], meaning: Meaning) -> str:
    """ "January 2025 2,544 TEU − 2,794 TEU = -250 TEU": what the row is, each side, the
    difference."""
    unit = meaning.measures[0].unit
    first, second = (_side(table, row, side) for side in (0, 1))
    labels = table.labels(row)
    label = f"{key(labels, meaning)} " if labels else ""
    difference = table.cell(row, "difference")
    return _words().difference_row.format(
        label=label,
        a=figure(first, unit),
        b=figure(second, unit),
        difference=_signed(difference, unit),
    )


def _side(table: Table, row: list[Any], side: int) -> Any:
    """The first measure's figure of one side."""
    at = next(i for i, c in enumerate(table.columns) if c.role == "figure" and c.side == side)
    return row[at]


def _signed(value: Any, unit: str | None) -> str:
    if isinstance(value, int | float) and value > 0:
        return f"+{figure(value, unit)}"
    return figure(value, unit)


def _words() -> Compared:
    return writing().compared
