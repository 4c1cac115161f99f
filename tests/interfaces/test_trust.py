"""Issue 22 end to end: a question the data cannot answer is refused with its reason and what the
data can tell, never with a figure; a question with a word that changes its meaning, which Bosun did
not use, says so first."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bosun.conversation.session import Session
from tests.conftest import sample_session


@pytest.fixture(scope="module")
def session(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    yield from sample_session(data_dir, tmp_path_factory.mktemp("trust"))


@pytest.mark.parametrize(
    ("question", "why"),
    [
        ("what will arrivals into Savannah look like next quarter?", "forecasts"),
        ("why did TEU into Savannah drop in May?", "not why"),
        ("which line has the lowest freight rate?", "“freight rate”"),
        ("is Maersk a good carrier for Savannah?", "judgement"),
    ],
)
def test_a_refused_question_says_why_and_what_the_data_can_tell(
    session: Session, question: str, why: str
) -> None:
    answer = session.ask(question, f"refused-{why}")
    assert answer.results == [] or all(not r.rows for r in answer.results), answer.results
    assert why in answer.answer, answer.answer
    # the catalog's measures, offered
    assert "TEU" in answer.answer and "declared value" in answer.answer


def test_a_word_not_used_is_said_first(session: Session) -> None:
    answer = session.ask("Maersk TEU into the same ports as Cosco", "same")
    assert "the same" in answer.not_understood
    assert answer.answer.startswith("I did not understand"), answer.answer
    assert "the same" in answer.answer.split(".")[0]


def test_cumulative_is_not_a_plain_total(session: Session) -> None:
    answer = session.ask("cumulative TEU into Savannah by month this year", "cumulative")
    assert answer.not_understood == [] and answer.results[0].columns == [
        "period",
        "TEU",
        "running total",
    ]
    teu = [row[1] for row in answer.results[0].rows]
    assert [row[2] for row in answer.results[0].rows] == [
        sum(teu[: i + 1]) for i in range(len(teu))
    ]


def test_a_catalog_measure_is_answered_not_refused(session: Session) -> None:
    answer = session.ask("total declared value of Maersk shipments into Savannah in 2025", "value")
    assert answer.status == "done" and answer.results and answer.results[0].rows
    assert answer.not_understood == []
