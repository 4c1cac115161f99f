"""A request's deadline over its whole reply: the query, then building and serialising what is sent
back.

The guardrails stop a query at BOSUN_QUERY_TIMEOUT_S; a reply of many documents can take as long
again to turn into JSON. Here the reply is written piece by piece (each flat object in one call of
the C encoder) and the clock is read between pieces, so a reply past the deadline stops there with
one line naming the limit.
"""

from __future__ import annotations

import json
import time
from typing import Any

from bosun.errors import QueryTimeout

SETTING = "BOSUN_QUERY_TIMEOUT_S"
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str).encode


class Deadline:
    """`seconds` from now (its creation: the request's start)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._ends = time.monotonic() + seconds

    def check(self) -> None:
        if time.monotonic() >= self._ends:
            raise QueryTimeout(
                f"the request took longer than {self.seconds:g} s with its reply and was stopped "
                f"({SETTING}); ask for fewer documents or buckets"
            )

    def json(self, value: Any) -> str:
        """`value` as compact JSON, the deadline checked between its pieces."""
        self.check()
        pieces: list[str] = []
        self._write(value, pieces)
        self.check()
        return "".join(pieces)

    def _write(self, value: Any, pieces: list[str]) -> None:
        if isinstance(value, dict) and any(isinstance(v, dict | list) for v in value.values()):
            pieces.append("{")
            for number, (key, item) in enumerate(value.items()):
                pieces.append(("," if number else "") + _ENCODE(str(key)) + ":")
                self._write(item, pieces)
            pieces.append("}")
        elif isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
            pieces.append("[")
            for number, item in enumerate(value):
                self.check()
                if number:
                    pieces.append(",")
                self._write(item, pieces)
            pieces.append("]")
        else:
            pieces.append(_ENCODE(value))
