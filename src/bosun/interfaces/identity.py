"""Who a request is, for what the deployment keeps for everyone (a taught word, a mark) and what
only an administrator may do: its authenticated identity, never what its body says (issue #39).

- a request bearing the administrators' token (BOSUN_ADMIN_TOKEN) is `admin`, an administrator;
- a request bearing Bosun's token (BOSUN_API_TOKEN) is `api`;
- any other request is `local`: on loopback, where no token is asked, the person at this machine
  (and an MCP client over stdio, which the local user started);
- on the command line the local user, by their name, is the administrator of their deployment
  (`interfaces.cli.teach_cmd.who`).

`interfaces.auth` has already refused a request whose token is wrong where one is needed; here a
token is only named.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import Request

from bosun.interfaces.auth import headers_bear
from bosun.settings import Settings

Headers = list[tuple[bytes, bytes]]


@dataclass(frozen=True)
class Identity:
    """Who made something (`name`, recorded as its `by`), and whether they may teach anew a word
    that already means something."""

    name: str
    admin: bool = False


LOCAL = Identity("local")
API = Identity("api")
ADMIN = Identity("admin", admin=True)


def identity(headers: Headers, settings: Settings) -> Identity:
    """The identity a request's raw headers authenticate."""
    if headers_bear(headers, _secret(settings.admin_token)):
        return ADMIN
    if headers_bear(headers, _secret(settings.api_token)):
        return API
    return LOCAL


def dependency(settings: Settings) -> Callable[[Request], Identity]:
    """A FastAPI dependency giving a route its request's identity."""

    def of(request: Request) -> Identity:
        return identity(list(request.scope.get("headers") or []), settings)

    return of


def of_call(context: Any, settings: Settings) -> Identity:
    """The identity of an MCP tool call: its HTTP request's, or `local` over stdio (no request)."""
    try:
        request = getattr(getattr(context, "request_context", None), "request", None)
    except ValueError:  # a Context outside a call
        request = None
    if not isinstance(request, Request):
        return LOCAL
    return identity(list(request.scope.get("headers") or []), settings)


def _secret(value: Any) -> str | None:
    return value.get_secret_value() if value else None
