"""Why a result is empty, in words (diagnose_query): the filters that, dropped alone, would find
records.

"No records matched. Dropping any one of these filters would find some: port of unlading =
SAVANNAH; arrival date from 2026-06-22 to 2026-06-28."
"""

from __future__ import annotations

from typing import Any

from bosun.answers.grammar import Diagnosis, writing
from bosun.catalog import Catalog
from bosun.understanding.phrases import field_name


def diagnosis(culprits: list[dict[str, Any]], catalog: Catalog) -> str:
    """The filter clauses that emptied a result, each of which dropped alone finds records."""
    if not culprits:
        return _words().none
    return _words().some.format(filters="; ".join(_clause(c, catalog) for c in culprits))


def _clause(clause: dict[str, Any], catalog: Catalog) -> str:
    """A filter clause in words, its field as people call it: "port of unlading = SAVANNAH",
    "arrival date from 2026-06-22 to 2026-06-28"."""
    words = _words()
    kind, body = next(iter(clause.items()))
    name, value = next(iter(body.items())) if isinstance(body, dict) and body else ("", body)
    field = field_name(name, catalog) if name else name
    if kind == "term":
        return words.term.format(field=field, value=value)
    if kind == "terms":
        return words.terms.format(field=field, values=", ".join(map(str, value)))
    if kind == "range" and isinstance(value, dict):
        bounds = " ".join(f"{words.range.get(op, op)} {bound}" for op, bound in value.items())
        return f"{field} {bounds}"
    if kind == "bool" and "must_not" in body:
        dropped = words.negated_joiner.join(_clause(c, catalog) for c in body["must_not"])
        return words.negated.format(filters=dropped)
    return str(clause)


def _words() -> Diagnosis:
    return writing().diagnosis
