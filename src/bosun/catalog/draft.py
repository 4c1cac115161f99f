"""Draft a catalog from a live index: its mapping plus a sample of each keyword field's values."""

from __future__ import annotations

from typing import Any

import yaml

from bosun.engines.base import Engine

_TYPES = {"keyword", "text", "date", "integer", "long", "float", "double", "boolean"}
_NUMERIC_ROLE = {"integer": "measure", "long": "measure", "float": "measure", "double": "measure"}
_FEW_VALUES = 30


def draft_catalog(engine: Engine, index: str) -> str:
    """A catalog YAML for `index` that loads with the schema; a person then adds synonyms and measures."""
    mapping = engine.mapping(index).get("properties", {})
    fields = {name: _field(engine, index, name, spec) for name, spec in mapping.items()
              if spec.get("type", "object") in _TYPES}
    dates = [n for n, f in fields.items() if f["type"] == "date"]
    measures = {"records": {"agg": "count", "words": ["records", "how many", "count"], "label": "records"}}
    for name, f in fields.items():
        if f["role"] == "measure":
            measures[f"total_{name}"] = {"agg": "sum", "field": name, "words": [name.replace("_", " ")],
                                         "label": f"total {name.replace('_', ' ')}"}
    draft: dict[str, Any] = {
        "domain": index,
        "description": f"Drafted from the live index {index!r}; review every description.",
        "record": index,
        "objects": {index: {"kind": "record", "index": index, "description": f"One {index} record.",
                            "synonyms": [index], "fields": fields}},
        "measures": measures,
        "time": {"default_field": dates[0] if dates else next(iter(fields)), "fields": {d: [] for d in dates}},
        "defaults": {"measure": "records"},
    }
    return yaml.safe_dump(draft, sort_keys=False, allow_unicode=True)


def _field(engine: Engine, index: str, name: str, spec: dict[str, Any]) -> dict[str, Any]:
    kind = spec["type"]
    field: dict[str, Any] = {"type": kind, "role": _NUMERIC_ROLE.get(kind, "attribute"),
                             "description": name.replace("_", " ").capitalize() + ".",
                             "synonyms": [name.replace("_", " ")]}
    if kind == "date":
        field["role"] = "date"
    elif kind == "text":
        field["role"] = "text"
    elif kind == "keyword":
        values = _sample_values(engine, index, name)
        field["role"] = "dimension" if len(values) <= _FEW_VALUES else "identifier"
        if len(values) <= _FEW_VALUES:
            field["values"] = {v: [v.replace("_", " ").lower()] for v in values}
    if spec.get("fields"):
        field["subfields"] = {sub: s.get("type", "keyword") for sub, s in spec["fields"].items()}
    return field


def _sample_values(engine: Engine, index: str, name: str) -> list[str]:
    body = {"size": 0, "aggs": {"v": {"terms": {"field": name, "size": _FEW_VALUES + 1}}}}
    buckets = engine.search(index, body)["aggregations"]["v"]["buckets"]
    return [str(b["key"]) for b in buckets]
