"""Numbers no part of Bosun can hold, refused where a request comes in: a 422 naming the field.

JSON as Python reads it allows `NaN` and `Infinity`, reads `1e400` as infinity and a whole number of
any length; a spreadsheet writer, SQLite, PostgreSQL and the engines then fail on them deep inside
(issue #39). Every API route is a `CheckedRoute`: before FastAPI reads the request, its JSON body is
read once more, each number checked wherever it stands (`query.range.teu.gte`, `rows.3.1`), and so
are the whole-number parameters of its path and query. A number is held when it is a finite float
or a whole number within 64 bits (what SQLite, PostgreSQL and Elasticsearch's long hold).
"""

from __future__ import annotations

import json
import math
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute

UNHELD = "unheld_number"  # the error type a handler answers with 422
WHOLE_MIN, WHOLE_MAX = -(2**63), 2**63 - 1
_LONGEST_WHOLE = len(str(WHOLE_MAX))  # more digits are out of range without reading them
_QUOTED = 24  # characters of a refused number quoted back

Loc = tuple[str | int, ...]


class _Unheld:
    """A number of the body as written, which no number type holds."""

    def __init__(self, text: str) -> None:
        self.text = text


class CheckedRoute(APIRoute):
    """An API route whose request's numbers are checked before it is read (see the module)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        wholes = _whole_parameters(self.dependant)

        async def checked(request: Request) -> Response:
            problems = _parameter_problems(request, wholes) + _body_problems(
                request.headers.get("content-type"), await request.body()
            )
            if problems:
                raise RequestValidationError(problems)
            return await handler(request)

        return checked


def _whole_parameters(dependant: Dependant) -> list[tuple[str, str]]:
    """(where, name) of each whole-number parameter of the path and the query."""
    found = [("path", p.name) for p in dependant.path_params if _whole(p.field_info.annotation)]
    return found + [
        ("query", p.name) for p in dependant.query_params if _whole(p.field_info.annotation)
    ]


def _whole(annotation: Any) -> bool:
    return annotation is int or annotation == int | None


def _parameter_problems(request: Request, wholes: list[tuple[str, str]]) -> list[dict[str, Any]]:
    problems = []
    for where, name in wholes:
        params = request.path_params if where == "path" else request.query_params
        text = str(params.get(name) or "")
        if text.lstrip("+-").isdigit() and _unheld_whole(text):
            problems.append(_problem((where, name), text))
    return problems


def _body_problems(content_type: str | None, body: bytes) -> list[dict[str, Any]]:
    """The body's unheld numbers, each with where it stands; none when the body is no JSON (FastAPI
    then says what is wrong with it)."""
    if not body or (content_type and "json" not in content_type.lower()):
        return []
    try:
        parsed = json.loads(body, parse_constant=_Unheld, parse_float=_float, parse_int=_int)
    except (ValueError, RecursionError):
        return []
    return [_problem(("body", *loc), found.text) for loc, found in _unheld(parsed)]


def _float(text: str) -> float | _Unheld:
    value = float(text)
    return value if math.isfinite(value) else _Unheld(text)


def _int(text: str) -> int | _Unheld:
    return _Unheld(text) if _unheld_whole(text) else int(text)


def _unheld_whole(text: str) -> bool:
    digits = text.lstrip("+-").lstrip("0")
    return len(digits) > _LONGEST_WHOLE or not WHOLE_MIN <= int(text) <= WHOLE_MAX


def _unheld(parsed: Any) -> list[tuple[Loc, _Unheld]]:
    """Every unheld number in a parsed body with its place, outermost first (no recursion: a body
    may nest deep)."""
    found: list[tuple[Loc, _Unheld]] = []
    waiting: deque[tuple[Loc, Any]] = deque([((), parsed)])
    while waiting:
        loc, value = waiting.popleft()
        if isinstance(value, _Unheld):
            found.append((loc, value))
        elif isinstance(value, dict):
            waiting.extend(((*loc, key), item) for key, item in value.items())
        elif isinstance(value, list):
            waiting.extend(((*loc, at), item) for at, item in enumerate(value))
    return found


def _problem(loc: Loc, text: str) -> dict[str, Any]:
    quoted = text if len(text) <= _QUOTED else text[:_QUOTED] + "…"
    whole = text.lstrip("+-").isdigit()
    said = "a whole number must fit in 64 bits" if whole else "a number must be finite"
    return {"type": UNHELD, "loc": loc, "msg": f"{said}, not {quoted}", "input": quoted}
