"""Whose threads a request may list and read: its caller's own, or every one for an administrator.

With BOSUN_ENGINE_AUTH=caller each request queries the cluster with its caller's credential, so
each caller's answers hold what the cluster lets that caller read; a thread belongs to the caller
who made it and is listed, read, continued, renamed, deleted and marked only by that caller. A
caller is known by a digest of the credential (the credential itself is never stored): a new API
key, or a refreshed token, is a new caller with no threads yet.

In service mode every request queries with the same credentials, so the deployment's threads are
everyone's who may call it (Bosun's token, or anyone on loopback without one), as they were before
threads had owners; threads a caller made stay that caller's. Threads of a store made before
threads had owners belong to no caller: the deployment's, read in service mode, and in caller mode
by an administrator only.

An administrator bears BOSUN_ADMIN_TOKEN (`Authorization: Bearer …`) and lists and reads every
thread; in caller mode still with a cluster credential of their own for the data.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from fastapi import Request

from bosun.conversation.store import Origin, TurnStore
from bosun.engines.caller import credential
from bosun.errors import UnknownThread
from bosun.interfaces.callers import request_header
from bosun.interfaces.identity import identity
from bosun.settings import Settings

Headers = list[tuple[bytes, bytes]]


@dataclass(frozen=True)
class Requester:
    """Who asks: the owner of the threads they make (None: the deployment's own), and whether they
    may read every thread."""

    owner: str | None = None
    admin: bool = False

    def reads(self, owner: str | None) -> bool:
        return self.admin or owner == self.owner


def requester(headers: Headers, settings: Settings) -> Requester:
    """The requester a request's headers name; a caller's credential is checked as the caller
    middleware checks it (missing or malformed: Unauthorized)."""
    admin = identity(headers, settings).admin
    if settings.engine_auth != "caller":
        return Requester(None, admin)
    secret = credential(request_header(headers)).get_secret_value()
    return Requester("caller " + hashlib.sha256(secret.encode()).hexdigest()[:32], admin)


def dependency(settings: Settings) -> Callable[[Request], Requester]:
    """A FastAPI dependency giving each route its request's requester."""

    def of(request: Request) -> Requester:
        return requester(list(request.scope.get("headers") or []), settings)

    return of


def readable(store: TurnStore, thread_id: str, who: Requester) -> str:
    """The thread's id when it exists and `who` may read it; else UnknownThread, the same for a
    thread of another caller as for none, so that no one learns which ids others use."""
    exists, owner = store.owner(thread_id)
    if not exists or not who.reads(owner):
        raise UnknownThread(f"no thread {thread_id!r}")
    return thread_id


def threads(
    store: TurnStore, who: Requester, limit: int = 100, origin: Origin | None = None
) -> list[tuple[str, str, str]]:
    """(thread id, created, title) of the newest threads `who` may read, of one `origin` or all."""
    return store.threads(limit, who.owner, every=who.admin, origin=origin)


_CURRENT: ContextVar[Requester | None] = ContextVar("bosun_requester", default=None)


@contextmanager
def as_requester(who: Requester) -> Iterator[None]:
    """`who` asks inside (an MCP tool call, whose tools get no request of their own)."""
    token = _CURRENT.set(who)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def current() -> Requester:
    """The requester of the MCP call running; outside one (stdio, the CLI) the deployment's own."""
    return _CURRENT.get() or Requester()
