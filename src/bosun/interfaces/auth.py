"""Who may call what Bosun serves over HTTP: anyone on loopback, only bearers of the token
elsewhere.

One rule for every server (`bosun serve`, `bosun serve graphql`, the MCP server):

- bound to a loopback address (127.0.0.0/8, ::1, localhost) no token is needed;
- bound to any other address, `BOSUN_API_TOKEN` must be set or the server does not start;
- whenever a token is set, every request must carry `Authorization: Bearer <token>`, compared in
  constant time; paths a server declares public (a page's static files, which hold no data) are
  exempt:
  exact paths, or prefixes written with a trailing `*`;
- `BOSUN_ADMIN_TOKEN`, when set, is accepted wherever the token is, and makes its bearer an
  administrator, who reads every thread (`interfaces.owners`).

and which `Host` a request may name (against DNS rebinding, where a web page's own name comes to
point at 127.0.0.1): bound to loopback, the loopback names (with any port) and those of
`BOSUN_ALLOWED_HOSTS`; bound elsewhere, the setting's names, or any when it is unset (the token then
guards). Other hosts get a 400.

`BearerAuth` is plain ASGI middleware, so it wraps Starlette, FastAPI and the MCP SDK's apps alike.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.middleware.trustedhost import TrustedHostMiddleware

from bosun.errors import SettingsError

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: only "localhost" is known to stay on this machine
        return False


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def served_hosts(host: str, setting: str) -> list[str]:
    """The Host names a server bound to `host` answers to (ports aside); ["*"] for any."""
    named = [name.strip().lower() for name in setting.split(",") if name.strip()]
    if not is_loopback(host):
        return named or ["*"]
    bound = f"[{host.strip('[]')}]" if ":" in host else host.lower()
    return list(dict.fromkeys([*LOOPBACK_NAMES, bound, *named]))


def guard_hosts(app: ASGIApp, hosts: list[str]) -> ASGIApp:
    """The app behind a Host check: requests naming another host get a 400. The Host header
    reaches the app in lower case (host names are case-insensitive), so a check of its own that
    compares exactly, as MCP's does, answers to `LOCALHOST` as this one does."""
    return TrustedHostMiddleware(_LowerCaseHost(app), allowed_hosts=hosts, www_redirect=False)


class _LowerCaseHost:
    """ASGI middleware: the request's Host header in lower case."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = [(k, v.lower() if k == b"host" else v) for k, v in scope["headers"]]
            scope = {**scope, "headers": headers}
        await self.app(scope, receive, send)


def required_token(host: str, token: str | None) -> str | None:
    """The token requests must bear on this host; off loopback without one is a SettingsError."""
    if not token and not is_loopback(host):
        raise SettingsError(
            f"bad setting BOSUN_API_TOKEN: serving on {host}, off loopback, needs a token "
            "that every request then bears (Authorization: Bearer …)"
        )
    return token or None


def bears(authorization: str | None, token: str) -> bool:
    """Whether an Authorization header carries the token."""
    scheme, _, given = (authorization or "").partition(" ")
    return scheme.lower() == "bearer" and same_token(given.strip(), token)


def same_token(given: str, token: str) -> bool:
    """The token compared in constant time (no timing says how much of it was right)."""
    return hmac.compare_digest(given.encode(), token.encode())


def protect(
    app: ASGIApp, token: str | None, public: tuple[str, ...] = (), admin: str | None = None
) -> ASGIApp:
    """The app itself when no token is required, else the app behind BearerAuth (which lets the
    administrators' token through too)."""
    return BearerAuth(app, token, public, admin) if token else app


def headers_bear(headers: list[tuple[bytes, bytes]], token: str | None) -> bool:
    """Whether a request's raw headers bear `token` (none set: no request bears it)."""
    if not token:
        return False
    found = next((value for key, value in headers if key.lower() == b"authorization"), b"")
    return bears(found.decode("latin-1"), token)


class BearerAuth:
    """ASGI middleware: refuse HTTP and WebSocket requests that do not bear the token, or the
    administrators' (401, JSON)."""

    def __init__(
        self, app: ASGIApp, token: str, public: tuple[str, ...] = (), admin: str | None = None
    ) -> None:
        self.app, self.token, self.public, self.admin = app, token, public, admin

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self._allowed(scope):
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
        else:
            await _refuse(send)

    def _allowed(self, scope: Scope) -> bool:
        path = str(scope.get("path", ""))
        if any(path == p or (p.endswith("*") and path.startswith(p[:-1])) for p in self.public):
            return True
        headers = dict(scope.get("headers") or [])
        header = headers.get(b"authorization", b"").decode("latin-1")
        return bears(header, self.token) or headers_bear(list(headers.items()), self.admin)


async def _refuse(send: Send) -> None:
    body = json.dumps(
        {"error": "unauthorized", "detail": "this server needs Authorization: Bearer <token>"}
    )
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")],
        }
    )
    await send({"type": "http.response.body", "body": body.encode()})
