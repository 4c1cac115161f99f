"""`bosun data load`: files of every format into an index with an inferred mapping; bad files named
in one line."""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner, Result

from bosun.engines.embedded import EmbeddedEngine
from bosun.errors import LoadError
from bosun.interfaces.cli.app import app

ORDERS = "order_id;customer;placed;amount;express;note\n" + "".join(
    f"{i};Acme {i % 3};2024-0{1 + i % 9}-1{i % 10};{i * 1.5};{'true' if i % 2 else 'false'};"
    f"a long free text note number {i} written by a person about this order\n"
    for i in range(1, 201)
)


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BOSUN_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def _load(*args: str) -> Result:
    return CliRunner().invoke(app, ["data", "load", *args])


def _engine(data_dir: Path) -> EmbeddedEngine:
    return EmbeddedEngine(data_dir / "bosun.duckdb", read_only=True)


def test_a_semicolon_csv_loads_with_an_inferred_mapping(tmp_path: Path, data_dir: Path) -> None:
    (tmp_path / "orders.csv").write_text(ORDERS)
    result = _load(str(tmp_path / "orders.csv"))
    assert result.exit_code == 0, result.output
    assert "loaded 200 rows into index 'orders'" in result.output
    engine = _engine(data_dir)
    properties = engine.mapping("orders")["properties"]
    assert properties == {
        "order_id": {"type": "integer"},
        "customer": {"type": "keyword"},
        "placed": {"type": "date"},
        "amount": {"type": "double"},
        "express": {"type": "boolean"},
        "note": {"type": "text", "fields": {"keyword": {"type": "keyword"}}},
        "placed_weekday": {"type": "integer"},
        "placed_month": {"type": "integer"},
    }
    assert "placed: dates → weekday in placed_weekday, month in placed_month" in result.output
    body = {
        "size": 0,
        "query": {"term": {"customer": "Acme 1"}},
        "aggs": {"a": {"sum": {"field": "amount"}}},
    }
    expected = sum(i * 1.5 for i in range(1, 201) if i % 3 == 1)
    assert engine.search("orders", body)["aggregations"]["a"]["value"] == expected


def test_gzip_zip_parquet_json_lines_and_a_directory_load(tmp_path: Path, data_dir: Path) -> None:
    with gzip.open(tmp_path / "gz_orders.csv.gz", "wt") as handle:
        handle.write(ORDERS)
    with zipfile.ZipFile(tmp_path / "zipped.zip", "w") as archive:
        archive.writestr("inner.csv", ORDERS)
    pq.write_table(pa.table({"x": [1, 2, 3]}), tmp_path / "numbers.parquet")
    (tmp_path / "events.jsonl").write_text(
        "".join(json.dumps({"kind": "a", "n": i}) + "\n" for i in range(5))
    )
    folder = tmp_path / "monthly"
    folder.mkdir()
    for month in (1, 2):
        (folder / f"m{month}.csv").write_text(f"month,value\n{month},10\n{month},20\n")
    paths = [
        tmp_path / n for n in ("gz_orders.csv.gz", "zipped.zip", "numbers.parquet", "events.jsonl")
    ]
    result = _load(*(str(p) for p in [*paths, folder]))
    assert result.exit_code == 0, result.output
    engine = _engine(data_dir)
    counts = {name: engine.count(name) for name in engine.indices()}
    assert counts == {"gz_orders": 200, "zipped": 200, "numbers": 3, "events": 5, "monthly": 4}


def test_a_date_is_composed_from_year_month_and_day_columns(tmp_path: Path, data_dir: Path) -> None:
    (tmp_path / "flights.csv").write_text(
        "Year,Month,DayofMonth,Carrier\n2013,7,4,AA\n2013,12,31,DL\n"
    )
    assert _load(str(tmp_path / "flights.csv")).exit_code == 0
    engine = _engine(data_dir)
    assert engine.mapping("flights")["properties"]["date"] == {"type": "date"}
    hits = engine.search("flights", {"sort": [{"date": "asc"}]})["hits"]["hits"]
    assert [(h["_source"]["carrier"], h["_source"]["date"]) for h in hits] == [
        ("AA", "2013-07-04"),
        ("DL", "2013-12-31"),
    ]


def test_a_year_column_alone_dates_each_row_as_its_year_with_no_weekday(
    tmp_path: Path, data_dir: Path
) -> None:
    (tmp_path / "wages.csv").write_text("yearID,teamID,wage\n1985,ATL,870000\n2016,NYA,33000000\n")
    assert _load(str(tmp_path / "wages.csv")).exit_code == 0
    engine = _engine(data_dir)
    fields = engine.mapping("wages")["properties"]
    assert (
        fields["date"] == {"type": "date"}
        and "date_weekday" not in fields
        and "date_month" not in fields
    )
    hits = engine.search("wages", {"sort": [{"date": "asc"}]})["hits"]["hits"]
    assert [(h["_source"]["team_id"], h["_source"]["date"]) for h in hits] == [
        ("ATL", "1985-01-01"),
        ("NYA", "2016-01-01"),
    ]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (
            "ragged.csv",
            b"a,b,c\n1,2,3\n4,5,6,7\n",
            "ragged.csv: row 3: 4 fields where the header has 3",
        ),
        (
            "latin.csv",
            "name;city\nJos\xe9;K\xf6ln\n".encode("latin-1"),
            "latin.csv: row 2: not UTF-8 text",
        ),
        ("empty.csv", b"", "empty.csv: the file is empty (no rows)"),
        ("header_only.csv", b"a,b\n", "header_only.csv: the file is empty (no rows)"),
    ],
)
def test_a_bad_file_is_one_line_naming_file_row_and_problem(
    tmp_path: Path, data_dir: Path, name: str, content: bytes, message: str
) -> None:
    (tmp_path / name).write_bytes(content)
    result = _load(str(tmp_path / name))
    assert isinstance(result.exception, LoadError)
    assert message in str(result.exception) and "\n" not in str(result.exception)


def test_a_missing_path_is_named(tmp_path: Path, data_dir: Path) -> None:
    result = _load(str(tmp_path / "nope.csv"))
    assert isinstance(result.exception, LoadError)
    assert str(result.exception) == f"{tmp_path / 'nope.csv'}: no such file or directory"


def test_a_failed_load_keeps_what_was_loaded(tmp_path: Path, data_dir: Path) -> None:
    (tmp_path / "orders.csv").write_text(ORDERS)
    (tmp_path / "bad.csv").write_bytes(b"a,b,c\n1,2,3\n4,5,6,7\n")
    assert _load(str(tmp_path / "orders.csv")).exit_code == 0
    failed = _load(str(tmp_path / "bad.csv"), "--index", "orders", "--replace")
    assert isinstance(failed.exception, LoadError)
    assert _engine(data_dir).count("orders") == 200


def test_an_existing_index_needs_replace_or_append(tmp_path: Path, data_dir: Path) -> None:
    (tmp_path / "orders.csv").write_text(ORDERS)
    assert _load(str(tmp_path / "orders.csv")).exit_code == 0
    again = _load(str(tmp_path / "orders.csv"))
    assert isinstance(again.exception, LoadError) and "--replace" in str(again.exception)
    assert _load(str(tmp_path / "orders.csv"), "--append").exit_code == 0
    assert _engine(data_dir).count("orders") == 400
    assert _load(str(tmp_path / "orders.csv"), "--replace").exit_code == 0
    assert _engine(data_dir).count("orders") == 200


@pytest.mark.parametrize(
    "token", ["NA", "N/A", "NULL", "null", "None", "-", "?", "", "NaN", "#N/A"]
)
def test_a_numeric_column_with_missing_value_words_loads_as_numbers(
    tmp_path: Path, data_dir: Path, token: str
) -> None:
    """R, pandas and spreadsheets write a missing number as a word: the column is still numbers."""
    delays = [12.5, token, 3, token, 7, 40.25]
    rows = "".join(f"{i},{d},{'NA' if i == 1 else 'US'}\n" for i, d in enumerate(delays))
    (tmp_path / "flights.csv").write_text("flight,dep_delay,country\n" + rows)
    result = _load(str(tmp_path / "flights.csv"))
    assert result.exit_code == 0, result.output
    engine = _engine(data_dir)
    try:
        mapping = engine.mapping("flights")["properties"]
        assert mapping["dep_delay"]["type"] == "double"
        # a label column keeps "NA" as written (a code)
        assert mapping["country"]["type"] == "keyword"
        body = {
            "size": 0,
            "aggs": {
                "avg": {"avg": {"field": "dep_delay"}},
                "n": {"value_count": {"field": "dep_delay"}},
            },
        }
        aggs = engine.search("flights", body)["aggregations"]
        assert engine.count("flights", {"query": {"term": {"country": "NA"}}}) == 1
    finally:
        engine.close()
    assert aggs["n"]["value"] == 4  # the two missing are missing, not zeros
    assert aggs["avg"]["value"] == pytest.approx((12.5 + 3 + 7 + 40.25) / 4)
    # DuckDB's own missing value and a double's NaN: read as missing unsaid
    if token not in ("", "NaN"):
        assert "dep_delay: 2 rows with a missing-value word" in result.output


def test_a_whole_number_column_with_na_stays_whole_and_a_fraction_makes_it_double(
    tmp_path: Path, data_dir: Path
) -> None:
    (tmp_path / "m.csv").write_text("a,b\n1,1\nNA,NA\n3,7.5\n")
    assert _load(str(tmp_path / "m.csv")).exit_code == 0
    engine = _engine(data_dir)
    try:
        mapping = engine.mapping("m")["properties"]
        total = engine.search("m", {"size": 0, "aggs": {"s": {"sum": {"field": "b"}}}})[
            "aggregations"
        ]["s"]["value"]
    finally:
        engine.close()
    assert (mapping["a"]["type"], mapping["b"]["type"]) == ("integer", "double")
    assert total == 8.5


@pytest.mark.parametrize(
    ("stamp", "zone_said"),
    [
        ("2017-03-31T23:10:00Z", "in UTC (the file gives a zone or Z)"),
        ("2017-03-31 23:10:00", "local time (the file gives no zone)"),
    ],
)
def test_utc_and_local_timestamps_load_as_dates_and_the_zone_is_said(
    tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch, stamp: str, zone_said: str
) -> None:
    monkeypatch.setenv("TZ", "America/New_York")  # the machine's zone must not move a UTC time
    rows = f"1,{stamp}\n2,{stamp.replace('23:10', '10:00')}\n3,NA\n4,{stamp.replace('03-31', '04-01')}\n"
    (tmp_path / "stops.csv").write_text("stop,stopped_at\n" + rows)
    result = _load(str(tmp_path / "stops.csv"))
    assert result.exit_code == 0, result.output
    assert (
        f"stopped_at: date and time {'as written, ' if 'local' in zone_said else ''}{zone_said}"
        in result.output
    )
    engine = _engine(data_dir)
    try:
        assert engine.mapping("stops")["properties"]["stopped_at"]["type"] == "date"
        march = engine.count(
            "stops",
            {"query": {"range": {"stopped_at": {"gte": "2017-03-01", "lte": "2017-03-31"}}}},
        )
        late = engine.search(
            "stops",
            {
                "size": 1,
                "sort": [{"stopped_at": "desc"}],
                "query": {"range": {"stopped_at": {"lte": "2017-03-31"}}},
            },
        )["hits"]["hits"][0]["_source"]["stopped_at"]
    finally:
        engine.close()
    assert march == 2  # 23:10 on the last day is in March
    assert late.startswith("2017-03-31T23:10:00")


def test_r_row_numbers_are_not_loaded_and_row_names_that_are_words_are(
    tmp_path: Path, data_dir: Path
) -> None:
    (tmp_path / "numbered.csv").write_text('"","team","goals"\n"1","A",3\n"2","B",1\n"3","A",2\n')
    (tmp_path / "named.csv").write_text('"","goals"\n"Mazda RX4",3\n"Datsun 710",1\n')
    # not the rows' numbers: data
    (tmp_path / "counted.csv").write_text('"","goals"\n"1",3\n"1",1\n')
    result = _load(str(tmp_path / "numbered.csv"))
    assert result.exit_code == 0, result.output
    assert (
        "the first column has no name and numbers the rows 1 to 3 (R's row names): not loaded"
        in result.output
    )
    for name in ("named", "counted"):
        assert _load(str(tmp_path / f"{name}.csv")).exit_code == 0
    engine = _engine(data_dir)
    assert set(engine.mapping("numbered")["properties"]) == {"team", "goals"}
    assert set(engine.mapping("named")["properties"]) == {"column0", "goals"}
    assert set(engine.mapping("counted")["properties"]) == {"column0", "goals"}


def test_r_row_numbers_of_a_file_of_ten_or_more_columns_are_not_loaded(
    tmp_path: Path, data_dir: Path
) -> None:
    """DuckDB names the unnamed first column `column00` when the file has 10 to 99 columns (plm's
    Produc, COUNT's rwm5yr): R's row numbers all the same."""
    header = ",".join(['""', *(f'"c{k}"' for k in range(10))])
    rows = [",".join([f'"{n}"', *(str(n * k) for k in range(10))]) for n in (1, 2, 3)]
    (tmp_path / "wide.csv").write_text("\n".join([header, *rows]) + "\n")
    result = _load(str(tmp_path / "wide.csv"))
    assert result.exit_code == 0, result.output
    assert "numbers the rows 1 to 3 (R's row names): not loaded" in result.output
    engine = _engine(data_dir)
    try:
        assert set(engine.mapping("wide")["properties"]) == {f"c{k}" for k in range(10)}
    finally:
        engine.close()
