"""The most bytes one HTTP request body may hold, checked before the body is read.

`BodyLimit` is plain ASGI middleware in front of every server (`bosun serve`, `bosun serve
graphql`): a declared `Content-Length` over the limit is answered 413 before a byte of the body is
read; a chunked body (no length) is read up to the limit and refused as soon as it passes it, so no
more than the limit is ever held.
"""

from __future__ import annotations

import json
from collections.abc import MutableMapping
from typing import Any

from bosun.interfaces.auth import ASGIApp, Receive, Scope, Send


class BodyLimit:
    """ASGI middleware: HTTP request bodies over `limit` bytes are answered 413 (JSON `{error,
    detail}`)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await _refuse(send, self.limit)
            return
        chunks = await self._read(receive)
        if chunks is None:
            await _refuse(send, self.limit)
            return
        await self.app(scope, _replay(chunks, receive), send)

    async def _read(self, receive: Receive) -> list[MutableMapping[str, Any]] | None:
        """The body's messages, or None once more than the limit has come (the rest is never
        read)."""
        messages: list[MutableMapping[str, Any]] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                return messages
            size += len(message.get("body", b""))
            if size > self.limit:
                return None
            if not message.get("more_body", False):
                return messages


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers") or []:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _replay(messages: list[MutableMapping[str, Any]], receive: Receive) -> Receive:
    """A receive that gives the messages already read, then whatever the connection says next."""
    pending = list(messages)

    async def replayed() -> MutableMapping[str, Any]:
        return pending.pop(0) if pending else await receive()

    return replayed


def too_large(limit: int) -> str:
    return f"the request body is over the limit of {limit:,} bytes (BOSUN_MAX_REQUEST_BYTES)"


async def _refuse(send: Send, limit: int) -> None:
    body = json.dumps({"error": "request_too_large", "detail": too_large(limit)}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
