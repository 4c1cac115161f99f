"""Issue 34 end to end, through `bosun ask --json`: a level (a duration per record, a rate, a price)
is never summed into a total, and a measure the data lacks is refused naming the closest it has;
neither is answered with a figure or a bare list."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bosun.catalog import load_catalog
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine
from bosun.interfaces.cli.app import app

SHOP = Path(__file__).parents[1] / "domains" / "shop" / "catalog.yaml"


def ask(data_dir: Path, question: str, catalog: Path | None = None) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOSUN_DATA_DIR", str(data_dir))
        if catalog is not None:
            patch.setenv("BOSUN_CATALOG", str(catalog))
        result = CliRunner().invoke(app, ["ask", question, "--json"])
    answer: dict[str, Any] = json.loads(result.output)
    assert result.exit_code == (1 if answer["status"] == "failed" else 0), result.output
    return answer


def refused_before_any_query(answer: dict[str, Any]) -> str:
    """The refusal's text, once it is clear nothing was queried or shown."""
    assert answer["status"] == "failed" and answer["results"] == []
    steps = answer["trace"]["sub_goals"]
    assert [(s["worker"], s["status"]) for s in steps] == [("metadata_lookup", "failed")]
    assert steps[0]["error"] in answer["answer"]
    text: str = answer["answer"]
    return text


@pytest.fixture(scope="module")
def shop_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("shop-levels")
    engine = EmbeddedEngine(folder / "bosun.duckdb")
    build(engine, load_catalog(SHOP), 3000, 11, date(2026, 6, 15))
    engine.close()
    return folder


def test_a_total_of_a_level_is_the_level_as_the_catalog_measures_it(data_dir: Path) -> None:
    total = ask(data_dir, "total transit time for Maersk into Savannah in 2025")
    average = ask(data_dir, "average transit time for Maersk into Savannah in 2025")
    assert total["status"] == "done" and total["not_understood"] == []
    assert total["results"][0]["columns"] == ["average transit days"]
    assert total["results"][0]["rows"] == average["results"][0]["rows"]
    # a total was asked and none is shown: the answer says it read the average (issue 37)
    said = "“total transit time” read as the average transit days"
    assert any(a.startswith(said) for a in total["assumptions"]), total["assumptions"]
    assert not any(said in a for a in average["assumptions"])


@pytest.mark.parametrize(
    ("question", "asked", "instead"),
    [
        ("sum of transit days for Maersk into Savannah", "transit days", "average transit days"),
        ("add up the hold rates of all ports", "hold rates", "share held"),
        (
            "running total of average transit time by month in 2025",
            "average transit days",
            "average transit days",
        ),
        ("total vessel capacity of shipments into Savannah", "vessel capacity", "volume (TEU)"),
    ],
)
def test_a_sum_of_a_level_is_refused_saying_what_the_data_has(
    data_dir: Path, question: str, asked: str, instead: str
) -> None:
    text = refused_before_any_query(ask(data_dir, question))
    assert f"The data has no total of “{asked}”" in text
    assert "never added up" in text
    assert f"It has {instead}" in text


def test_a_total_of_a_price_per_unit_is_refused(shop_dir: Path) -> None:
    text = refused_before_any_query(ask(shop_dir, "total unit price of kitchen products", SHOP))
    assert "The data has no total of “unit price”" in text
    assert "It has revenue (USD) or average order value (USD) instead." in text


@pytest.mark.parametrize(
    ("question", "missing", "closest"),
    [
        ("revenue by carrier", "revenue", "Did you mean declared value (USD)?"),
        ("top carriers by revenue in 2025", "revenue", "Did you mean declared value (USD)?"),
        ("what's the weather in Busan", "weather", None),
        ("average delay of Maersk shipments", "delay", "Did you mean average transit days?"),
    ],
)
def test_a_measure_the_data_lacks_is_refused_not_listed(
    data_dir: Path, question: str, missing: str, closest: str | None
) -> None:
    text = refused_before_any_query(ask(data_dir, question))
    assert f"The data holds no “{missing}”" in text
    assert (closest in text) if closest else "Did you mean" not in text


def test_a_known_measure_by_a_dimension_the_data_lacks_is_answered_and_flagged(
    data_dir: Path,
) -> None:
    answer = ask(data_dir, "TEU by terminal at Los Angeles")
    assert answer["status"] == "done" and answer["not_understood"] == ["terminal"]
    assert answer["answer"].startswith("I did not understand “terminal”")
