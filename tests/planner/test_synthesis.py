"""F14 writes the whole answer inside the graph: the charts, the note about today and the taught
words are in the run's own answer and in its final state, before a session stores it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from bosun.catalog.taught import TaughtWord
from bosun.conversation.session import Session
from bosun.planner.context import RunContext, Taught
from bosun.planner.run import TurnOutcome, stream_turn
from bosun.understanding import AskedBack
from tests.conftest import sample_session

TODAY_NOTE = "today is taken as 15 Jun 2026, the last day in the data"


@pytest.fixture
def session(dev_data_dir: Path, tmp_path: Path) -> Iterator[Session]:
    yield from sample_session(dev_data_dir, tmp_path)


def _run(session: Session, question: str, context: RunContext) -> TurnOutcome:
    *_, outcome = stream_turn(session.graph, question, "f14", context, [])
    assert isinstance(outcome, TurnOutcome)
    return outcome


def test_the_runs_answer_has_its_chart_the_today_note_and_the_taught_words(
    session: Session,
) -> None:
    teacher = session.teacher
    assert teacher is not None
    teacher.teach(teacher.proposed("haul", "teu", by="ana"))
    context = replace(session.refreshed(), today_note=TODAY_NOTE, taught=teacher.for_turn([]))
    outcome = _run(session, "monthly haul in 2025", context)
    answer = outcome.answer
    taught_on = teacher.words[0].on[:10]
    assert answer.assumptions[-2:] == [
        TODAY_NOTE,
        f"“haul” read as teu — taught by ana on {taught_on}",
    ]
    chart = answer.results[0].chart
    assert chart is not None and chart["mark"]["type"] == "line"
    written = outcome.state.final_response
    assert written == answer.model_copy(update={"question": "", "thread_id": ""})


def test_a_turn_that_reads_no_time_word_says_nothing_about_today(session: Session) -> None:
    context = replace(session.context, today_note=TODAY_NOTE)
    answer = _run(session, "shipments by carrier", context).answer
    assert answer.status == "done" and TODAY_NOTE not in answer.assumptions


def test_a_pick_among_the_last_turns_options_is_counted_and_offered(session: Session) -> None:
    counted = []

    def remembered(term: str, pick: str) -> TaughtWord | None:
        counted.append((term, pick))
        return TaughtWord(kind="alias", word=term, target=pick, of="company")

    asked = AskedBack(term="Acme Corp", options=["ACME CORP LLC", "ACME CORPORATION"])
    context = replace(session.context, taught=Taught([], asked, remembered))
    answer = _run(session, "shipments from ACME CORP LLC to Houston", context).answer
    assert counted == [("Acme Corp", "ACME CORP LLC")]
    assert answer.answer.endswith("\n\nRemember that “Acme Corp” means ACME CORP LLC?")
    assert [(w.word, w.target) for w in answer.remember] == [("Acme Corp", "ACME CORP LLC")]
