"""`python -m bosun.bench turns`: turns per second, memory over many turns, and bytes stored per
turn.

One process asks `--turns` questions (a rotation of simple questions, a few per thread) on the
sample at `--rows`, through a real session with its SQLite stores. It prints turns/s, resident
memory after the warm-up and at the end (growth should stay flat), and what the data directory's
stores grew by per turn (target: at most 20 KB).
"""

from __future__ import annotations

import argparse
import resource
import sqlite3
import tempfile
import time
from contextlib import closing
from datetime import date
from pathlib import Path

from bosun.catalog import load_catalog
from bosun.conversation.session import Session, open_session
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine
from bosun.settings import Settings

QUESTIONS = [
    "How many shipments arrived in Houston last month?",
    "and in Savannah?",
    "Top 5 shippers to Long Beach by TEU in 2025",
    "What is a TEU?",
    "Show Maersk shipments to Los Angeles",
]


def _rss_mb() -> float:
    """Resident memory now, in MB (Linux /proc; the peak elsewhere)."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _stored_bytes(folder: Path) -> int:
    """The stores' size as SQLite counts it (pages × page size, the write-ahead log's pages
    included).

    Not the files' sizes: a store's -wal file grows to about 4 MB and is then reused, whatever was
    stored.
    """
    total = 0
    for path in folder.glob("*.sqlite"):
        with closing(sqlite3.connect(path)) as conn:
            pages, size = (
                conn.execute(f"PRAGMA {name}").fetchone()[0] for name in ("page_count", "page_size")
            )
        total += pages * size
    return total


def _ask(session: Session, turn: int) -> None:
    session.ask(QUESTIONS[turn % len(QUESTIONS)], f"bench-{turn // len(QUESTIONS)}")


def run(rows: int, turns: int, warmup: int, folder: Path) -> None:
    engine = EmbeddedEngine(folder / "bosun.duckdb")
    build(engine, load_catalog(), rows, 42, date(2026, 6, 15))
    engine.close()
    session = open_session(Settings(data_dir=folder))
    for turn in range(warmup):
        _ask(session, turn)
    rss_start, bytes_start, started = _rss_mb(), _stored_bytes(folder), time.perf_counter()
    for turn in range(warmup, warmup + turns):
        _ask(session, turn)
    seconds = time.perf_counter() - started
    rss_end, bytes_end = _rss_mb(), _stored_bytes(folder)
    session.close()
    print(f"{turns:,} turns on {rows:,} rows: {turns / seconds:.1f} turns/s")
    print(
        f"resident memory after {warmup} warm-up turns {rss_start:.0f} MB, after {turns:,} more "
        f"{rss_end:.0f} MB "
        f"(growth {rss_end - rss_start:+.0f} MB)"
    )
    print(
        f"stores grew {bytes_end - bytes_start:,} bytes: "
        f"{(bytes_end - bytes_start) / turns / 1024:.1f} KB per turn "
        "(target <= 20 KB)"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bosun.bench turns", description=__doc__)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--turns", type=int, default=1_000)
    parser.add_argument("--warmup", type=int, default=50)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        run(args.rows, args.turns, args.warmup, Path(folder))
    return 0
