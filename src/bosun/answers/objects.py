"""One business object in words (graphql_lookup): the attributes asked, or what it is.

"9321483 (vessel) — flag: PA; gross tonnage: 151,963.00."
"""

from __future__ import annotations

from typing import Any

from bosun.answers.grammar import CatalogWords, writing


def object_attributes(key: Any, noun: str, said: list[tuple[str, Any]]) -> str:
    """The object's attributes asked, each by its label."""
    words = _words()
    asked = "; ".join(words.attribute.format(label=label, value=_shown(v)) for label, v in said)
    return words.attributes.format(key=key, noun=noun, attributes=asked)


def object_described(key: Any, noun: str, description: str) -> str:
    """The object with what its kind of object is, for a table of all its fields."""
    return _words().described.format(key=key, noun=noun, description=description)


def object_reading(title: str, labels: list[str]) -> str:
    """What the table of the attributes asked holds: the object, then the attributes."""
    return writing().read_back.joiner.join([title, ", ".join(labels)])


def object_columns() -> list[str]:
    """The columns of the table of all an object's fields: the field and its value."""
    return list(_words().object_columns)


def attribute_label(synonyms: list[str], field: str) -> str:
    """A field's first multi-letter synonym reads better than its column name: "IMO number", not
    vessel_imo."""
    return next(
        (s for s in synonyms if len(s) > 3 and s.lower() != "name"), field.replace("_", " ")
    )


def _shown(value: Any) -> str:
    if value is None:
        return _words().not_recorded
    if isinstance(value, float):
        return f"{value:,.2f}"
    return str(value)


def _words() -> CatalogWords:
    return writing().catalog
