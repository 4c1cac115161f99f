from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bosun.interfaces.cli.app import app


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The dev set's data: 50,000 shipments, seed 42, as of 2026-06-15, built once for every interface test."""
    folder = tmp_path_factory.mktemp("bosun")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOSUN_DATA_DIR", str(folder))
        result = CliRunner().invoke(app, ["data", "generate", "--rows", "50000", "--seed", "42",
                                          "--as-of", "2026-06-15"])
        assert result.exit_code == 0, result.output
        yield folder
