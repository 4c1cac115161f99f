"""Rows in words: the records a search found, a page of them, and a table of groups or periods with
its heading.

"1,234 shipments with carrier MAERSK (showing the first 10; ask for page 2 for more)."
"The top 5 shipper by TEU: A 1,234 TEU; B 1,100 TEU; …; and 3 more in the table."
"""

from __future__ import annotations

from bosun.answers.figures import LISTED, figure, key, label, more_rows
from bosun.answers.grammar import Summary, writing
from bosun.answers.records import Over, rows_named
from bosun.catalog import Catalog
from bosun.query import Table
from bosun.understanding import Meaning

NAMED = 10  # the objects a listing names in its text; the rest are in its table


def found(meaning: Meaning, table: Table, over: Over) -> str:
    """How many records (or objects) a search found, the first few named where they are objects,
    and the first by the order asked."""
    return _words().found.format(
        total=f"{table.total:,}",
        records=over.records,
        which=over.which,
        named=_objects_named(meaning, table, over.catalog),
        shown=_showing(meaning, table),
        first=_first_by_sort(meaning, table),
    )


def _showing(meaning: Meaning, table: Table) -> str:
    """ " (showing the first 10; ask for page 2 for more)" when the records are more than shown."""
    if table.total <= len(table.rows):
        return ""
    more = "" if meaning.top_n else _words().next_page
    return _words().showing.format(count=len(table.rows), more=more)


def _objects_named(meaning: Meaning, table: Table, catalog: Catalog) -> str:
    """A listing of reference objects names them ("3 carriers with alliance Premier Alliance: HMM,
    ONE, YANG MING"); records are too many to name and are only counted."""
    if meaning.index == catalog.record.index or not table.rows:
        return ""
    names = ", ".join(str(table.key(row)) for row in table.rows[:NAMED])
    rest = table.total - min(len(table.rows), NAMED)
    if rest > 0:
        names = _words().named_more.format(names=names, rest=f"{rest:,}")
    return f": {names}"


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
    return _words().first.format(
        side=_words().first_sides[direction],
        field=field.replace("_", " "),
        key=table.key(first),
        figure=figure(value),
    )


def page_line(offset: int, shown: int, total: int) -> str:
    """ "Records 11–20 of 1,234; there are more.", or that none are left past the first pages."""
    words = _words()
    if not shown:
        return words.page_past.format(total=f"{total:,}", offset=f"{offset:,}")
    end = offset + shown
    template = words.page_more if end < total else words.page
    return template.format(first=f"{offset + 1:,}", last=f"{end:,}", total=f"{total:,}")


def listing(meaning: Meaning, table: Table, noun: str) -> str:
    """Several rows in words: "The top 5 shipper by TEU: A 1,234 TEU; B 1,100 TEU; … and 3 more"."""
    rows = table.rows
    more = more_rows(len(rows))
    column = table.column("figure")
    if column is None:  # "which carriers serve X": the values alone
        named = ", ".join(str(label(table, r)) for r in rows[:LISTED])
        return _words().values.format(count=len(rows), noun=noun, values=named, more=more)
    unit = meaning.measures[0].unit if meaning.measures else None
    shown = "; ".join(
        f"{key(table.labels(row), meaning)} {figure(table.figure(row), unit)}"
        for row in rows[:LISTED]
    )
    # groups by periods or by a second field: each group of the first field once
    split = meaning.interval or len(meaning.group_by) > 1
    groups = rows_named(table, meaning) if split else len(rows)
    heading = _heading(meaning, groups, column.name, noun)
    return _words().listing.format(heading=heading, rows=shown, more=more)


def _heading(meaning: Meaning, count: int, name: str, noun: str) -> str:
    """What the rows are: "The top 5 carrier by TEU", "TEU per month, 12 months", "Only 3 port
    match"."""
    words = _words()
    said = {"label": name, "count": count, "noun": noun, "interval": meaning.interval}
    if meaning.interval and not meaning.group_by and not meaning.top_n:
        return words.per_period.format(**said)
    if meaning.interval:  # groups by period: "TEU per month for 2 carriers"
        return words.groups_per_period.format(**said)
    if meaning.top_n and count < meaning.top_n:
        return words.fewer.format(**said)
    if meaning.top_n:
        return words.ranked.format(side=writing().shared.sides[meaning.order], **said)
    return words.grouped.format(**said)


def _words() -> Summary:
    return writing().summary
