"""The sample domain: deterministic, loaded everywhere, true to DATA_CONTRACT §1."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from bosun.catalog import Catalog, load_catalog
from bosun.datagen.generator import generate_records
from bosun.datagen.load import build, generator_spec_for, read_sample_info
from bosun.engines.embedded import EmbeddedEngine
from bosun.interfaces.cli.app import app

AS_OF = date(2026, 6, 15)
SHOP = Path(__file__).parents[1] / "domains" / "shop" / "catalog.yaml"


@pytest.fixture(scope="module")
def shipments() -> Iterator[duckdb.DuckDBPyConnection]:
    catalog = load_catalog()
    con = duckdb.connect()
    con.register(
        "generated", generate_records(generator_spec_for(catalog), catalog, 50_000, 42, AS_OF)
    )
    con.execute("CREATE TABLE s AS SELECT * FROM generated")
    for name in ("carriers", "vessels", "ports", "companies", "commodities"):
        con.register(f"ref_{name}", catalog.reference_table(name))
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM ref_{name}")
    yield con


def one(con: duckdb.DuckDBPyConnection, sql: str) -> object:
    row = con.execute(sql).fetchone()
    assert row is not None
    return row[0]


def test_every_reference_entity_appears(shipments: duckdb.DuckDBPyConnection) -> None:
    for table, key, field in [
        ("carriers", "carrier_name", "carrier_name"),
        ("vessels", "vessel_name", "vessel_name"),
        ("ports", "port_name", "port_of_unlading"),
        ("commodities", "hs_code", "hs_code"),
    ]:
        extra = " WHERE region <> 'us'" if table == "ports" else ""
        if table == "ports":
            missing = one(
                shipments,
                "SELECT count(*) FROM ports WHERE port_name NOT IN "
                "(SELECT port_of_lading FROM s UNION SELECT port_of_unlading FROM s)",
            )
        else:
            missing = one(
                shipments,
                f"SELECT count(*) FROM {table}{extra} WHERE {key} NOT IN (SELECT {field} FROM s)",
            )
        assert missing == 0, table
    assert (
        one(
            shipments,
            "SELECT count(*) FROM companies WHERE company_name NOT IN "
            "(SELECT shipper_name FROM s UNION SELECT consignee_name FROM s)",
        )
        == 0
    )
    fewest = one(shipments, "SELECT min(c) FROM (SELECT count(*) c FROM s GROUP BY vessel_name)")
    assert isinstance(fewest, int) and fewest >= 3


def test_contract_rules_hold(shipments: duckdb.DuckDBPyConnection) -> None:
    checks = {
        "bol unique and SCAC + 10 "
        "digits": "SELECT count(*) = count(DISTINCT bol_number) AND bool_and("
        "regexp_full_match(bol_number, carrier_scac || '[0-9]{10}')) FROM s",
        "departures span 24 months to as-of": "SELECT min(departure_date) >= DATE '2024-06-16' AND "
        "max(departure_date) <= DATE '2026-06-15' FROM s",
        "in transit has no "
        "arrival": "SELECT bool_and((status = 'in_transit') = (arrival_date IS NULL)) FROM s",
        "transit = arrival - "
        "departure": "SELECT bool_and(transit_days = arrival_date - departure_date) FROM s "
        "WHERE arrival_date IS NOT NULL",
        "held about 2 % of "
        "arrived": "SELECT avg(CASE WHEN status='held' THEN 1 ELSE 0 END) BETWEEN 0.01 AND 0.03 "
        "FROM s WHERE status <> 'in_transit'",
        "teu = count x "
        "size": "SELECT bool_and(teu = container_count * CASE WHEN container_type LIKE '20%' "
        "THEN 1 ELSE 2 END) FROM s",
        "reefer goods in reefer "
        "boxes": "SELECT bool_and((container_type LIKE '%RF') = c.reefer) FROM s "
        "JOIN commodities c USING (hs_code)",
        "shipper ships own goods from own "
        "country": "SELECT bool_and(contains('|' || co.commodities || '|', "
        "'|' || s.commodity || '|') AND co.country = s.lading_country) FROM s "
        "JOIN companies co ON co.company_name = s.shipper_name",
        "vessel of the carrier": "SELECT bool_and(v.carrier_name = s.carrier_name) FROM s "
        "JOIN vessels v USING (vessel_name)",
        "Asia mostly to the west "
        "coast": "SELECT avg(CASE WHEN u.us_coast = 'west' THEN 1 ELSE 0 END) > 0.6 FROM s "
        "JOIN ports l ON l.port_name = s.port_of_lading JOIN ports u ON u.port_name = "
        "s.port_of_unlading "
        "WHERE l.region = 'asia'",
        "Europe mostly to east and "
        "gulf": "SELECT avg(CASE WHEN u.us_coast IN ('east','gulf') THEN 1 ELSE 0 END) > 0.7 "
        "FROM s JOIN ports l ON l.port_name = s.port_of_lading JOIN ports u ON u.port_name = "
        "s.port_of_unlading "
        "WHERE l.region = 'europe'",
        "Asia to west coast in 12-20 "
        "days": "SELECT min(transit_days) >= 12 AND max(transit_days) <= 20 FROM s "
        "JOIN ports l ON l.port_name = s.port_of_lading JOIN ports u ON u.port_name = "
        "s.port_of_unlading "
        "WHERE l.region = 'asia' AND u.us_coast = 'west'",
        "Europe to east coast in 9-16 "
        "days": "SELECT min(transit_days) >= 9 AND max(transit_days) <= 16 FROM s "
        "JOIN ports l ON l.port_name = s.port_of_lading JOIN ports u ON u.port_name = "
        "s.port_of_unlading "
        "WHERE l.region = 'europe' AND u.us_coast = 'east'",
    }
    failed = [name for name, sql in checks.items() if one(shipments, sql) is not True]
    assert failed == []


def test_weights_skew_popularity(shipments: duckdb.DuckDBPyConnection) -> None:
    top = one(shipments, "SELECT port_of_unlading FROM s GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
    assert top == one(
        shipments, "SELECT port_name FROM ports WHERE region = 'us' ORDER BY weight DESC LIMIT 1"
    )


def _hashes(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob("*.parquet"))
    }


def test_generate_and_export_are_byte_identical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    exports = []
    for run in ("a", "b"):
        monkeypatch.setenv("BOSUN_DATA_DIR", str(tmp_path / run))
        result = runner.invoke(
            app, ["data", "generate", "--rows", "3000", "--seed", "5", "--as-of", "2026-06-15"]
        )
        assert result.exit_code == 0, result.output
        assert "loaded 3,000 shipments (seed 5, as of 2026-06-15)" in result.output
        out = tmp_path / f"out-{run}"
        assert runner.invoke(app, ["data", "export", "--out", str(out)]).exit_code == 0
        exports.append(_hashes(out))
    assert sorted(exports[0]) == sorted(
        f"{t}.parquet"
        for t in [
            "shipments",
            "carriers",
            "vessels",
            "ports",
            "companies",
            "commodities",
            "glossary",
        ]
    )
    assert exports[0] == exports[1]
    table = pa.parquet.read_table(tmp_path / "out-a" / "shipments.parquet")
    assert table.num_rows == 3000 and "bol_number" in table.column_names


def test_as_of_is_recorded_with_the_data() -> None:
    engine = EmbeddedEngine()
    assert read_sample_info(engine) is None
    build(engine, load_catalog(), 500, 1, AS_OF)
    info = read_sample_info(engine)
    assert info is not None and (info.as_of, info.seed, info.rows, info.domain) == (
        AS_OF,
        1,
        500,
        "maritime",
    )


def test_second_domain_needs_no_code_change() -> None:
    catalog: Catalog = load_catalog(SHOP)
    engine = EmbeddedEngine()
    build(engine, catalog, 2000, 3, AS_OF)
    assert engine.indices() == ["bosun_meta", "customers", "orders", "products", "stores"]
    body = {
        "size": 0,
        "query": {"range": {"order_date": {"gte": "2026-01-01"}}},
        "aggs": {
            "by_store": {
                "terms": {"field": "store_name"},
                "aggs": {"rev": {"sum": {"field": "amount"}}},
            }
        },
    }
    buckets = engine.search("orders", body)["aggregations"]["by_store"]["buckets"]
    assert {b["key"] for b in buckets} == {"DOWNTOWN", "AIRPORT", "MALL", "ONLINE"}
    assert buckets[0]["key"] == "ONLINE"  # the heaviest store weight
    again = generate_records(generator_spec_for(catalog), catalog, 2000, 3, AS_OF)
    assert again.equals(engine.to_arrow("orders").cast(again.schema))


def test_a_sample_past_one_piece_is_built_piece_by_piece(tmp_path: Path) -> None:
    """Past `piece_rows` records (1M by default) memory holds one piece at a time: the first piece
    is the sample of that size, the later ones are new rows with ids of their own, and the engine
    answers over all of them."""
    catalog = load_catalog()
    engine = EmbeddedEngine(tmp_path / "bosun.duckdb")
    build(engine, catalog, 5000, 42, AS_OF, piece_rows=2000, scratch=tmp_path)
    loaded = engine.to_arrow("shipments")
    first = generate_records(generator_spec_for(catalog), catalog, 2000, 42, AS_OF)
    assert loaded.num_rows == engine.count("shipments") == 5000
    assert loaded.slice(0, 2000).cast(first.schema).equals(first)
    assert (
        loaded.column("carrier_name")[2000:4000].to_pylist()
        != first.column("carrier_name").to_pylist()
    )
    assert len(set(loaded.column("bol_number").to_pylist())) == 5000
    info = read_sample_info(engine)
    assert info is not None and info.rows == 5000
    # the staging file is gone
    assert not [p for p in tmp_path.iterdir() if not p.name.startswith("bosun.duckdb")]
