"""Damaged files under the data directory: detected on open, named, moved aside, and what to do
said."""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
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


def _block_of(path: Path, table: str, column: str) -> int:
    """Where in the file a column of a table keeps its first block of data (DuckDB: three headers
    of 4 KB, then blocks of the database's block size)."""
    with duckdb.connect(str(path), read_only=True) as con:
        size = con.execute("SELECT block_size FROM pragma_database_size()").fetchone()
        block = con.execute(
            f"SELECT min(block_id) FROM pragma_storage_info('{table}') "
            "WHERE column_name = ? AND block_id >= 0",
            [column],
        ).fetchone()
    assert size is not None and block is not None and block[0] is not None
    return 3 * 4096 + int(block[0]) * int(size[0])


def test_a_damaged_block_in_the_middle_is_noticed_before_an_answer(data_dir: Path) -> None:
    """A bad disk's stretch inside one column's data: the question below never reads that column,
    yet no answer comes from a damaged file; the first open after the file changed reads it all."""
    assert bosun(data_dir, "ask", QUESTION).returncode == 0
    path = data_dir / "bosun.duckdb"
    at = _block_of(path, "shipments", "product_description")
    with path.open("r+b") as file:
        file.seek(at + 1000)
        file.write(random.Random(3).randbytes(512))
    done = bosun(data_dir, "ask", QUESTION)
    line = _one_line(done.stderr)
    assert done.returncode == 2 and f"data file {path} is damaged" in line, line
    assert "bosun data load" in line and "moved to" in line, line
    assert list(data_dir.glob("bosun.duckdb.damaged-*"))


def test_a_file_checked_once_is_not_read_whole_again(data_dir: Path) -> None:
    path = data_dir / "bosun.duckdb"
    assert bosun(data_dir, "ask", QUESTION).returncode == 0
    checked = data_dir / "bosun.duckdb.checked"
    stamp = checked.read_text()
    assert bosun(data_dir, "ask", QUESTION).returncode == 0
    assert checked.read_text() == stamp and path.exists()
