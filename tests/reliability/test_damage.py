"""Damaged files under the data directory: detected on open, named, moved aside, and what to do
said."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.reliability.conftest import bosun

QUESTION = "How many shipments arrived in Houston in 2025?"


def _scramble(path: Path, seed: int = 7, blocks: int = 40, within: int | None = None) -> None:
    """Overwrite random stretches of the file (of its first `within` bytes) past its header, as bad
    disks do."""
    size = min(path.stat().st_size, within or path.stat().st_size)
    chance = random.Random(seed)
    with path.open("r+b") as file:
        for _ in range(blocks):
            file.seek(chance.randrange(100, size - 64))
            file.write(bytes(chance.randrange(256) for _ in range(64)))


def _one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


@pytest.mark.parametrize(
    ("name", "damage"),
    [
        ("conversations.sqlite", "truncate"),
        ("checkpoints.sqlite", "scramble"),
        ("conversations.sqlite", "empty"),
        ("checkpoints.sqlite", "empty"),
    ],
)
def test_a_damaged_store_is_named_moved_aside_and_the_next_run_starts_afresh(
    data_dir: Path, name: str, damage: str
) -> None:
    assert bosun(data_dir, "ask", QUESTION, "--thread", "a").returncode == 0
    path = data_dir / name
    original = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(original[: len(original) // 2 + 100])
    # SQLite reads a zero-byte file as a new database: the turns would be lost unsaid
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        # the first page, which holds the schema: damage a store cannot ignore
        _scramble(path, within=4096)
    damaged = path.read_bytes()

    done = bosun(data_dir, "ask", QUESTION, "--thread", "a")
    line = _one_line(done.stderr)
    assert done.returncode == 2 and f"{path} is damaged" in line and "moved to" in line, line
    (aside,) = [
        p for p in data_dir.glob(f"{name}.damaged-*") if not p.name.endswith(("-wal", "-shm"))
    ]
    assert aside.read_bytes() == damaged
    assert bosun(data_dir, "ask", QUESTION, "--thread", "a").returncode == 0


def test_a_damaged_engine_file_is_named_moved_aside_with_how_to_rebuild(data_dir: Path) -> None:
    path = data_dir / "bosun.duckdb"
    _scramble(path, blocks=200)
    done = bosun(data_dir, "ask", QUESTION)
    line = _one_line(done.stderr)
    assert done.returncode == 2 and f"data file {path}" in line and "bosun data generate" in line, (
        line
    )
    assert "moved to" in line and list(data_dir.glob("bosun.duckdb.damaged-*"))
