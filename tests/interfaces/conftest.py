from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def data_dir(dev_data_dir: Path) -> Path:
    """The dev set's data, shared with every test that needs it (`dev_data_dir`)."""
    return dev_data_dir
