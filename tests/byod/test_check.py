"""`bosun catalog check` lists every problem with its key path; `ask` refuses a broken catalog with
that list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from bosun.catalog import bundled_catalog_path
from bosun.errors import CatalogError
from bosun.interfaces.cli.app import app

SMALL = {
    "domain": "orders",
    "description": "d",
    "record": "orders",
    "objects": {
        "orders": {
            "kind": "record",
            "index": "orders",
            "description": "d",
            "id_field": "order_id",
            "fields": {
                "order_id": {"type": "keyword", "description": "d"},
                "placed": {"type": "date", "description": "d"},
            },
        }
    },
    "measures": {"orders": {"agg": "count", "words": ["orders"], "label": "orders"}},
    "time": {"default_field": "placed", "fields": {"placed": []}},
    "defaults": {"measure": "orders"},
}


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BOSUN_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "orders.csv").write_text("order_id,placed\nA1,2024-01-02\nA2,2024-02-03\n")
    assert CliRunner().invoke(app, ["data", "load", str(tmp_path / "orders.csv")]).exit_code == 0
    return tmp_path / "data"


def _write(tmp_path: Path, catalog: dict[str, object]) -> Path:
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(catalog))
    return path


def test_the_bundled_catalog_has_no_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOSUN_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(app, ["catalog", "check", str(bundled_catalog_path())])
    assert result.exit_code == 0, result.output
    assert "no problems" in result.output


def test_every_validation_problem_is_listed_with_its_key_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOSUN_DATA_DIR", str(tmp_path))
    broken = {
        **SMALL,
        "defaults": {"measure": "nope", "top_n": "many"},
        "time": {"default_field": "placed"},
    }
    result = CliRunner().invoke(app, ["catalog", "check", str(_write(tmp_path, broken))])
    assert result.exit_code == 1
    assert "time.fields: Field required" in result.output
    assert "defaults.top_n: Input should be a valid integer" in result.output


def test_no_object_with_an_id_field_is_named_instead_of_a_graphql_traceback(
    tmp_path: Path, data_dir: Path
) -> None:
    objects = {"orders": {**SMALL["objects"]["orders"], "id_field": None}}  # type: ignore[index]
    path = _write(tmp_path, {**SMALL, "objects": objects})
    result = CliRunner().invoke(app, ["catalog", "check", str(path)])
    assert result.exit_code == 1
    assert "objects: no object has an id_field" in result.output
    asked = CliRunner().invoke(app, ["ask", "how many orders?"], env={"BOSUN_CATALOG": str(path)})
    assert isinstance(asked.exception, CatalogError)
    assert "objects: no object has an id_field" in str(asked.exception)


def test_fields_missing_from_the_index_and_unreadable_references_are_listed(
    tmp_path: Path, data_dir: Path
) -> None:
    objects = {
        "orders": {**SMALL["objects"]["orders"]},  # type: ignore[dict-item]
        "shops": {
            "kind": "reference",
            "index": "shops",
            "description": "d",
            "id_field": "shop",
            "fields": {"shop": {"type": "keyword", "description": "d"}},
        },
    }
    objects["orders"]["fields"] = {
        **objects["orders"]["fields"],
        "amount": {"type": "double", "description": "d"},
    }
    entities = {
        "shop": {"object": "shops", "name_field": "shop", "targets": [{"field": "order_id"}]}
    }
    path = _write(tmp_path, {**SMALL, "objects": objects, "entities": entities})
    result = CliRunner().invoke(app, ["catalog", "check", str(path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert "objects.orders.fields.amount: not in index 'orders'" in lines
    assert "objects.shops.index: no index 'shops' in the engine" in lines
    assert any(line.startswith("entities.shop.object: its rows cannot be read") for line in lines)


def test_a_sound_drafted_catalog_answers(tmp_path: Path, data_dir: Path) -> None:
    path = tmp_path / "draft.yaml"
    assert (
        CliRunner()
        .invoke(app, ["catalog", "init", "--index", "orders", "--out", str(path)])
        .exit_code
        == 0
    )
    assert CliRunner().invoke(app, ["catalog", "check", str(path)]).exit_code == 0
    asked = CliRunner().invoke(
        app, ["ask", "how many orders in 2024?", "--json"], env={"BOSUN_CATALOG": str(path)}
    )
    assert asked.exit_code == 0, asked.output
    result = json.loads(asked.output)["results"][0]
    assert result["rows"] == [[2]]


def test_likely_mistakes_are_warned_and_the_catalog_still_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sum over an id-like column and a column of numbers loaded as text: said, with what to do;
    exit 0."""
    monkeypatch.setenv("BOSUN_DATA_DIR", str(tmp_path / "data"))
    rows = [f"A{i},2024-01-{1 + i % 28:02d},{i % 7},{10 + i * 1.5:.2f}" for i in range(40)]
    # one word the loader does not know as missing: the column stays text
    rows[3] = "A3,2024-01-04,3,unknown"
    (tmp_path / "orders.csv").write_text(
        "order_id,placed,store_id,amount\n" + "\n".join(rows) + "\n"
    )
    assert CliRunner().invoke(app, ["data", "load", str(tmp_path / "orders.csv")]).exit_code == 0
    fields = {
        **SMALL["objects"]["orders"]["fields"],  # type: ignore[index]
        "store_id": {"type": "integer", "description": "d"},
        "amount": {"type": "keyword", "description": "d"},
    }
    objects = {"orders": {**SMALL["objects"]["orders"], "fields": fields}}  # type: ignore[dict-item]
    measures = {
        **SMALL["measures"],
        "stores": {
            "agg": "sum",
            "field": "store_id",
            "words": ["stores"],  # type: ignore[dict-item]
            "label": "total store id",
        },
    }
    result = CliRunner().invoke(
        app,
        [
            "catalog",
            "check",
            str(_write(tmp_path, {**SMALL, "objects": objects, "measures": measures})),
        ],
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert (
        "warning: measures.stores: sums store_id, an id-like column: ids are counted (agg: "
        "cardinality), "
        "never summed"
    ) in lines
    assert (
        "warning: objects.orders.fields.amount: keyword, but 39 of its 40 values are numbers "
        "('unknown' is "
        "not): a numeric column loaded as text? a missing-value word the loader does not know "
        "keeps it text"
    ) in lines
    assert lines[-1].endswith("no problems (2 warnings)")
