"""Likely mistakes in a catalog that loads and answers (`bosun catalog check` warns; issue #24): a
sum or an average over an id-like column, and a column of numbers that was loaded as text, so no
figure can be computed over it. Each warning names the key path and what to do; the catalog still
checks clean.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bosun.catalog.loader import Catalog, load_catalog
from bosun.catalog.words import _has
from bosun.engines.base import Engine
from bosun.errors import MissingIndex, RunFailure

_SAMPLE = 1000  # values read per text column
_MOSTLY = 0.9  # this share of a column's values being numbers: a column of numbers
_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")


def file_mistakes(path: Path | None, engine: Engine | None) -> list[str]:
    """The warnings for the catalog at `path`, which checks clean."""
    catalog = load_catalog(path)
    return likely_mistakes(catalog.with_engine(engine) if engine else catalog)


def likely_mistakes(catalog: Catalog) -> list[str]:
    """Warnings: summed ids (from the file alone) and numbers held as text (given an engine)."""
    found = [_summed_id(name, spec.field, spec.agg) for name, spec in catalog.spec.measures.items()]
    warnings = [w for w in found if w]
    if catalog.engine is not None:
        warnings += _numbers_as_text(catalog)
    return warnings


def _id_like(catalog: Catalog, field: str) -> bool:
    """Evidence: the field's role, or an id word in its name (draft_words.yaml)."""
    spec = catalog.record.fields.get(field)
    return (spec is not None and spec.role == "identifier") or _has(field, "id_words")


def _summed_id(name: str, field: str | None, agg: str) -> str | None:
    if field is None or agg not in {"sum", "avg"} or not _has(field, "id_words"):
        return None
    said = "sums" if agg == "sum" else "averages"
    return (
        f"measures.{name}: {said} {field}, an id-like column: ids are counted (agg: cardinality), "
        "never summed"
    )


def _numbers_as_text(catalog: Catalog) -> list[str]:
    record = catalog.record
    warnings = []
    for name, spec in record.fields.items():
        if spec.type != "keyword" or _id_like(catalog, name):
            continue
        values = _values(catalog, record.index, name)
        numbers = [v for v in values if _NUMBER.fullmatch(v.strip())]
        if (
            len(numbers) >= 2
            and len(numbers) >= _MOSTLY * len(values)
            and len(numbers) < len(values)
        ):
            other = next(v for v in values if v not in numbers)
            warnings.append(
                f"objects.{catalog.spec.record}.fields.{name}: keyword, but {len(numbers)} of its "
                f"{len(values)} values are numbers ({other!r} is not): a numeric column loaded as "
                "text? "
                "a missing-value word the loader does not know keeps it text"
            )
    return warnings


def _values(catalog: Catalog, index: str, field: str) -> list[str]:
    assert catalog.engine is not None
    body: dict[str, Any] = {"size": 0, "aggs": {"v": {"terms": {"field": field, "size": _SAMPLE}}}}
    try:
        found = catalog.engine.search(index, body)
    except (RunFailure, MissingIndex):
        return []  # said by `catalog check` as a problem, or by the turn that needs it
    return [str(b["key"]) for b in found.get("aggregations", {}).get("v", {}).get("buckets", [])]
