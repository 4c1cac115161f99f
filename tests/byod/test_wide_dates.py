"""A file at the column limit with dates in it (issue #37 item 7): `data load` writes each date's
weekday and month beside it, so the index holds more fields than the file had columns; `catalog
init` counts the file's own columns against BOSUN_MAX_COLUMNS, so what loaded drafts (a 1,000-column
file with 166 dates was refused at 1,332 fields)."""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner

from bosun.interfaces.cli.app import app


def _file(path: Path, dates: int, numbers: int, rows: int = 40) -> Path:
    header = [*(f"shipped_{n}" for n in range(dates)), *(f"reading_{n}" for n in range(numbers))]
    lines = [
        ",".join(
            [
                *(f"2024-{1 + (r + n) % 12:02d}-{1 + r % 28:02d}" for n in range(dates)),
                *(str(r * 7 + n) for n in range(numbers)),
            ]
        )
        for r in range(rows)
    ]
    path.write_text("\n".join([",".join(header), *lines]) + "\n")
    return path


def test_a_file_at_the_column_limit_with_dates_loads_and_drafts(tmp_path: Path) -> None:
    env = {"BOSUN_DATA_DIR": str(tmp_path / "data"), "BOSUN_MAX_COLUMNS": "12"}
    wide = _file(tmp_path / "wide.csv", dates=4, numbers=8)
    loaded = CliRunner().invoke(app, ["data", "load", str(wide)], env=env)
    assert loaded.exit_code == 0, loaded.output
    out = tmp_path / "catalog.yaml"
    drafted = CliRunner().invoke(
        app, ["catalog", "init", "--index", "wide", "--out", str(out)], env=env
    )
    assert drafted.exit_code == 0, drafted.output
    fields = yaml.safe_load(out.read_text())["objects"]["wide"]["fields"]
    assert len(fields) == 12 + 4 * 2  # each date's weekday and month, derived at load
    assert fields["shipped_0_month"]["derived"] == {"part": "month", "of": "shipped_0"}


def test_an_index_past_the_limit_by_its_own_columns_is_still_refused(tmp_path: Path) -> None:
    env = {"BOSUN_DATA_DIR": str(tmp_path / "data")}
    wide = _file(tmp_path / "wide.csv", dates=4, numbers=8)
    assert CliRunner().invoke(app, ["data", "load", str(wide)], env=env).exit_code == 0
    drafted = CliRunner().invoke(
        app, ["catalog", "init", "--index", "wide"], env={**env, "BOSUN_MAX_COLUMNS": "11"}
    )
    assert drafted.exit_code != 0
    assert "index 'wide' has 12 fields, over the limit of 11" in str(drafted.exception)
