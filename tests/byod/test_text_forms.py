"""`bosun data load` on a file as R's write.csv writes it: the row names it puts first are not a
field, and months written with their year ("Mar-2018") are dates, grouped by month with no weekday
of their own."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bosun.engines.embedded import EmbeddedEngine
from bosun.interfaces.cli.app import app

MONTHS = ["Jan-2018", "Feb-2018", "Mar-2018"]
R_EXPORT = '"","issue_month","code","amount"\n' + "".join(
    f'"{i}","{MONTHS[i % 3] if i % 7 else "NA"}","{1 + i % 3}-12",{i * 10}\n' for i in range(1, 61)
)


def _loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> tuple[str, dict[str, dict[str, str]]]:
    monkeypatch.setenv("BOSUN_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "loans.csv").write_text(text)
    result = CliRunner().invoke(app, ["data", "load", str(tmp_path / "loans.csv")])
    assert result.exit_code == 0, result.output
    engine = EmbeddedEngine(tmp_path / "data" / "bosun.duckdb", read_only=True)
    return result.output, engine.mapping("loans")["properties"]


def test_r_row_names_are_not_loaded_and_months_with_their_year_are_dates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said, properties = _loaded(tmp_path, monkeypatch, R_EXPORT)
    assert "column0" not in properties
    assert "numbers the rows 1 to 60 (R's row names): not loaded" in said
    assert properties["issue_month"] == {"type": "date"}
    assert 'months written with their year ("' in said
    assert "issue_month_month" in properties and "issue_month_weekday" not in properties
    assert properties["code"]["type"] == "keyword"  # "2-12" is no month of a year


def test_months_are_counted_on_the_first_day_and_na_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _loaded(tmp_path, monkeypatch, R_EXPORT)
    engine = EmbeddedEngine(tmp_path / "data" / "bosun.duckdb", read_only=True)
    body = {
        "size": 0,
        "aggs": {"m": {"date_histogram": {"field": "issue_month", "calendar_interval": "month"}}},
    }
    buckets = engine.search("loans", body)["aggregations"]["m"]["buckets"]
    dated = [i for i in range(1, 61) if i % 7]
    assert [(b["key_as_string"][:10], b["doc_count"]) for b in buckets] == [
        ("2018-01-01", sum(1 for i in dated if i % 3 == 0)),
        ("2018-02-01", sum(1 for i in dated if i % 3 == 1)),
        ("2018-03-01", sum(1 for i in dated if i % 3 == 2)),
    ]


def test_a_first_column_that_is_not_a_row_number_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = '"","amount"\n' + "".join(f'"{7 - i % 5}",{i}\n' for i in range(1, 21))
    _, properties = _loaded(tmp_path, monkeypatch, text)
    assert "column0" in properties
