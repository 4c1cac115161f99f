from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from bosun.conversation.session import Session
from tests.conftest import sample_session


@pytest.fixture(scope="session")
def data_dir(dev_data_dir: Path) -> Path:
    """The dev set's data, shared with every test that needs it (`dev_data_dir`)."""
    return dev_data_dir


@pytest.fixture
def session(data_dir: Path, tmp_path: Path) -> Iterator[Session]:
    """A session on the dev set's data with a conversation store of its own (a module may name
    its own `session`)."""
    yield from sample_session(data_dir, tmp_path)


@pytest.fixture(scope="module")
def gold(data_dir: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """The dev set's data, read-only, to check answers against SQL."""
    with duckdb.connect(str(data_dir / "bosun.duckdb"), read_only=True) as connection:
        yield connection
