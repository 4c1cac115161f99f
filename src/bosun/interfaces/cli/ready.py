"""What `bosun serve` says while it starts: "starting …" at once, "ready at http://…" once it
answers.

Opening the session and starting the worker processes take seconds; a thread asks /health until the
server answers (any HTTP status: a token required off loopback, or an engine down, still means it
serves), then says where it is.
"""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request

import typer

POLL_SECONDS = 0.2
# a server listening on every interface is asked on loopback
_LOOPBACK = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}


def say_starting() -> None:
    typer.echo("starting …")


def say_when_ready(host: str, port: int, extra: str) -> threading.Thread:
    """Say "ready at http://HOST:PORT/ (…`extra`…)" once /health answers, from a daemon thread that
    asks it every POLL_SECONDS (it ends with the process, should the server never answer)."""
    said = f"ready at {_url(host, port)}/ (API docs at /docs, MCP at /mcp{extra}; Ctrl-C to stop)"
    health = f"{_url(_LOOPBACK.get(host, host), port)}/health"
    thread = threading.Thread(target=_announce, args=(health, said), daemon=True)
    thread.start()
    return thread


def _announce(health: str, said: str) -> None:
    while not answers(health):
        time.sleep(POLL_SECONDS)
    typer.echo(said)


def answers(url: str) -> bool:
    """Whether a server answers `url` over HTTP, whatever its status."""
    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except urllib.error.HTTPError:
        return True
    except (urllib.error.URLError, OSError):  # not listening yet, or not accepting
        return False


def _url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"
