"""A full disk and a read-only data directory: said with where, and a question still answered,
unsaved.

On a machine that lets the tests mount a small tmpfs, the disk is really filled and really remounted
read-only; everywhere, SQLite itself is made to hit the same errors (max_page_count for a full disk,
query_only for a read-only file) in a running session.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bosun.conversation.session import Session, open_session
from bosun.settings import Settings
from tests.reliability.conftest import bosun

QUESTION = "How many shipments arrived in Houston in 2025?"


@pytest.fixture
def session(data_dir: Path) -> Iterator[Session]:
    opened = open_session(Settings(data_dir=data_dir))
    yield opened
    opened.close()


def _connections(session: Session) -> list[sqlite3.Connection]:
    return [session.graph.checkpointer.conn, session.store._conn]


def _pages(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA page_count").fetchone()[0])


@pytest.mark.parametrize(
    ("pragma", "said"),
    [
        ("max_page_count", "is full: free space there or set BOSUN_DATA_DIR"),
        ("query_only", "cannot be written (read-only?)"),
    ],
)
def test_a_store_that_stops_taking_writes_still_answers_and_says_not_saved(
    session: Session, data_dir: Path, pragma: str, said: str
) -> None:
    first = session.ask(QUESTION, "t")
    assert first.status == "done" and "Not saved" not in first.answer
    for conn in _connections(session):
        if pragma == "max_page_count":
            conn.execute("VACUUM")  # no free page left inside the file either: full means full
        value = _pages(conn) if pragma == "max_page_count" else "ON"
        conn.execute(f"PRAGMA {pragma} = {value}")
    second = session.ask("How many shipments arrived in Savannah in 2025?", "t")
    assert second.status == "done" and second.results
    assert (
        "(Not saved: the" in second.answer
        and str(data_dir) in second.answer
        and said in second.answer
    )
    assert [t.human_message for t in session.history("t")] == [QUESTION]


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 6 MB tmpfs, where this machine lets the tests mount one."""
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode:
        pytest.skip(
            "mounting a tmpfs is not permitted here; the SQLite-level test above covers the path"
        )
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def test_a_read_only_data_directory_still_answers_and_says_where(
    tmpfs: Path, sample_dir: Path
) -> None:
    shutil.copy(sample_dir / "bosun.duckdb", tmpfs / "bosun.duckdb")
    assert bosun(tmpfs, "ask", QUESTION, "--thread", "r").returncode == 0
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    done = bosun(tmpfs, "ask", "How many shipments arrived in Savannah in 2025?", "--thread", "r")
    text = " ".join(done.stdout.split())
    assert done.returncode == 0, done.stderr
    assert (
        "Not saved: the" in text and "cannot be written (read-only?)" in text and str(tmpfs) in text
    )


def test_a_full_disk_still_answers_and_says_where(tmpfs: Path, sample_dir: Path) -> None:
    shutil.copy(sample_dir / "bosun.duckdb", tmpfs / "bosun.duckdb")
    assert bosun(tmpfs, "ask", QUESTION, "--thread", "f").returncode == 0
    filler = tmpfs / "filler"
    # unbuffered: a write the disk half takes leaves nothing for closing the file to fail on
    with filler.open("wb", buffering=0) as file, pytest.raises(OSError):
        while True:
            file.write(b"\0" * 65536)
    done = bosun(tmpfs, "ask", "How many shipments arrived in Savannah in 2025?", "--thread", "f")
    text = " ".join(done.stdout.split())
    assert done.returncode == 0, done.stderr
    assert "Not saved: the" in text and "is full" in text and str(tmpfs) in text
