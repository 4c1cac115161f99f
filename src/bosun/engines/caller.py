"""The caller's own cluster credentials: with BOSUN_ENGINE_AUTH=caller, a server runs each request's
queries with the credentials its caller sent, so that the cluster's document- and field-level
security decides what each person sees.

A credential lives in a context variable for the length of one request, so concurrent requests each
see their own. A thread sees it only when started in the request's context: anyio's worker threads
and LangGraph's executor copy the context, and Bosun's own pools submit through
`contextvars.copy_context`. It is held as a SecretStr (no repr, log line or trace shows it) and
never written anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from pydantic import SecretStr

from bosun.errors import Unauthorized

HEADER = "X-Bosun-Engine-Authorization"
MISSING = (
    f"this server queries the cluster with each caller's own credentials: send {HEADER}: "
    "ApiKey <key> (or Bearer <token>)"
)
_SCHEMES = {"apikey": "ApiKey", "bearer": "Bearer"}
_TOKEN = re.compile(r"[A-Za-z0-9._~+/=:-]{1,4096}")  # base64, JWT and RFC 7235 token68 characters
_CALLER: ContextVar[SecretStr | None] = ContextVar("bosun_engine_caller", default=None)


def credential(header: str | None) -> SecretStr:
    """The Authorization value to send the cluster, from the caller's header; missing or malformed:
    Unauthorized."""
    if not header or not header.strip():
        raise Unauthorized(MISSING)
    scheme, _, token = header.strip().partition(" ")
    name = _SCHEMES.get(scheme.lower())
    # the message never quotes what was sent
    if name is None or not _TOKEN.fullmatch(token.strip()):
        raise Unauthorized(f"{HEADER} must be `ApiKey <key>` or `Bearer <token>`")
    return SecretStr(f"{name} {token.strip()}")


@contextmanager
def as_caller(secret: SecretStr) -> Iterator[None]:
    """The cluster is queried with `secret` inside (in this context and the threads started from
    it)."""
    token = _CALLER.set(secret)
    try:
        yield
    finally:
        _CALLER.reset(token)


def caller() -> SecretStr | None:
    """The current request's credential, or None outside a caller's request."""
    return _CALLER.get()


def caller_secrets() -> list[str]:
    """The current credential's secret parts, to mask in anything shown or kept: the whole value and
    its token."""
    secret = caller()
    if secret is None:
        return []
    whole = secret.get_secret_value()
    return [whole, whole.partition(" ")[2]]
