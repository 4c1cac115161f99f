"""`python -m bosun.bench NAME [ARGS]` runs bosun.bench.NAME.main(ARGS)."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bosun.bench


def _available() -> list[str]:
    return sorted(
        m.name for m in pkgutil.iter_modules(bosun.bench.__path__) if not m.name.startswith("_")
    )


def main(argv: list[str]) -> int:
    names = _available()
    if not argv or argv[0] not in names:
        print(f"usage: python -m bosun.bench {{{','.join(names)}}} [ARGS]", file=sys.stderr)
        return 2
    module = importlib.import_module(f"bosun.bench.{argv[0]}")
    result: int = module.main(argv[1:])
    return result


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
