"""The record field that holds an object, for a word that names only the object ("harbor" names
the ports object; a record holds ports as its port of unlading and its port of lading).

    >>> held_by(catalog, "ports")  # doctest: +SKIP
    'port_of_unlading'

The field is the only one whose values are the object's (an entity's targets and a link's fields,
as the catalog says), or, when several are, the entity's default role: its first target.
"""

from __future__ import annotations

from bosun.catalog import Catalog


def held_by(catalog: Catalog, obj: str) -> str | None:
    """The record dimension holding the object `obj`; None when no record field holds it."""
    fields = [f for f in _holders(catalog, obj) if _dimension(catalog, f)]
    if len(set(fields)) == 1:
        return fields[0]
    default = next((e.targets for e in catalog.spec.entities.values() if e.object == obj), [])
    return next((t.field for t in default if _dimension(catalog, t.field)), None)


def _holders(catalog: Catalog, obj: str) -> list[str]:
    """Every record field the catalog says holds the object's values, in the catalog's order."""
    targets = [
        t.field for e in catalog.spec.entities.values() if e.object == obj for t in e.targets
    ]
    link = catalog.spec.links.get(obj)
    return targets + ([t.field for t in link.fields] if link is not None else [])


def _dimension(catalog: Catalog, name: str) -> bool:
    field = catalog.record.fields.get(name)
    return field is not None and field.role == "dimension"
