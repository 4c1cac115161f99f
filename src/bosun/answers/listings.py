"""Rows in words: the records a search found, a page of them, and a table of groups or periods with
its heading.

"1,234 shipments with carrier MAERSK (showing the first 10; ask for page 2 for more)."
"The top 5 shipper by TEU: A 1,234 TEU; B 1,100 TEU; …; and 3 more in the table."
"""

from __future__ import annotations

from bosun.answers.figures import LISTED, figure, key, label, more_rows
from bosun.answers.records import Over, rows_named
from bosun.catalog import Catalog
from bosun.query import Table
from bosun.understanding import Meaning

NAMED = 10  # the objects a listing names in its text; the rest are in its table


def found(meaning: Meaning, table: Table, over: Over) -> str:
    """How many records (or objects) a search found, the first few named where they are objects,
    and the first by the order asked."""
    rows, total = table.rows, table.total
    more = "" if meaning.top_n else "; ask for page 2 for more"
    shown = f" (showing the first {len(rows)}{more})" if total > len(rows) else ""
    named = _objects_named(meaning, table, over.catalog)
    first = _first_by_sort(meaning, table)
    return f"{total:,} {over.records} {over.which}{named}{shown}.{first}"


def _objects_named(meaning: Meaning, table: Table, catalog: Catalog) -> str:
    """A listing of reference objects names them ("3 carriers with alliance Premier Alliance: HMM,
    ONE, YANG MING"); records are too many to name and are only counted."""
    if meaning.index == catalog.record.index or not table.rows:
        return ""
    names = ", ".join(str(table.key(row)) for row in table.rows[:NAMED])
    rest = table.total - min(len(table.rows), NAMED)
    return f": {names}" + (f" and {rest:,} more" if rest > 0 else "")


def _first_by_sort(meaning: Meaning, table: Table) -> str:
    """ "the heaviest shipment": the record at the top of the order, with the figure it was ordered
    by."""
    if not meaning.sort or not table.rows or meaning.sort[0][0] not in table.names:
        return ""
    field, direction = meaning.sort[0]
    first = table.rows[0]
    value = table.value(first, field)
    if value is None:
        return ""
    side = "highest" if direction == "desc" else "lowest"
    return (
        f" First, with the {side} {field.replace('_', ' ')}: {table.key(first)} ({figure(value)})."
    )


def page_line(offset: int, shown: int, total: int) -> str:
    """ "Records 11–20 of 1,234; there are more.", or that none are left past the first pages."""
    end = offset + shown
    if not shown:
        return f"There are {total:,} matching records: none beyond the first {offset:,}."
    return f"Records {offset + 1:,}–{end:,} of {total:,}" + (
        "; there are more." if end < total else "."
    )


def listing(meaning: Meaning, table: Table, noun: str) -> str:
    """Several rows in words: "The top 5 shipper by TEU: A 1,234 TEU; B 1,100 TEU; … and 3 more"."""
    rows = table.rows
    more = more_rows(len(rows))
    column = table.column("figure")
    if column is None:  # "which carriers serve X": the values alone
        named = ", ".join(str(label(table, r)) for r in rows[:LISTED])
        return f"{len(rows)} {noun}: {named}{more}."
    unit = meaning.measures[0].unit if meaning.measures else None
    shown = "; ".join(
        f"{key(table.labels(row), meaning)} {figure(table.figure(row), unit)}"
        for row in rows[:LISTED]
    )
    groups = rows_named(table, meaning) if meaning.interval else len(rows)
    return f"{_heading(meaning, groups, column.name, noun)}: {shown}{more}."


def _heading(meaning: Meaning, count: int, label: str, what: str) -> str:
    """What the rows are: "The top 5 carrier by TEU", "TEU per month, 12 months", "Only 3 port
    match"."""
    if meaning.interval and not meaning.group_by and not meaning.top_n:
        return f"{label} per {meaning.interval}, {count} {meaning.interval}s"
    if meaning.interval:  # groups by period: "TEU per month for 2 carriers"
        return f"{label} per {meaning.interval} for {count} {what}"
    if meaning.top_n and count < meaning.top_n:
        return f"Only {count} {what} match, by {label}"
    if meaning.top_n:
        side = "top" if meaning.order == "desc" else "bottom"
        return f"The {side} {count} {what} by {label}"
    return f"{count} {what} by {label}"
