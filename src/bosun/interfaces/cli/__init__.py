"""The `bosun` command."""

from __future__ import annotations

import json
import sys

import click
import typer

from bosun.errors import BosunError
from bosun.interfaces.cli.process import Process


def main() -> None:
    """Entry point: every deliberate error and usage mistake ends as one line, never a traceback.

    Usage mistakes and Bosun's errors exit with 2; with `--json` the error is a JSON object on
    stdout.
    """
    from bosun.interfaces.cli.app import app

    Process.whole = True
    try:
        code = app(standalone_mode=False)
    # usage: a missing argument, an unknown option
    except (click.ClickException, typer.TyperException) as exc:
        if isinstance(exc, click.exceptions.Abort | typer.Abort):
            sys.exit(130)
        _fail(_usage_message(exc), int(getattr(exc, "exit_code", 2)))
    except BosunError as exc:
        _fail(str(exc), 2)
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


def _usage_message(exc: Exception) -> str:
    """Click's (or typer's vendored click's) own wording of a usage mistake."""
    format_message = getattr(exc, "format_message", None)
    return str(format_message()) if callable(format_message) else str(exc)


def _fail(message: str, code: int) -> None:
    line = " ".join(message.split())
    if not line:  # `bosun` alone: its help is printed already
        sys.exit(code)
    if "--json" in sys.argv[1:]:
        print(json.dumps({"status": "failed", "error": line}, ensure_ascii=False))
    else:
        print(f"bosun: {line}", file=sys.stderr)
    sys.exit(code)
