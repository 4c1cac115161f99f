"""Load and validate a catalog file; derive mappings and reference tables from it."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import ValidationError

from bosun.catalog.schema import CatalogSpec, FieldSpec, ObjectSpec, source_path
from bosun.engines.base import Engine
from bosun.engines.graphql.objects import GraphObject
from bosun.errors import CatalogError, MissingIndex
from bosun.yamltext import load_yaml

if TYPE_CHECKING:
    import pyarrow as pa  # loaded by the methods that build tables: a question needs none


def _arrow_type(kind: str) -> pa.DataType:
    import pyarrow as pa

    types = {
        "keyword": pa.string(),
        "text": pa.string(),
        "date": pa.date32(),
        "integer": pa.int64(),
        "long": pa.int64(),
        "float": pa.float64(),
        "double": pa.float64(),
        "boolean": pa.bool_(),
    }
    return types[kind]


def bundled_catalog_path() -> Path:
    """The maritime sample's catalog shipped inside the package."""
    return Path(str(resources.files("bosun.domains") / "maritime" / "catalog.yaml"))


def load_catalog(path: Path | None = None) -> Catalog:
    """Read and validate a catalog; errors name the file, the key path and what is wrong."""
    path = Path(path) if path else bundled_catalog_path()
    try:
        raw = load_yaml(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CatalogError(f"cannot read catalog {path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise CatalogError(f"{path.name}: not valid YAML: {exc}".splitlines()[0]) from None
    try:
        spec = CatalogSpec.model_validate(raw)
    except ValidationError as exc:
        problems = validation_problems(exc)
        raise CatalogError(f"{path.name}: {problems[0]}", problems) from None
    return Catalog(spec, path.resolve())


def validation_problems(exc: ValidationError) -> list[str]:
    """Every validation error as `key.path: what is wrong`."""
    return [
        f"{'.'.join(str(p) for p in error['loc']) or '(top level)'}: {error['msg']}"
        for error in exc.errors()
    ]


def field_mapping(spec: FieldSpec) -> dict[str, Any]:
    """The Elasticsearch mapping of one field."""
    mapping: dict[str, Any] = {"type": spec.type}
    if spec.subfields:
        mapping["fields"] = {name: {"type": kind} for name, kind in spec.subfields.items()}
    return mapping


@dataclass(frozen=True)
class Catalog:
    """A validated catalog, the file it came from, and the engine its source-less reference objects
    live in."""

    spec: CatalogSpec
    path: Path
    engine: Engine | None = field(default=None, compare=False, repr=False)
    _rows: dict[str, list[dict[str, str]]] = field(default_factory=dict, compare=False, repr=False)

    def with_engine(self, engine: Engine) -> Catalog:
        """This catalog reading reference objects without a source file from `engine`'s indices."""
        return Catalog(self.spec, self.path, engine)

    @property
    def record(self) -> ObjectSpec:
        return self.spec.objects[self.spec.record]

    def object(self, name: str) -> ObjectSpec:
        try:
            return self.spec.objects[name]
        except KeyError:
            raise CatalogError(f"{self.path.name}: no object {name!r}") from None

    def mapping_for(self, name: str) -> dict[str, Any]:
        """Elasticsearch mapping ({"properties": ...}) of an object's index."""
        obj = self.object(name)
        return {"properties": {field: field_mapping(spec) for field, spec in obj.fields.items()}}

    def graph_objects(self) -> list[GraphObject]:
        """The business objects as the GraphQL schema sees them."""
        return [
            GraphObject(
                name,
                obj.index,
                obj.id_field,
                {f: spec.type for f, spec in obj.fields.items()},
                obj.description,
            )
            for name, obj in self.spec.objects.items()
            if obj.id_field
        ]

    def allowed_indices(self) -> list[str]:
        return sorted(obj.index for obj in self.spec.objects.values())

    def arrow_schema(self, name: str) -> pa.Schema:
        import pyarrow as pa

        obj = self.object(name)
        return pa.schema([(field, _arrow_type(spec.type)) for field, spec in obj.fields.items()])

    def reference_rows(self, name: str) -> list[dict[str, str]]:
        """The raw rows of a reference object, as strings: from its CSV, else from its index in the
        engine."""
        if name not in self._rows:
            self._rows[name] = self._read_rows(name)
        return self._rows[name]

    def _read_rows(self, name: str) -> list[dict[str, str]]:
        obj = self.object(name)
        if obj.source is not None:
            try:
                with source_path(self.path, obj.source).open(
                    newline="", encoding="utf-8"
                ) as handle:
                    return list(csv.DictReader(handle))
            except OSError as exc:
                raise CatalogError(
                    f"{self.path.name}: objects.{name}.source: cannot read {obj.source}: "
                    f"{exc.strerror}"
                ) from None
        if self.engine is None:
            raise CatalogError(
                f"{self.path.name}: objects.{name} has no source file and no engine to read it from"
            )
        return [
            {k: _text(v) for k, v in row.items()}
            for row in index_rows(self.engine, obj.index, obj.id_field)
        ]

    def link_values(self, name: str, attribute: str) -> dict[str, list[str]]:
        """The values of a linked object's attribute that the catalog has words for → those words:
        its own, and each value the reference data holds when the attribute reads them from the data
        ("Ocean Alliance")."""
        spec = self.spec.links[name].attributes[attribute]
        values = {value: list(words) for value, words in spec.values.items()}
        if spec.from_data:
            for row in self.reference_rows(name):
                held = row.get(attribute) or ""
                words = values.setdefault(held, []) if held else []
                words += (
                    [held.replace("_", " ")] if held and held.replace("_", " ") not in words else []
                )
        return values

    def reference_table(self, name: str) -> pa.Table:
        """A reference object's rows typed by its fields (empty strings become nulls)."""
        import pyarrow as pa

        rows = self.reference_rows(name)
        schema = self.arrow_schema(name)
        columns = {f.name: [_typed(row.get(f.name, ""), f.type) for row in rows] for f in schema}
        return pa.table(columns, schema=schema)

    @cached_property
    def glossary_words(self) -> frozenset[str]:
        """Every lower-cased word of the glossary's terms and their synonyms."""
        synonyms = self.spec.glossary.synonyms if self.spec.glossary else {}
        phrases = [*self.glossary, *(s for words in synonyms.values() for s in words)]
        return frozenset(w for p in phrases for w in p.lower().replace("/", " ").split())

    @cached_property
    def glossary(self) -> dict[str, str]:
        """term → definition."""
        if self.spec.glossary is None:
            return {}
        with source_path(self.path, self.spec.glossary.source).open(
            newline="", encoding="utf-8"
        ) as handle:
            return {row["term"]: row["definition"] for row in csv.DictReader(handle)}


def index_rows(engine: Engine, index: str, id_field: str | None) -> list[dict[str, Any]]:
    """Every document of an index, paged by search_after on the id field (reference objects are
    small)."""
    rows: list[dict[str, Any]] = []
    body: dict[str, Any] = {
        "size": 5000,
        "sort": [{id_field or "_id": "asc"}],
        "track_total_hits": False,
    }
    try:
        while True:
            hits = engine.search(index, body)["hits"]["hits"]
            rows.extend(h.get("_source", {}) for h in hits)
            if len(hits) < body["size"]:
                return rows
            body["search_after"] = hits[-1]["sort"]
    except MissingIndex:
        raise CatalogError(
            f"no index {index!r} to read reference rows from: load it with `bosun data load`"
        ) from None


def _text(value: Any) -> str:
    """A document value as the CSV rows hold it: text, empty when missing."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def _typed(text: str, kind: pa.DataType) -> Any:
    import pyarrow as pa

    if text == "":
        return None
    if pa.types.is_boolean(kind):
        return text.strip().lower() in {"true", "1", "yes"}
    if pa.types.is_integer(kind):
        return int(text)
    if pa.types.is_floating(kind):
        return float(text)
    return text
