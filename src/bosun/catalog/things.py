"""Things the records count (issue #24 class 5): an id whose values repeat across rows numbers
something of which a row is a part — the order of an order line, the plane of a flight, the voyage
of a shipment — so "how many orders" is the number of distinct order ids, not of rows.

Evidence: an id word in the column's name (written out through abbreviations.yaml: "tailnum" → "tail
number"), values that repeat (fewer distinct values than 90 % of the rows) and enough of them to be
things rather than positions or codes (a line's number within its order takes a handful of values).
"""

from __future__ import annotations

from typing import Any

from bosun.catalog.profile import Column, IndexProfile
from bosun.catalog.words import _words, plural, singular, spoken, words_of

_REPEATS = 0.9  # fewer distinct values than this share of the rows: the ids repeat
_FEW_THINGS = 30  # fewer distinct values: a position or a code, not things counted


def thing_of(column: Column, record: IndexProfile) -> str | None:
    """The plural noun of what a repeated id numbers ("order_key" → "orders"); None where the column
    is no such id."""
    if column.type not in {"keyword", "integer", "long"} or column.distinct < _FEW_THINGS:
        return None
    if column.distinct >= _REPEATS * record.rows:
        return None
    said = spoken(column.name).split()
    ids = {str(w) for w in _words()["id_words"]}
    if not ids & set(said):
        return None
    noun = " ".join(w for w in said if w not in ids)
    head = singular(words_of(record.index)[-1]) if words_of(record.index) else ""
    # "flight_number" in flights: the records themselves; "invoice_id" in invoice_items numbers the
    # invoices the items are parts of
    if not noun or singular(noun.split()[-1]) == head:
        return None
    return plural(singular(noun))


def thing_measure(column: Column, thing: str) -> dict[str, Any]:
    """A distinct count named after the thing: "how many orders", "orders by priority"."""
    return {"agg": "cardinality", "field": column.name, "words": [thing], "label": thing}


def thing_why(column: Column, record: IndexProfile) -> str:
    return (
        f"an id repeated across rows ({column.distinct:,} values in {record.rows:,} rows): "
        "the things it numbers are counted"
    )
