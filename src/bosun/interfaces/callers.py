"""Each HTTP request's queries run with its caller's own cluster credentials
(BOSUN_ENGINE_AUTH=caller).

Bosun's own token keeps its header (`Authorization: Bearer <BOSUN_API_TOKEN>`, `interfaces.auth`);
the cluster credential comes in `X-Bosun-Engine-Authorization: ApiKey <key>` (or `Bearer <token>`)
and is sent to the cluster as its `Authorization`. A request without it is refused with a 401 in one
line, before any query; the public paths (the page's static files, the API's description) hold no
data and need none. The credential is held for the request only (`engines.caller`), never stored or
logged.
"""

from __future__ import annotations

import json
from typing import Any

from bosun.engines.caller import as_caller, credential
from bosun.errors import Unauthorized
from bosun.interfaces.auth import ASGIApp, Receive, Scope, Send


class CallerCredentials:
    """ASGI middleware: run the request as its caller, or refuse it (401, JSON) without
    credentials."""

    def __init__(self, app: ASGIApp, public: tuple[str, ...] = ()) -> None:
        self.app, self.public = app, public

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self._public(str(scope.get("path", ""))):
            await self.app(scope, receive, send)
            return
        try:
            secret = credential(request_header(scope.get("headers") or []))
        except Unauthorized as exc:
            await _refuse(scope, send, str(exc))
            return
        with as_caller(secret):
            await self.app(scope, receive, send)

    def _public(self, path: str) -> bool:
        return any(path == p or (p.endswith("*") and path.startswith(p[:-1])) for p in self.public)


def request_header(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The caller's engine credential header among a request's raw headers, if sent."""
    name = b"x-bosun-engine-authorization"
    return next((value.decode("latin-1") for key, value in headers if key.lower() == name), None)


def with_callers(app: Any, caller_auth: bool, public: tuple[str, ...]) -> Any:
    """The app itself for the service's credentials, else the app behind CallerCredentials."""
    return CallerCredentials(app, public) if caller_auth else app


async def _refuse(scope: Scope, send: Send, detail: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    body = json.dumps({"error": "unauthorized", "detail": detail})
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"ApiKey")],
        }
    )
    await send({"type": "http.response.body", "body": body.encode()})
