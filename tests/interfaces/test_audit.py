"""Issue 34 end to end: a data answer is never `done` with an empty `not_understood` while a content
word of the question is neither read nor reported, whichever reader wrote the reading.

A careless reader stands in for any backend (a chat model, a rebuilt reader): it reads with the
rules and then loses one part of the reading. The graph's audit node must catch it: the answer says
the words first, lists them in `not_understood`, and its trace carries the verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from bosun.conversation.goals import goals_for
from bosun.conversation.session import Session
from bosun.understanding import Meaning, PastTurn
from bosun.understanding.rules import RulesUnderstanding
from bosun.workers.models import Goal
from tests.conftest import sample_session

Loss = Callable[[Meaning], Meaning]


@pytest.fixture(scope="module")
def session(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    yield from sample_session(data_dir, tmp_path_factory.mktemp("audit"))


def _careless(session: Session, loss: Loss) -> Session:
    """The session with a reader that reads as the rules do, then loses what `loss` takes."""
    assert isinstance(session.context.understanding, RulesUnderstanding)
    read = goals_for(session.context.understanding, session.context.today())

    def goals_of(question: str, history: list[PastTurn]) -> list[Goal]:
        goals = read(question, history)
        for goal in goals:
            if goal.params.meaning is not None:
                goal.params.meaning = loss(goal.params.meaning)
        return goals

    return replace(session, context=replace(session.context, goals_of=goals_of), teacher=None)


def _without_filter(field: str) -> Loss:
    return lambda m: m.model_copy(
        update={"conditions": [c for c in m.conditions if c.field != field]}
    )


def _as_year_2000(meaning: Meaning) -> Meaning:
    assert meaning.time is not None
    year = meaning.time.model_copy(
        update={"start": date(2000, 1, 1), "end": date(2000, 12, 31), "text": "2000"}
    )
    return meaning.model_copy(update={"time": year, "steps": []})


@pytest.mark.parametrize(
    ("question", "loss", "words"),
    [
        ("reefer TEU into Savannah in 2025", _without_filter("container_type"), ["reefer"]),
        ("TEU into Savannah by carrier in 2025", _without_filter("port_of_unlading"), ["Savannah"]),
        ("ports with more than 500 shipments last year", _as_year_2000, ["more than 500"]),
    ],
    ids=["a value", "a name", "a quantity"],
)
def test_a_reading_that_loses_a_word_is_answered_with_it_said(
    session: Session, question: str, loss: Loss, words: list[str]
) -> None:
    answer = _careless(session, loss).ask(question, f"audit-{words[0]}")
    assert answer.status == "done"
    assert set(words) <= set(answer.not_understood), answer.not_understood
    assert answer.answer.startswith("I could not read"), answer.answer
    verdict = answer.trace.audits[0]
    assert not verdict.approved and set(words) <= {u.words for u in verdict.unexplained}


def test_a_reading_that_holds_every_word_is_approved(session: Session) -> None:
    answer = session.ask("reefer TEU into Savannah by carrier in 2025", "audit-right")
    assert answer.status == "done" and answer.not_understood == []
    assert [v.approved for v in answer.trace.audits] == [True]
    assert answer.results and answer.results[0].rows
