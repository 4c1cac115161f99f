"""Confirmed answers as the LLM backend's examples: the closest few reach the reading prompt,
bounded, as inert JSON, found in the name index's vector store; a new session finds them in the
store."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from bosun.chat import client as chat
from bosun.chat import load_prompts
from bosun.conversation.marking import mark_turn
from bosun.conversation.session import Session, open_session
from bosun.settings import Settings
from bosun.understanding.examples import MAX_EXAMPLES, MAX_LINE, MAX_TEXT
from bosun.understanding.llm import LLMUnderstanding
from tests.llm.scripted import DispatchFakeModel, prose

READING = load_prompts()["reading"].system[:40]
ASKED = [
    "How many shipments arrived in Houston last month?",
    "Top 5 carriers by TEU in 2025",
    "Average transit time by carrier from Shanghai to Los Angeles",
    "How many shipments are held?",
    "How many shipments arrived in Houston in 2025?",
]


def _talks(tool: str, messages: list[BaseMessage]) -> AIMessage:
    return prose()  # no reading: every turn falls back to the rules, and every prompt is kept


@pytest.fixture
def llm_settings(data_dir: Path, tmp_path: Path) -> Iterator[Settings]:
    (tmp_path / "bosun.duckdb").symlink_to(data_dir / "bosun.duckdb")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chat, "open_chat_model", lambda settings: DispatchFakeModel(script=_talks))
        yield Settings(
            data_dir=tmp_path, understanding="llm", llm_model="openai:scripted", llm_api_key="k"
        )


def _examples(session: Session, question: str) -> list[dict[str, Any]]:
    """Ask `question`; the examples its reading prompt carried, each parsed from its JSON line."""
    model: Any = session.context.understanding.client.model  # type: ignore[union-attr]
    model.seen.clear()
    session.ask(question, f"probe-{len(question)}")
    [human] = [str(m[1].content) for m in model.seen if str(m[0].content).startswith(READING)][:1]
    block = human.split("<examples>\n", 1)[1].split("\n</examples>", 1)[0]
    assert all(len(line) <= MAX_LINE for line in block.splitlines())
    return [] if block == "(none)" else [json.loads(line) for line in block.splitlines()]


def test_the_reading_prompt_carries_the_closest_confirmed_answers(llm_settings: Settings) -> None:
    session = open_session(llm_settings)
    understanding = session.context.understanding
    assert isinstance(understanding, LLMUnderstanding) and understanding.examples is not None
    assert (
        understanding.vectors is not None
        and understanding.examples.client is understanding.vectors.client
    )
    assert _examples(session, "How many shipments arrived in Houston in May 2026?") == []
    for n, question in enumerate(ASKED):
        session.ask(question, f"t{n}")
    for n in range(4):
        mark_turn(session, f"t{n}", None, True, "anna")
    mark_turn(session, "t4", 1, False, "bob", 1234, "count the held ones too " + "x" * 400)
    shown = _examples(session, "How many shipments arrived in Houston in May 2026?")
    assert len(shown) == MAX_EXAMPLES
    # the two Houston questions are the closest
    assert {e["question"] for e in shown} >= {ASKED[0], ASKED[4]}
    first = next(e for e in shown if e["question"] == ASKED[0])
    assert (
        first["confirmed"] == "right"
        and {"field": "port_of_unlading", "values": ["HOUSTON"]}.items()
        <= first["read_as"]["conditions"][0].items()
    )
    wrong = next(e for e in shown if e["question"] == ASKED[4])
    assert wrong["confirmed"] == "wrong" and wrong["correction"].startswith(
        "the figure should be 1234; count the held ones too xxx"
    )
    # cut, and said so
    assert len(wrong["correction"]) == MAX_TEXT + 1 and wrong["correction"].endswith("…")
    session.close()
    again = open_session(llm_settings)  # another process: the examples come from the store
    assert [
        e["question"]
        for e in _examples(again, "How many shipments arrived in Houston in May 2026?")
    ] == [e["question"] for e in shown]
    other = open_session(llm_settings)  # a third process marks an answer: the second one follows
    other.ask("How many shipments arrived in Houston in June 2026?", "t9")
    mark_turn(other, "t9", 1, True, "carl")
    other.close()
    newest = _examples(again, "How many shipments arrived in Houston in May 2026?")
    assert "How many shipments arrived in Houston in June 2026?" in [e["question"] for e in newest]
    again.close()
