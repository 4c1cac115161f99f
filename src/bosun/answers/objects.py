"""One business object in words (graphql_lookup): the attributes asked, or what it is.

"9321483 (vessel) — flag: PA; gross tonnage: 151,963.00."
"""

from __future__ import annotations

from typing import Any

from bosun.understanding.grammar import english


def object_attributes(key: Any, noun: str, said: list[tuple[str, Any]]) -> str:
    """The object's attributes asked, each by its label."""
    asked = "; ".join(f"{label}: {_shown(value)}" for label, value in said)
    return f"{key} ({noun}) — {asked}."


def object_described(key: Any, noun: str, description: str) -> str:
    """The object with what its kind of object is, for a table of all its fields."""
    return f"{key} ({noun}): {description}"


def object_reading(title: str, labels: list[str]) -> str:
    """What the table of the attributes asked holds: the object, then the attributes."""
    return english().read_back.joiner.join([title, ", ".join(labels)])


def attribute_label(synonyms: list[str], field: str) -> str:
    """A field's first multi-letter synonym reads better than its column name: "IMO number", not
    vessel_imo."""
    return next(
        (s for s in synonyms if len(s) > 3 and s.lower() != "name"), field.replace("_", " ")
    )


def _shown(value: Any) -> str:
    if value is None:
        return "not recorded"
    if isinstance(value, float):
        return f"{value:,.2f}"
    return str(value)
