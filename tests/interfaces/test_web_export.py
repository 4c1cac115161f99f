"""The page's own CSV of an answer's table, in Chromium: the same rule against CSV injection as the
server's exports (issue #39 item 2). A label loaded from someone's file that a spreadsheet would run
gets a leading `'`; numbers, negative ones too, stay numbers."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bosun.interfaces.cli.app import app as cli
from tests.interfaces.serving import bosun_serve
from tests.interfaces.test_web import ask, browser  # noqa: F401 - the Chromium fixture
from tests.reliability.test_hostile_exports import ESCAPED, ROWS

pytestmark = pytest.mark.slow


def _hostile(folder: Path) -> Path:
    """The hostile file loaded and a catalog drafted for it; the catalog's path."""
    source = folder / "hostile.csv"
    with source.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows([["id", "label", "amount", "note"], *ROWS])
    env = {"BOSUN_DATA_DIR": str(folder / "data")}
    catalog = folder / "catalog.yaml"
    for command in (
        ["data", "load", str(source)],
        ["catalog", "init", "--index", "hostile", "--out", str(catalog)],
    ):
        done = CliRunner().invoke(cli, command, env=env)
        assert done.exit_code == 0, done.output
    return catalog


def test_the_pages_csv_of_a_table_escapes_what_a_spreadsheet_would_run(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    catalog = _hostile(tmp_path)
    with bosun_serve(tmp_path / "data", BOSUN_CATALOG=str(catalog)) as base:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(30_000)
        page.goto(base + "/")
        answer = ask(page, "total amount by label", 1)
        with page.expect_download() as download:
            answer.locator(".pager button.csv").click()
        text = Path(download.value.path()).read_text(encoding="utf-8")
        page.close()
    header, *lines = list(csv.reader(io.StringIO(text, newline="")))
    assert header == ["label", "total amount"]
    wanted = {ESCAPED.get(label, label): str(amount) for _, label, amount, _ in ROWS}
    assert {label: amount.removesuffix(".0") for label, amount in lines} == wanted
