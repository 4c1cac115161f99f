"""Conversations in Postgres (checkpoints and turn summaries), on a throwaway server this test
starts."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bosun.conversation.session import open_session
from bosun.errors import StoreError
from bosun.settings import Settings
from tests.conftest import missing_system_part
from tests.engines.graphql_server import free_port


def _binary(name: str) -> str | None:
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))), None
    )
    return found


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if not (initdb and pg_ctl):
        missing_system_part("no PostgreSQL server binaries on this machine")
    folder = Path(tempfile.mkdtemp(prefix="bosun-pg-"))
    # the server refuses root
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_postgres:
        shutil.chown(folder, "postgres")
    port = free_port()
    data = folder / "data"
    subprocess.run(
        [*as_postgres, initdb, "-D", str(data), "-U", "bosun", "--auth=trust", "-E", "UTF8"],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            *as_postgres,
            pg_ctl,
            "-D",
            str(data),
            "-l",
            str(folder / "log"),
            "-w",
            "start",
            "-o",
            f"-p {port} -k {folder} -c listen_addresses=127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://bosun@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*as_postgres, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True
        )
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def settings(data_dir: Path, tmp_path: Path, postgres_url: str) -> Settings:
    (tmp_path / "bosun.duckdb").symlink_to(data_dir / "bosun.duckdb")
    return Settings(data_dir=tmp_path, checkpoint_url=postgres_url)


def test_a_thread_in_postgres_continues_after_a_restart(settings: Settings) -> None:
    session = open_session(settings)
    session.ask("How many shipments arrived in Savannah last month?", "pg-1")
    session.close()
    session = open_session(settings)
    answer = session.ask("and in Charleston?", "pg-1")
    assert answer.results[0].title.endswith("→ and in Charleston?")
    assert [t.turn_id for t in session.history("pg-1")] == [1, 2]
    assert not (settings.data_dir / "conversations.sqlite").exists()
    session.close()


def test_interrupt_mode_resumes_from_a_postgres_checkpoint(settings: Settings) -> None:
    pausing = settings.model_copy(update={"clarification_mode": "interrupt"})
    session = open_session(pausing)
    assert (
        session.ask("Show shipments from Acme Corp to Houston", "pg-2").status
        == "needs_clarification"
    )
    session.close()
    session = open_session(pausing)
    answer = session.ask("Acme Corp LLC", "pg-2")
    assert (
        answer.status == "done"
        and answer.results[0].title == "Show shipments from ACME CORP LLC to Houston"
    )
    session.close()


def test_an_unreachable_postgres_is_a_clear_error(data_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "bosun.duckdb").symlink_to(data_dir / "bosun.duckdb")
    url = f"postgresql://bosun:secret@127.0.0.1:{free_port()}/postgres"
    with pytest.raises(StoreError, match=r"cannot be used") as caught:
        open_session(Settings(data_dir=tmp_path, checkpoint_url=url))
    assert "secret" not in str(caught.value)


def test_a_store_made_before_threads_had_owners_gains_the_column_and_keeps_its_threads(
    data_dir: Path, tmp_path: Path, postgres_url: str
) -> None:
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute("CREATE DATABASE legacy")
    legacy = postgres_url.rsplit("/", 1)[0] + "/legacy"
    with psycopg.connect(legacy) as connection:
        connection.execute(
            "CREATE TABLE bosun_threads (thread_id TEXT PRIMARY KEY, created TEXT NOT NULL)"
        )
        connection.execute("INSERT INTO bosun_threads VALUES ('old', '2026-01-02T03:04:05+00:00')")
    (tmp_path / "bosun.duckdb").symlink_to(data_dir / "bosun.duckdb")
    for _ in range(2):  # the second opening finds the column there
        session = open_session(Settings(data_dir=tmp_path, checkpoint_url=legacy))
        assert session.store.threads() == [("old", "2026-01-02T03:04:05+00:00", "")]
        assert session.store.threads(owner="caller x") == []
        session.close()
