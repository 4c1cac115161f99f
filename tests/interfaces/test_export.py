"""Whole results through the API: every record an answer counted, a page at a time or as one CSV."""

from __future__ import annotations

import csv
import io
import re
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from fastapi.testclient import TestClient

from bosun.conversation.session import open_session
from bosun.interfaces.api.app import create_app
from bosun.settings import Settings
from tests.interfaces.serving import data_copy

LISTING = "Show shipments from Shanghai to Oakland in 2025"
GOLD = (
    "select bol_number from shipments where port_of_lading = 'SHANGHAI' and port_of_unlading = "
    "'OAKLAND' "
    "and year(arrival_date) = 2025"
)


def _client(data_dir: Path, folder: Path, **settings: int) -> Iterator[TestClient]:
    session = open_session(Settings(data_dir=data_copy(data_dir, folder), **settings))  # type: ignore[arg-type]
    try:
        yield TestClient(create_app(session), raise_server_exceptions=False)
    finally:
        session.close()


@pytest.fixture
def client(data_dir: Path, tmp_path: Path) -> Iterator[TestClient]:
    yield from _client(data_dir, tmp_path / "d")


@pytest.fixture(scope="module")
def gold(data_dir: Path) -> set[str]:
    with duckdb.connect(str(data_dir / "bosun.duckdb"), read_only=True) as connection:
        return {row[0] for row in connection.execute(GOLD).fetchall()}


def _listing(client: TestClient) -> dict[str, object]:
    created = client.post("/threads")
    assert created.status_code == 201, created.text
    thread = created.json()["thread_id"]
    answer = client.post(f"/threads/{thread}/turns", json={"question": LISTING}).json()
    result: dict[str, object] = answer["results"][0]
    assert result["total"] > len(result["rows"])  # type: ignore[operator]  # more records than the answer shows
    return result


def test_the_pager_reads_every_page_of_a_listing_in_its_order(
    client: TestClient, gold: set[str]
) -> None:
    result = _listing(client)
    columns = result["columns"]
    assert isinstance(columns, list)
    seen: list[str] = []
    cursor: dict[str, str] = {}  # none for the first page, then the one each page gives
    while True:
        asked = {"query": result["query"], "columns": columns, "limit": 20, **cursor}
        page = client.post("/records", json=asked).json()
        seen += [row[columns.index("bol_number")] for row in page["rows"]]
        if page["cursor"] is None:
            break
        cursor = {"cursor": page["cursor"]}
    assert seen[:20] == [row[columns.index("bol_number")] for row in result["rows"]]  # type: ignore[union-attr]
    assert len(seen) == len(set(seen)) and set(seen) == gold


def test_the_csv_holds_every_record_with_every_field(client: TestClient, gold: set[str]) -> None:
    result = _listing(client)
    response = client.post("/records.csv", json={"query": result["query"]})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    assert "x-bosun-capped" not in response.headers
    lines = list(csv.DictReader(io.StringIO(response.text)))
    assert {line["bol_number"] for line in lines} == gold and len(lines) == len(gold)
    assert {"carrier_name", "teu", "arrival_date"} <= set(lines[0])


def test_a_capped_csv_says_how_many_of_how_many(
    data_dir: Path, tmp_path: Path, gold: set[str]
) -> None:
    for client in _client(data_dir, tmp_path / "d", max_export_rows=50):
        response = client.post("/records.csv", json={"query": _listing(client)["query"]})
        assert response.headers["x-bosun-capped"] == f"50 of {len(gold)}"
        assert len(response.text.strip().splitlines()) == 51


def _sheet(book: bytes) -> list[list[str]]:
    """The first sheet's rows, each cell's text (a shared string looked up), from the workbook's own
    XML."""
    with zipfile.ZipFile(io.BytesIO(book)) as parts:
        names = parts.namelist()
        shared = (
            parts.read("xl/sharedStrings.xml").decode() if "xl/sharedStrings.xml" in names else ""
        )
        sheet = parts.read("xl/worksheets/sheet1.xml").decode()
    strings = re.findall(r"<si><t[^>]*>(.*?)</t></si>", shared)
    cells = (
        r'<c r="[A-Z]+\d+"(?: s="\d+")?(?: t="(\w+)")?>(?:<v>(.*?)</v>|<is><t>(.*?)</t></is>)</c>'
    )
    return [
        [
            strings[int(v)] if kind == "s" else v or inline
            for kind, v, inline in re.findall(cells, row)
        ]
        for row in re.findall(r"<row [^>]*>(.*?)</row>", sheet)
    ]


def test_the_xlsx_holds_what_the_csv_holds(client: TestClient, gold: set[str]) -> None:
    pytest.importorskip("xlsxwriter")  # the `xlsx` extra, which `python3 dev.py test` installs
    result = _listing(client)
    response = client.post("/records.xlsx", json={"query": result["query"]})
    assert response.status_code == 200 and "spreadsheetml" in response.headers["content-type"]
    header, *rows = _sheet(response.content)
    lines = list(
        csv.reader(io.StringIO(client.post("/records.csv", json={"query": result["query"]}).text))
    )
    assert header == lines[0] and len(rows) == len(gold)
    assert {row[header.index("bol_number")] for row in rows} == gold
    at = header.index("teu")
    # numbers as numbers, in the same order
    assert [row[at] for row in rows] == [line[at] for line in lines[1:]]
    table = client.post(
        "/table.xlsx", json={"columns": ["carrier_name", "TEU"], "rows": [["MSC", 12], ["ONE", 7]]}
    )
    assert _sheet(table.content) == [["carrier_name", "TEU"], ["MSC", "12"], ["ONE", "7"]]


def test_a_capped_xlsx_says_so_and_without_its_writer_says_what_to_install(
    data_dir: Path, tmp_path: Path, gold: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for client in _client(data_dir, tmp_path / "d", max_export_rows=50):
        query = _listing(client)["query"]
        if "xlsxwriter" in sys.modules or _installed("xlsxwriter"):
            capped = client.post("/records.xlsx", json={"query": query})
            assert (
                capped.headers["x-bosun-capped"] == f"50 of {len(gold)}"
                and len(_sheet(capped.content)) == 51
            )
        monkeypatch.setitem(sys.modules, "xlsxwriter", None)  # as on an install without the extra
        missing = client.post("/records.xlsx", json={"query": query})
        assert (
            missing.status_code == 500
            and "pip install 'bosun-bi[xlsx]'" in missing.json()["detail"]
        )


def _installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def test_an_aggregation_or_a_foreign_index_is_refused_in_one_line(client: TestClient) -> None:
    aggregation = {"size": 0, "aggs": {"c": {"terms": {"field": "carrier_name"}}}}
    refused = client.post("/records", json={"query": aggregation})
    assert refused.status_code == 400 and "only a list of records" in refused.json()["detail"]
    foreign = client.post(
        "/records", json={"query": {"query": {"match_all": {}}}, "index": "bosun_meta"}
    )
    assert foreign.status_code in (400, 403) and "allowlist" in foreign.json()["detail"]
    scripted = client.post("/records.csv", json={"query": {"query": {"script": {"script": "1"}}}})
    assert scripted.status_code in (400, 403) and "not allowed" in scripted.json()["detail"]


def test_page_two_and_show_all_continue_the_listing_an_answer_offered_to_page(
    client: TestClient, gold: set[str]
) -> None:
    thread = client.post("/threads").json()["thread_id"]
    first = client.post(f"/threads/{thread}/turns", json={"question": LISTING}).json()
    assert "ask for page 2 for more" in first["answer"]
    second = client.post(f"/threads/{thread}/turns", json={"question": "page 2"}).json()
    assert second["status"] == "done"
    (listed,) = second["results"]
    at = listed["columns"].index("bol_number")
    page_two = [row[at] for row in listed["rows"]]
    assert len(page_two) == 20 and set(page_two) <= gold
    assert not set(page_two) & {row[at] for row in first["results"][0]["rows"]}
    everything = client.post(f"/threads/{thread}/turns", json={"question": "show all"}).json()
    (whole,) = everything["results"]
    assert {row[at] for row in whole["rows"]} == gold and everything["not_understood"] == []
