"""What GraphQL knows of a business object, and where single objects come from.

Kept apart from the schema so that the catalog and the session describe objects without loading
Strawberry: the schema is built on the first single-object lookup only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class GraphObject:
    """One business object as the schema sees it: its index, id field and typed fields."""

    name: str
    index: str
    id_field: str
    fields: dict[str, str]  # field → catalog type (keyword, integer, float, date, boolean, text)
    description: str = ""


class ObjectSource(Protocol):
    """Where single business objects come from."""

    def fetch(self, obj: str, key: str, fields: list[str]) -> dict[str, Any] | None:
        """`fields` of the `obj` whose id is `key`, or None when there is none."""
