"""The `bosun` command."""

from __future__ import annotations

import sys

from bosun.errors import BosunError


def main() -> None:
    """Entry point: every deliberate error ends as one line on stderr, never a traceback."""
    from bosun.interfaces.cli.app import app

    try:
        app(standalone_mode=False)
    except BosunError as exc:
        print(f"bosun: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
