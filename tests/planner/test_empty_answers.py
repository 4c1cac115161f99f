"""A figure over no records is no answer: it is said as not available, never "None", and the
review gate says which filter emptied it, in the catalog's words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bosun.conversation.session import Session
from tests.conftest import sample_session

EMPTIED = "No records matched. Dropping any one of these filters would find some: arrival date"


@pytest.fixture
def session(dev_data_dir: Path, tmp_path: Path) -> Iterator[Session]:
    yield from sample_session(dev_data_dir, tmp_path)


@pytest.mark.parametrize(
    "question",
    [
        "average TEU in 2019",
        "longest transit time from Busan in 2019",
        "average TEU per carrier in 2019",
    ],
)
def test_a_figure_over_a_year_the_data_lacks_says_what_emptied_it(
    session: Session, question: str
) -> None:
    answer = session.ask(question, "empty")
    assert answer.status == "done", answer.answer
    assert "None" not in answer.answer and "n/a" in answer.answer
    assert EMPTIED in answer.answer
    assert "arrival_date" not in answer.answer


def test_a_count_over_no_records_is_an_answer_of_zero(session: Session) -> None:
    answer = session.ask("how many shipments in 2019", "zero")
    assert answer.answer.startswith("0 shipments")
    assert "No records matched" not in answer.answer
