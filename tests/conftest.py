"""Every test: no connection leaves this machine, so no test can reach a real chat model (or any
host).

Loopback (the tests' own servers, osmem, PostgreSQL) and Unix sockets stay open.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import socket
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock
from typer.testing import CliRunner

from bosun.catalog import load_catalog
from bosun.conversation.session import Session, open_session
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine
from bosun.interfaces.cli.app import app
from bosun.settings import Settings

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)

_connect = socket.socket.connect


def missing_system_part(reason: str) -> None:
    """Skip a test whose system part (chromium, a PostgreSQL server, axe-core) this machine lacks;
    CI sets BOSUN_REQUIRE_SYSTEM_TESTS=1, and there the lack is a failure, not a silent skip."""
    if os.environ.get("BOSUN_REQUIRE_SYSTEM_TESTS") == "1":
        pytest.fail(f"{reason}, and CI requires these tests to run")
    pytest.skip(reason)


def _loopback(address: Any) -> bool:
    if not isinstance(address, tuple):
        return True  # a Unix socket path
    host = str(address[0])
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _guarded_connect(self: socket.socket, address: Any) -> Any:
    if not _loopback(address):
        raise ConnectionRefusedError(
            f"tests may not connect to {address!r}: real model calls are blocked"
        )
    return _connect(self, address)


@pytest.fixture(autouse=True)
def _no_remote_hosts(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "OLLAMA_HOST"):
        monkeypatch.delenv(key, raising=False)
    yield


def built_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]
) -> Path:
    """A folder of this process's own that `build(folder)` filled, built once per test run: under
    pytest-xdist the first worker to ask builds it under a file lock in the run's shared temp folder,
    and every worker (that one too) gets a copy, so no test sees what another worker's tests wrote
    there. For a session fixture whose data costs seconds to build."""
    own = tmp_path_factory.mktemp(name)
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        build(own)
        return own
    shared = tmp_path_factory.getbasetemp().parent / name
    built = shared.with_name(f"{name}.built")
    with FileLock(shared.with_name(f"{name}.lock")):
        if not built.exists():
            shutil.rmtree(shared, ignore_errors=True)
            shared.mkdir()
            build(shared)
            built.touch()
    shutil.copytree(shared, own, dirs_exist_ok=True)
    return own


def _generate_dev_data(folder: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["data", "generate", "--rows", "50000", "--seed", "42", "--as-of", "2026-06-15"],
        env={"BOSUN_DATA_DIR": str(folder)},
    )
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="session")
def dev_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The dev set's data: 50,000 shipments, seed 42, as of 2026-06-15, built once for every test
    that asks it; BOSUN_DATA_DIR names it from then on."""
    folder = built_once(tmp_path_factory, "bosun-dev", _generate_dev_data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOSUN_DATA_DIR", str(folder))
        yield folder


def sample_engine(rows: int) -> Iterator[EmbeddedEngine]:
    """The maritime sample at `rows` rows (seed 42, as of 2026-06-15) in an in-memory embedded
    engine whose clock stands at noon that day; for a fixture to yield from."""
    engine = EmbeddedEngine(clock=lambda: NOW)
    build(engine, load_catalog(), rows, 42, date(2026, 6, 15))
    yield engine
    engine.close()


def sample_session(data_dir: Path, folder: Path) -> Iterator[Session]:
    """A session on the shared sample data (`data_dir`) with its own conversation store and
    checkpoints in `folder`; for a fixture to yield from."""
    (folder / "bosun.duckdb").symlink_to(data_dir / "bosun.duckdb")
    opened = open_session(Settings(data_dir=folder))
    yield opened
    opened.close()
