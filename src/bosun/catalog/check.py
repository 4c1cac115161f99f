"""`bosun catalog check`: every problem of a catalog, each with its key path, before a question
meets it.

It loads the catalog, then builds what Bosun derives from it — reference rows for the name index,
the GraphQL schema — and, given an engine, compares the objects with the indices it holds.
"""

from __future__ import annotations

from pathlib import Path

from bosun.catalog.loader import Catalog, load_catalog
from bosun.catalog.schema import EntitySpec
from bosun.engines.base import Engine
from bosun.engines.graphql.objects import GraphObject
from bosun.errors import BosunError, CatalogError, RunFailure


def check_file(path: Path | None, engine: Engine | None = None) -> list[str]:
    """The problems of the catalog at `path` (the bundled one when None); empty when it is sound."""
    try:
        catalog = load_catalog(path)
    except CatalogError as exc:
        return exc.problems
    return check_catalog(catalog.with_engine(engine) if engine else catalog)


def check_catalog(
    catalog: Catalog, indices: bool = True, *, build_graphql: bool = True
) -> list[str]:
    """Every problem; `indices`: also compare the objects with the engine's indices (what `catalog
    check` does); `build_graphql`: also build the GraphQL schema (Strawberry is slow to load)."""
    problems = _index_problems(catalog) if catalog.engine is not None and indices else []
    for name, entity in catalog.spec.entities.items():
        problems += _entity_problems(catalog, name, entity)
    return problems + _graphql_problems(catalog, build_graphql)


def require_sound(catalog: Catalog) -> None:
    """Refuse a broken catalog with the list of its problems (`ask`, `chat`, the session).

    What the engine holds is not the catalog's fault: a missing index is said by the turn that needs
    it. The GraphQL schema is not built here either: a turn builds it on its first single-object
    lookup and says there when it does not build; `bosun catalog check` builds it.
    """
    problems = check_catalog(catalog, indices=False, build_graphql=False)
    if problems:
        listed = "\n".join(f"  - {p}" for p in problems)
        raise CatalogError(
            f"catalog {catalog.path.name} has {len(problems)} problem(s); fix them "
            f"(`bosun catalog check` lists them):\n{listed}",
            problems,
        )


def _index_problems(catalog: Catalog) -> list[str]:
    assert catalog.engine is not None
    try:
        held = set(catalog.engine.indices())
    except RunFailure:
        # an engine that is down is not the catalog's problem: the turn that needs it says so
        return []
    problems = []
    for name, obj in catalog.spec.objects.items():
        if obj.index not in held:
            if obj.kind == "record" or obj.source is None:
                problems.append(f"objects.{name}.index: no index {obj.index!r} in the engine")
            continue
        mapped = catalog.engine.mapping(obj.index).get("properties", {})
        problems += [
            f"objects.{name}.fields.{f}: not in index {obj.index!r}"
            for f in obj.fields
            if f not in mapped
        ]
    return problems


def _entity_problems(catalog: Catalog, name: str, entity: EntitySpec) -> list[str]:
    if entity.object is None:
        return []
    obj = catalog.spec.objects[entity.object]
    columns: dict[str, list[str | None]] = {
        "name_field": [entity.name_field],
        "alias_field": [entity.alias_field],
        "code_fields": [*entity.code_fields],
        "extra_names": [*entity.extra_names],
    }
    problems = [
        f"entities.{name}.{key}: {c!r} is not a field of {entity.object}"
        for key, listed in columns.items()
        for c in listed
        if c is not None and c not in obj.fields
    ]
    problems += [
        f"entities.{name}.targets.{i}.value_from: {t.value_from!r} is not a field of "
        f"{entity.object}"
        for i, t in enumerate(entity.targets)
        if t.value_from and t.value_from not in obj.fields
    ]
    if not problems:
        try:
            catalog.reference_rows(entity.object)
        except BosunError as exc:
            problems.append(f"entities.{name}.object: its rows cannot be read: {exc}")
    return problems


def _graphql_problems(catalog: Catalog, build: bool) -> list[str]:
    objects = catalog.graph_objects()
    if not objects:
        return [
            "objects: no object has an id_field, so the GraphQL schema would have no query; "
            "give at least one object an id_field"
        ]
    if not build or _schema_error(objects) is None:
        return []
    failing = [(o.name, _schema_error([o])) for o in objects]
    named = [
        f"objects.{name}: its GraphQL type does not build: {error}"
        for name, error in failing
        if error
    ]
    return named or [f"objects: the GraphQL schema does not build: {_schema_error(objects)}"]


def _schema_error(objects: list[GraphObject]) -> str | None:
    from bosun.engines.graphql.schema import build_schema

    try:
        build_schema(objects)
    except Exception as exc:
        return str(exc).splitlines()[0]
    return None
