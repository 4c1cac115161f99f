"""Every figure says how its question was read (DATA_CONTRACT §3 `results[i].reading`), over real
turns.

Each turn runs the whole agent on the dev set's data; every result with figures must carry a reading
that names each filter value, the dates and the measure of the turn's Meaning and of the query that
ran.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest

from bosun.conversation.session import Session
from bosun.planner.answer import Answer
from bosun.understanding import Meaning
from tests.conftest import sample_session
from tests.interfaces.readings import unread

# (thread, question): new questions of every shape, and follow-ups that change what the last one was
# read as
TURNS = [
    ("a", "How many shipments arrived in Savannah last month?"),
    ("a", "and in Charleston?"),
    ("a", "and the month before?"),
    ("b", "Top 5 shippers to LA by TEU in 2025"),
    ("b", "what about Long Beach?"),
    ("b", "only 40HC containers"),
    ("c", "Show me Maersk shipments to Los Angeles"),
    ("c", "sort by weight"),
    ("c", "show me more"),
    (
        "d",
        "Compare Maersk vs Evergreen shipping volumes to LA last quarter and show their average "
        "transit times",
    ),
    ("e", "shipments over 10 TEU not carried by Maersk last month"),
    ("f", "monthly TEU into Savannah this year"),
    ("g", "how many distinct carriers serve Savannah?"),
    ("h", "hazardous shipments to Miami this year"),
    ("i", "average transit time from Shanghai by carrier"),
    ("j", "which week had the fewest arrivals in Oakland this year?"),
    ("k", "TEU and average transit time into Houston last quarter"),
]


@pytest.fixture(scope="module")
def session(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    yield from sample_session(data_dir, tmp_path_factory.mktemp("reading"))


@dataclass(frozen=True)
class Turn:
    question: str
    answer: Answer
    meaning: Meaning | None  # the turn's main data goal, as the conversation store keeps it


@pytest.fixture(scope="module")
def answered(session: Session) -> dict[str, Turn]:
    """Every turn of TURNS, asked in order, with its answer and its meaning, by question."""
    turns = {}
    for thread, question in TURNS:
        answer = session.ask(question, thread)
        turns[question] = Turn(question, answer, session.history(thread)[-1].meaning)
    return turns


def test_every_figure_is_shown_with_its_reading(
    session: Session, answered: dict[str, Turn]
) -> None:
    problems = []
    for turn in answered.values():
        assert turn.answer.status == "done" and turn.answer.results, (
            turn.question,
            turn.answer.answer,
        )
        assert turn.meaning is not None, turn.question
        problems += [
            f"{turn.question!r}: {p}"
            for p in unread(turn.answer, turn.meaning, session.context.catalog)
        ]
    assert not problems, "\n".join(problems)


def test_a_dropped_or_emptied_reading_fails_the_check(
    session: Session, answered: dict[str, Turn]
) -> None:
    """The check above can fail: a reading emptied, or one that leaves out a constraint, is
    caught."""
    catalog = session.context.catalog
    for _, question in [TURNS[0], TURNS[9], TURNS[10]]:
        answer, meaning = answered[question].answer, answered[question].meaning
        emptied = [r.model_copy(update={"reading": ""}) for r in answer.results]
        assert unread(answer.model_copy(update={"results": emptied}), meaning, catalog)
        cut = [
            r.model_copy(update={"reading": r.reading.rsplit(" · ", 1)[0]}) for r in answer.results
        ]
        assert unread(answer.model_copy(update={"results": cut}), meaning, catalog)


def test_a_single_figure_names_what_it_counts_and_over_what(
    answered: dict[str, Turn], data_dir: Path
) -> None:
    answers = {question: turn.answer for question, turn in answered.items()}
    with duckdb.connect(str(data_dir / "bosun.duckdb"), read_only=True) as gold:
        (count,) = gold.execute(
            "select count(*) from shipments where port_of_unlading = 'CHARLESTON' and "
            "arrival_date between '2026-05-01' and '2026-05-31'"
        ).fetchone() or (0,)
        teu, days = gold.execute(
            "select sum(teu), round(avg(transit_days), 2) from shipments where port_of_unlading "
            "= 'HOUSTON' and arrival_date between '2026-01-01' and '2026-03-31'"
        ).fetchone() or (0, 0)
    charleston = answers["and in Charleston?"]
    assert (
        charleston.answer
        == f"{count:,} shipments with port of unlading CHARLESTON and arrival date May 2026."
    )
    assert [r.reading for r in charleston.results] == [
        "number of shipments · port of unlading CHARLESTON · May 2026 (arrival date)"
    ]
    both = answers["TEU and average transit time into Houston last quarter"]
    assert both.answer == (
        f"Total TEU of the shipments with port of unlading HOUSTON and arrival date Q1 2026: "
        f"{teu:,}.\n\nAverage transit days of the shipments with port of unlading HOUSTON and "
        "arrival date "
        f"Q1 2026: {days:,.2f}."
    )
    assert [r.reading for r in both.results] == [
        "total TEU · port of unlading HOUSTON · Q1 2026 (arrival date)",
        "average transit days · port of unlading HOUSTON · Q1 2026 (arrival date)",
    ]
    distinct = answers["how many distinct carriers serve Savannah?"]
    assert (
        distinct.answer
        == f"{distinct.results[0].rows[0][0]} distinct carriers with port of unlading SAVANNAH."
    )


def test_a_page_and_a_follow_up_say_what_they_kept(answered: dict[str, Turn]) -> None:
    answers = {question: turn.answer for question, turn in answered.items()}
    assert (
        answers["show me more"].results[0].reading
        == "shipments · highest weight first · carrier MAERSK · port of unlading LOS ANGELES · page 2"
    )
    assert answers["only 40HC containers"].results[0].reading == (
        "total TEU · by shipper · top 5 by total TEU · port of unlading LONG BEACH · container "
        "type 40HC · "
        "2025 (arrival date)"
    )
