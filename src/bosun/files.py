"""Files under the data directory that turn out damaged: moved aside, never deleted nor silently
replaced."""

from __future__ import annotations

import time
from pathlib import Path


def move_aside(path: Path) -> Path:
    """Rename a damaged file (and its WAL companions) to `<name>.damaged-<time>`, keeping it for
    inspection."""
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    for suffix in ("", "-wal", "-shm", ".wal"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.rename(Path(f"{aside}{suffix}"))
    return aside
