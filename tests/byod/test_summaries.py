"""Issue #24 class 11: rows that are already summaries, drafted with no edits.

A real public file, Iowa's net electricity generation per year and source (vega_datasets, the Vega
project's example data), and a table of store-weeks written here: "how much electricity" sums the
figure, a ranking with no figure named ranks by it, the row count is named for what a row is, and a
median stored per row is averaged and said so. The questions were written before the drafter learnt
this; each is judged against SQL over the file.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session, open_session
from bosun.settings import load_settings
from tests.byod.drafting import load_and_draft
from tests.byod.public import vega_file


def _store_weeks() -> str:
    pick = random.Random(11)
    lines = ["store,week,units_sold,returns,revenue,median_basket"]
    for week in range(20):
        for store in ["Leeds", "York", "Hull", "Bath"]:
            units = pick.randrange(200, 900)
            lines.append(
                f"{store},{date(2024, 1, 1) + timedelta(weeks=week)},{units},{pick.randrange(0, 30)},"
                f"{units * 4.5:.2f},{pick.randrange(900, 2500) / 100}"
            )
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def drafted(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, tuple[Path, dict[str, Any], str]]]:
    iowa = tmp_path_factory.mktemp("iowa")
    shutil.copy(vega_file("iowa-electricity.csv"), iowa / "iowa_electricity.csv")
    stores = tmp_path_factory.mktemp("stores")
    (stores / "store_weeks.csv").write_text(_store_weeks())
    yield {
        "iowa_electricity": load_and_draft(iowa, "iowa_electricity"),
        "store_weeks": load_and_draft(stores, "store_weeks"),
    }


@pytest.fixture(scope="module")
def sessions(drafted: dict[str, tuple[Path, dict[str, Any], str]]) -> Iterator[dict[str, Session]]:
    opened = {
        name: open_session(load_settings(data_dir=d, catalog=d.parent / "catalog.yaml"))
        for name, (d, _, _) in drafted.items()
    }
    yield opened
    for session in opened.values():
        session.close()


def _sql(
    drafted: dict[str, tuple[Path, dict[str, Any], str]], name: str, query: str
) -> list[tuple[Any, ...]]:
    with duckdb.connect() as con:
        con.execute(
            f"create view {name} as from "
            f"read_csv_auto('{drafted[name][0].parent / (name + '.csv')}')"
        )
        return con.execute(query).fetchall()


def _key(row: Any) -> tuple[str, float]:
    return str(row[0])[:10], round(float(row[-1]), 2)


@pytest.mark.parametrize(
    ("name", "question", "gold"),
    [
        (
            "iowa_electricity",
            "How much electricity in 2010?",
            "select sum(net_generation) from iowa_electricity where year(year) = 2010",
        ),
        (
            "iowa_electricity",
            "Which source is the biggest?",
            "select source, sum(net_generation) n from iowa_electricity group by 1 order by n desc "
            "limit 1",
        ),
        (
            "iowa_electricity",
            "Top 2 sources in 2015",
            "select source, sum(net_generation) n from iowa_electricity where year(year) = 2015 "
            "group by 1 "
            "order by n desc limit 2",
        ),
        (
            "iowa_electricity",
            "Net generation by source",
            "select source, sum(net_generation) from iowa_electricity group by 1",
        ),
        ("iowa_electricity", "How many rows are there?", "select count(*) from iowa_electricity"),
        (
            "store_weeks",
            "How many units were sold in March 2024?",
            "select sum(units_sold) from store_weeks where week between '2024-03-01' and "
            "'2024-03-31'",
        ),
        (
            "store_weeks",
            "Which store sold the most units?",
            "select store, sum(units_sold) n from store_weeks group by 1 order by n desc limit 1",
        ),
        (
            "store_weeks",
            "Returns by store",
            "select store, sum(returns) from store_weeks group by 1",
        ),
        (
            "store_weeks",
            "Median basket by store",
            "select store, avg(median_basket) from store_weeks group by 1",
        ),
        ("store_weeks", "How many store-weeks?", "select count(*) from store_weeks"),
    ],
)
def test_figures_per_period_and_place_are_summed(
    name: str,
    question: str,
    gold: str,
    sessions: dict[str, Session],
    drafted: dict[str, tuple[Path, dict[str, Any], str]],
) -> None:
    answer = sessions[name].ask(question, question)
    assert answer.status == "done" and not answer.not_understood, answer.answer
    assert sorted(map(_key, answer.results[0].rows)) == sorted(
        map(_key, _sql(drafted, name, gold))
    ), answer.answer


def test_the_row_count_is_named_for_what_a_row_is(
    drafted: dict[str, tuple[Path, dict[str, Any], str]],
) -> None:
    assert (
        drafted["iowa_electricity"][1]["measures"]["iowa_electricities"]["label"] == "source-years"
    )
    assert drafted["store_weeks"][1]["defaults"] == {
        "measure": "store_weeks",
        "figure": "units_sold",
    }
    assert (
        "iowa_electricity: one row per source and year (51 rows of 17 years × 3 sources): figures "
        "already "
        "summed → count 'source-years'; rankings and the records' nouns use 'net_generation'"
        in drafted["iowa_electricity"][2].splitlines()
    )


def test_a_median_per_row_is_averaged_and_said(sessions: dict[str, Session]) -> None:
    answer = sessions["store_weeks"].ask("What is the median basket?", "median")
    assert answer.results[0].reading.startswith("average median basket"), answer.results[0].reading
    assert any("median basket is a figure of each row" in a for a in answer.assumptions), (
        answer.assumptions
    )
