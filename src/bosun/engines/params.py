"""Parameters of a query DSL body, read with their type and range checked.

A malformed value (a size given as words, NaN, an order that is neither asc nor desc) is a BadQuery
naming the clause and the parameter, never a ValueError from deep inside an engine or a silently
wrong answer.
"""

from __future__ import annotations

import math
from typing import Any

from bosun.errors import BadQuery

MAX_DEPTH = 20  # nesting of query clauses and of aggregations, as clusters cap bool nesting


def listed(raw: Any) -> list[Any]:
    """A parameter the DSL takes as one item or a list of them, as a list; none when it is empty."""
    if isinstance(raw, list):
        return raw
    if raw:
        return [raw]
    return []


def integer(body: dict[str, Any], clause: str, name: str, default: int, minimum: int = 0) -> int:
    """An integer parameter; Elasticsearch also takes one written as digits ("10")."""
    raw = body.get(name, default)
    if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
        raw = int(raw)
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise BadQuery(clause, f"{name} must be an integer, got {raw!r}")
    if raw < minimum:
        raise BadQuery(clause, f"{name} must be at least {minimum}, got {raw}")
    return raw


def number(raw: Any, clause: str, name: str) -> float:
    """A finite number (NaN and infinities are refused)."""
    if isinstance(raw, bool):
        raise BadQuery(clause, f"{name} must be a number, got {raw!r}")
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise BadQuery(clause, f"{name} must be a number, got {raw!r}") from None
    if not math.isfinite(value):
        raise BadQuery(clause, f"{name} must be a finite number, got {raw!r}")
    return value


def positive(raw: Any, clause: str, name: str) -> float:
    value = number(raw, clause, name)
    if value <= 0:
        raise BadQuery(clause, f"{name} must be greater than 0, got {raw!r}")
    return value


def descending(raw: Any, clause: str, default: str = "asc") -> bool:
    """True for "desc", False for "asc" (any case); anything else is refused."""
    text = default if raw is None else raw
    if not isinstance(text, str) or text.lower() not in ("asc", "desc"):
        raise BadQuery(clause, f"order must be 'asc' or 'desc', got {raw!r}")
    return text.lower() == "desc"


def required(body: Any, clause: str, name: str) -> Any:
    if not isinstance(body, dict):
        raise BadQuery(clause, f"expected an object, got {body!r:.80}")
    if body.get(name) is None:
        raise BadQuery(clause, f"{name} is required")
    return body[name]


def an_object(raw: Any, clause: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise BadQuery(clause, f"expected an object, got {raw!r:.80}")
    return raw


def field_name(body: Any, clause: str) -> str:
    name = required(body, clause, "field")
    if not isinstance(name, str):
        raise BadQuery(clause, f"field must be a name, got {name!r:.80}")
    return name


def json_depth(node: Any) -> int:
    """How deeply objects and lists nest in `node`; iterative, so any depth is measured without
    recursion."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item)
    return deepest
