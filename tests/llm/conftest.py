from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bosun.interfaces.cli.app import app


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A small sample (5,000 shipments, seed 42, as of 2026-06-15) for the LLM paths' end-to-end
    tests."""
    folder = tmp_path_factory.mktemp("bosun-llm")
    result = CliRunner().invoke(
        app,
        ["data", "generate", "--rows", "5000", "--seed", "42", "--as-of", "2026-06-15"],
        env={"BOSUN_DATA_DIR": str(folder)},
    )
    assert result.exit_code == 0, result.output
    yield folder
