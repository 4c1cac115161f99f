"""`/records` pages by cursor: each page is one search continuing from the page before
(search_after on the sort and the record's id), so a deep page costs what the first does.

What a page costs is counted in the embedded engine's statements and the rows they hand back, not
in seconds: skipping by offset ran a statement per thousand records before the page (page 50 of a
thousand: 50 statements, 50,000 rows) and went past its deadline.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pytest
from fastapi.testclient import TestClient

from bosun.conversation.session import Session, open_session
from bosun.engines.embedded import EmbeddedEngine
from bosun.interfaces.api.app import create_app
from bosun.settings import Settings
from tests.interfaces.serving import data_copy

NEWEST_FIRST = {"query": {"match_all": {}}, "sort": [{"arrival_date": "desc"}]}
PAGE = 1000


@dataclass
class Counted:
    """The embedded engine's statements and the rows they returned, since `reset`."""

    statements: int = 0
    rows: int = 0

    def reset(self) -> tuple[int, int]:
        seen = (self.statements, self.rows)
        self.statements, self.rows = 0, 0
        return seen


@pytest.fixture(scope="module")
def session(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    opened = open_session(Settings(data_dir=data_copy(data_dir, tmp_path_factory.mktemp("p"))))
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def counted(session: Session) -> Counted:
    """Every statement the session's embedded engine runs, counted (the engine runs as before)."""
    inner = session.context.engine.inner
    assert isinstance(inner, EmbeddedEngine)
    run, seen = inner._run, Counted()

    def counting(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
        rows = run(sql, params)
        seen.statements += 1
        seen.rows += len(rows)
        return rows

    inner._run = counting  # type: ignore[method-assign]
    return seen


@pytest.fixture(scope="module")
def client(session: Session) -> TestClient:
    return TestClient(create_app(session), raise_server_exceptions=False)


@pytest.fixture(scope="module")
def newest_first(data_dir: Path) -> list[str]:
    """Every bill of lading, newest arrival first (in transit last), ties by bill of lading."""
    sql = "SELECT bol_number FROM shipments ORDER BY arrival_date DESC NULLS LAST, bol_number"
    with duckdb.connect(str(data_dir / "bosun.duckdb"), read_only=True) as connection:
        return [row[0] for row in connection.execute(sql).fetchall()]


def _page(client: TestClient, **asked: Any) -> dict[str, Any]:
    body = {"query": NEWEST_FIRST, "columns": ["bol_number"], "limit": PAGE, **asked}
    response = client.post("/records", json=body)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def test_page_fifty_costs_what_page_one_does_and_every_record_comes_once(
    client: TestClient, counted: Counted, newest_first: list[str]
) -> None:
    _page(client)  # the mapping read once, for every page after
    counted.reset()
    page = _page(client)
    costs, seen = [counted.reset()], [row[0] for row in page["rows"]]
    while page["cursor"] is not None:
        page = _page(client, cursor=page["cursor"])
        costs.append(counted.reset())
        seen += [row[0] for row in page["rows"]]
    assert len(costs) == 51 and costs[50] == (1, 0)  # the 51st page finds none left
    assert costs[0] == costs[49] == (1, PAGE)  # one statement each, a page of rows
    assert seen == newest_first


def test_a_deep_offset_is_refused_in_one_line_before_any_search(
    client: TestClient, counted: Counted
) -> None:
    counted.reset()
    for offset in (49_000, 10**12):
        body = {"query": NEWEST_FIRST, "offset": offset, "limit": PAGE}
        refused = client.post("/records", json=body)
        assert (refused.status_code, refused.json()) == (
            400,
            {
                "error": "bad_request",
                "detail": "offset: an offset reaches the first 10,000 records; read on with the "
                "`cursor` each page gives",
            },
        )
    assert counted.reset() == (0, 0)


def test_the_first_pages_still_take_an_offset_and_give_the_cursor_on(
    client: TestClient, newest_first: list[str]
) -> None:
    first = _page(client, offset=40, limit=20)
    after = _page(client, cursor=first["cursor"], limit=20)
    assert [row[0] for row in first["rows"] + after["rows"]] == newest_first[40:80]


def test_a_cursor_not_given_or_given_for_another_search_is_refused(client: TestClient) -> None:
    cursor = _page(client, limit=5)["cursor"]
    other = {"query": {"query": {"term": {"status": "held"}}}, "cursor": cursor}
    cases = [
        (
            {"query": NEWEST_FIRST, "cursor": "not-a-cursor"},
            "cursor: not a cursor a page of records gave",
        ),
        (other, "cursor: it continues another search; ask its first page again"),
        (
            {"query": NEWEST_FIRST, "cursor": cursor, "offset": 5},
            "offset: give a cursor or an offset, not both",
        ),
    ]
    for body, detail in cases:
        refused = client.post("/records", json=body)
        assert (refused.status_code, refused.json()) == (
            400,
            {"error": "bad_request", "detail": detail},
        )
