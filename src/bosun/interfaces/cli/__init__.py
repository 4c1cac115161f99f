"""The `bosun` command."""

from __future__ import annotations

import json
import sys

import click

from bosun.errors import BosunError


def main() -> None:
    """Entry point: every deliberate error and usage mistake ends as one line, never a traceback.

    Usage mistakes and Bosun's errors exit with 2; with `--json` the error is a JSON object on stdout.
    """
    from bosun.interfaces.cli.app import app

    try:
        code = app(standalone_mode=False)
    except click.ClickException as exc:  # usage: a missing argument, an unknown option, a bad value
        _fail(exc.format_message(), exc.exit_code)
    except click.exceptions.Abort:
        sys.exit(130)
    except BosunError as exc:
        _fail(str(exc), 2)
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


def _fail(message: str, code: int) -> None:
    line = " ".join(message.split())
    if "--json" in sys.argv[1:]:
        print(json.dumps({"status": "failed", "error": line}, ensure_ascii=False))
    else:
        print(f"bosun: {line}", file=sys.stderr)
    sys.exit(code)
