"""Why a result is empty, in words (diagnose_query): the filters that, dropped alone, would find
records.

"No records matched. Dropping any one of these filters would find some: port_of_unlading =
SAVANNAH; arrival_date from 2026-06-22 to 2026-06-28."
"""

from __future__ import annotations

from typing import Any


def diagnosis(culprits: list[dict[str, Any]]) -> str:
    """The filter clauses that emptied a result, each of which dropped alone finds records."""
    if not culprits:
        return "No records matched, and dropping any one filter would still find none."
    described = "; ".join(_clause(c) for c in culprits)
    return f"No records matched. Dropping any one of these filters would find some: {described}."


def _clause(clause: dict[str, Any]) -> str:
    """A filter clause in words: "port_of_unlading = SAVANNAH", "arrival_date from 2026-06-22 to
    2026-06-28"."""
    kind, body = next(iter(clause.items()))
    field, value = next(iter(body.items())) if isinstance(body, dict) and body else ("", body)
    if kind == "term":
        return f"{field} = {value}"
    if kind == "terms":
        return f"{field} in {', '.join(map(str, value))}"
    if kind == "range" and isinstance(value, dict):
        words = {"gte": "from", "gt": "above", "lte": "to", "lt": "below"}
        return f"{field} " + " ".join(f"{words.get(op, op)} {bound}" for op, bound in value.items())
    if kind == "bool" and "must_not" in body:
        return "not " + " and not ".join(_clause(c) for c in body["must_not"])
    return str(clause)
