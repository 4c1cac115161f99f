"""A bound's unit says its measure, on a real public file not written by us: ggplot2::diamonds (53,940
diamonds: carat, cut, color, clarity, depth, table, price in dollars, x, y, z), loaded and drafted as
a user types it. The draft gives the price no unit, so "over 10000 dollars" after "carat" was bound
to the carat before branch w8-honest (a confidently wrong figure): now to the one money measure,
and a bound in a unit no measure is in (kg: carat is no weight the draft knows) is said, never bound.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session
from tests.byod.drafting import Drafted, drafted_session, load_and_draft
from tests.byod.judged import assert_not_confidently_wrong, assert_right, doubted
from tests.byod.public import r_export

RIGHT: list[dict[str, Any]] = [
    {
        "id": "u1",
        "q": "average carat of diamonds over 10000 dollars",
        "expect": {"kind": "value", "gold_sql": "select avg(carat) from d where price > 10000"},
    },
    {
        "id": "u2",
        "q": "how many diamonds cost more than 15000 dollars",
        "expect": {"kind": "count", "gold_sql": "select count(*) from d where price > 15000"},
    },
    {
        "id": "u3",
        "q": "How many diamonds cost 326?",
        "expect": {"kind": "count", "gold_sql": "select count(*) from d where price = 326"},
    },
    {
        "id": "u4",
        "q": "average depth of diamonds priced at 18823",
        "expect": {"kind": "value", "gold_sql": "select avg(depth) from d where price = 18823"},
    },
]


@pytest.fixture(scope="module")
def raw_file() -> Path:
    return r_export("ggplot2", "diamonds")


@pytest.fixture(scope="module")
def drafted(raw_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Drafted:
    folder = tmp_path_factory.mktemp("diamonds")
    shutil.copy(raw_file, folder / "diamonds.csv")
    return load_and_draft(folder, "diamonds")


@pytest.fixture(scope="module")
def gold(raw_file: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = duckdb.connect()
    connection.execute(f"create view d as select * from read_csv('{raw_file}', nullstr = 'NA')")
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def session(drafted: Drafted) -> Iterator[Session]:
    yield from drafted_session(drafted)


@pytest.mark.parametrize("item", RIGHT, ids=[item["id"] for item in RIGHT])
def test_a_bound_binds_to_a_measure_of_its_unit(
    item: dict[str, Any], session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask(item["q"], f"diamonds-{item['id']}")
    assert_right(item, answer, gold)
    assert_not_confidently_wrong(item, answer, gold)


def test_a_bound_in_no_measures_unit_is_said(session: Session) -> None:
    answer = session.ask("average carat of diamonds over 3 kg", "diamonds-kg")
    assert doubted(answer) and "“over 3 kg”" in answer.answer, answer.answer
    assert "carat above" not in answer.answer, answer.answer
