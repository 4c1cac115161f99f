from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from bosun.catalog import bundled_catalog_path, load_catalog
from bosun.errors import CatalogError
from bosun.interfaces.cli.app import app


def _broken(tmp_path: Path, change: str, value: object) -> Path:
    raw = yaml.safe_load(bundled_catalog_path().read_text())
    node = raw
    *parents, last = change.split(".")
    for key in parents:
        node = node[key]
    node[last] = value
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


@pytest.mark.parametrize(
    ("change", "value", "message"),
    [
        (
            "objects.shipments.fields.teu.role",
            "amount",
            r"objects\.shipments\.fields\.teu\.role: Input should be",
        ),
        ("objects.shipments.fields.teu.type", "bignum", r"objects\.shipments\.fields\.teu\.type"),
        ("measures.volume.field", "teus", r"measures: 'teus' is not a field of shipments"),
        ("time.default_field", "landed_on", r"'landed_on' is not a field of shipments"),
        ("defaults.measure", "speed", r"defaults\.measure: 'speed' is not one of the measures"),
        ("defaults.bound_field", "age", r"defaults: 'age' is not a field of shipments"),
        (
            "objects.shipments.colour",
            "blue",
            r"objects\.shipments\.colour: Extra inputs are not permitted",
        ),
        (
            "measures.held_share.share",
            {"state_of_box": ["held"]},
            r"measures\.held_share\.share: 'state_of_box' is not a field of shipments",
        ),
        (
            "measures.held_share.share",
            {"status": ["lost"]},
            r"measures\.held_share\.share\.status: \['lost'\] not among",
        ),
    ],
)
def test_validation_errors_name_the_key(
    tmp_path: Path, change: str, value: object, message: str
) -> None:
    with pytest.raises(CatalogError, match=message):
        load_catalog(_broken(tmp_path, change, value))


def test_unreadable_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="cannot read catalog"):
        load_catalog(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("objects: [unclosed")
    with pytest.raises(CatalogError, match="not valid YAML"):
        load_catalog(bad)


def test_bundled_catalog_knows_the_contract_words() -> None:
    catalog = load_catalog()
    spec = catalog.spec
    assert spec.measures["volume"].field == "teu" and spec.measures["volume"].assumption
    assert spec.measures["transit_time"].agg == "avg"
    assert (
        "shipped" in spec.time.fields["departure_date"]
        and "expected" in spec.time.fields["eta_date"]
    )
    assert catalog.mapping_for("shipments")["properties"]["shipper_name"] == {
        "type": "keyword",
        "fields": {"text": {"type": "text"}},
    }
    assert "bill of lading" in catalog.glossary
    assert catalog.allowed_indices() == [
        "carriers",
        "commodities",
        "companies",
        "glossary",
        "ports",
        "shipments",
        "vessels",
    ]


def test_show_prints_objects_entities_and_measures() -> None:
    result = CliRunner().invoke(app, ["catalog", "show"])
    assert result.exit_code == 0
    for expected in (
        "shipments",
        "carrier_name",
        "entities",
        "port_of_unlading",
        "measures",
        "sum(teu)",
    ):
        assert expected in result.output


def test_init_drafts_a_loadable_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOSUN_DATA_DIR", str(tmp_path / "data"))
    runner = CliRunner()
    assert (
        runner.invoke(app, ["data", "generate", "--rows", "500", "--as-of", "2026-06-15"]).exit_code
        == 0
    )
    out = tmp_path / "draft.yaml"
    result = runner.invoke(app, ["catalog", "init", "--index", "shipments", "--out", str(out)])
    assert result.exit_code == 0, result.output
    draft = load_catalog(out)
    fields = draft.record.fields
    assert fields["status"].role == "dimension" and set(fields["status"].values) == {
        "arrived",
        "in_transit",
        "held",
    }
    assert fields["teu"].role == "measure" and fields["arrival_date"].role == "date"
    assert fields["bol_number"].role == "identifier"
