"""What the command line prints: text from data and questions without terminal control sequences."""

from __future__ import annotations

import re
import uuid
from datetime import date
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from bosun.settings import Settings

# ANSI CSI and OSC sequences, then any other C0/C1 control character except newline and tab
_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)


_SURROGATE = re.compile("[\ud800-\udfff]")  # how argv carries bytes that were not UTF-8


def printable(text: str) -> str:
    """`text` as safe to print: no escape sequences or control characters from data or questions."""
    return _CONTROL.sub("", text)


def day(text: str | None) -> date | None:
    """An --as-of value: a real calendar date written YYYY-MM-DD (a usage error otherwise)."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a date (YYYY-MM-DD)") from None


def thread_name(text: str | None) -> str | None:
    """A --thread value: text, not bytes that are not UTF-8 (a usage error: it names a
    conversation)."""
    if text is not None and _SURROGATE.search(text):
        raise typer.BadParameter("--thread is not valid UTF-8 text")
    return text


def new_thread() -> str:
    """A new conversation's id."""
    return uuid.uuid4().hex[:12]


def require_data(settings: Settings) -> None:
    """A command that asks the data refused, before it opens or writes anything, where the embedded
    engine has none yet (`MissingIndex`, whose message says how to get some)."""
    if settings.engine == "embedded" and not settings.duckdb_path.exists():
        from bosun.engines.factory import open_engine

        # refuses a database that does not exist, and says what to run
        open_engine(settings).close()
