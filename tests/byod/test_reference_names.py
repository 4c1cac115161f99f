"""Issue #24 class 8: names live in the reference file. Flights hold carrier codes ("UA"); an
airlines file names them ("United Air Lines Inc."). Drafted with no edits, the names (and their
short forms) read as the code, the reference's noun groups by the code ("by airline"), and the
answer says the names beside the codes.

The carrier codes and names are public facts; the flights are written here. Questions written before
the code.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session, open_session
from bosun.settings import load_settings
from tests.byod.drafting import load_and_draft

AIRLINES = {
    "UA": "United Air Lines Inc.",
    "DL": "Delta Air Lines Inc.",
    "AA": "American Airlines Inc.",
    "B6": "JetBlue Airways",
    "WN": "Southwest Airlines Co.",
}


def _flights() -> str:
    pick = random.Random(8)
    lines = ["flight_date,carrier,tailnum,dest,dep_delay,distance"]
    for i in range(1500):
        lines.append(
            f"2013-{1 + i % 12:02d}-{1 + i % 28:02d},{pick.choice(list(AIRLINES))},"
            f"N{pick.randrange(100, 190)}UW,{pick.choice(['LAX', 'ORD', 'ATL'])},{pick.randrange(-10, 90)},"
            f"{pick.randrange(200, 2500)}"
        )
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, Any], str]]:
    folder = tmp_path_factory.mktemp("flights")
    (folder / "flights.csv").write_text(_flights())
    (folder / "airlines.csv").write_text(
        "carrier,name\n" + "".join(f"{k},{v}\n" for k, v in AIRLINES.items())
    )
    yield load_and_draft(folder, "flights", "airlines")


@pytest.fixture(scope="module")
def session(drafted: tuple[Path, dict[str, Any], str]) -> Iterator[Session]:
    opened = open_session(
        load_settings(data_dir=drafted[0], catalog=drafted[0].parent / "catalog.yaml")
    )
    yield opened
    opened.close()


def _sql(drafted: tuple[Path, dict[str, Any], str], query: str) -> list[tuple[Any, ...]]:
    with duckdb.connect() as con:
        con.execute(
            f"create view flights as from read_csv_auto('{drafted[0].parent / 'flights.csv'}')"
        )
        return con.execute(query).fetchall()


def _key(row: Any) -> tuple[str, float]:
    return str(row[0]), round(float(row[-1]), 2)


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        ("How many flights did United fly?", "select count(*) from flights where carrier = 'UA'"),
        ("Flights by airline", "select carrier, count(*) from flights group by 1"),
        (
            "Average departure delay by airline",
            "select carrier, avg(dep_delay) from flights group by 1",
        ),
        (
            "Total distance flown by Delta Air Lines in 2013",
            "select sum(distance) from flights where carrier = 'DL'",
        ),
        (
            "How many tail numbers flew to ORD?",
            "select count(distinct tailnum) from flights where dest = 'ORD'",
        ),
    ],
)
def test_names_from_the_reference_read_as_codes(
    question: str, gold: str, session: Session, drafted: tuple[Path, dict[str, Any], str]
) -> None:
    answer = session.ask(question, question)
    assert answer.status == "done" and not answer.not_understood, answer.answer
    assert sorted(map(_key, answer.results[0].rows)) == sorted(map(_key, _sql(drafted, gold))), (
        answer.answer
    )


def test_the_answer_says_the_names_beside_the_codes(session: Session) -> None:
    answer = session.ask("Top 3 airlines by total distance", "names")
    top = answer.results[0].rows[0][0]
    assert f"{top} ({AIRLINES[top]})" in answer.answer, answer.answer
    assert answer.results[0].columns[0] == "carrier"  # the table keeps the codes the data holds


def test_catalog_init_says_the_reference_names_the_codes(
    drafted: tuple[Path, dict[str, Any], str],
) -> None:
    assert (
        "carrier: codes named in airlines (name) → dimension read by its names, said 'airline'"
        in drafted[2].splitlines()
    )
