"""Running turns: the durable checkpointer, one thread per conversation, events and the answer."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Generator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.types import Command, Durability, StreamMode
from pydantic import BaseModel

from bosun.errors import StoreError
from bosun.ledger import Ledger
from bosun.planner.answer import Answer, Trace, trace_of
from bosun.planner.checkpoints import ChannelSqliteSaver
from bosun.planner.context import RunContext
from bosun.planner.events import TurnEvent
from bosun.planner.graph import Graph
from bosun.planner.state import MainState, TurnInput
from bosun.planner.synthesis import finished
from bosun.settings import redacted
from bosun.storage import open_sqlite, problem
from bosun.understanding import PastTurn
from bosun.workers.models import Clarification

_PAUSE = "__interrupt__"  # the channel LangGraph records a pause in, and the stream's key for it


def _bosun_models() -> list[tuple[str, str]]:
    """Every pydantic model Bosun defines: the only classes a checkpoint may hold."""
    found, stack = set(), list(BaseModel.__subclasses__())
    while stack:
        cls = stack.pop()
        stack += cls.__subclasses__()
        if cls.__module__.startswith("bosun.") and cls.__module__ in sys.modules:
            found.add((cls.__module__, cls.__name__))
    return sorted(found)


class ScrubbingSerializer(JsonPlusSerializer):
    """LangGraph's serializer with every known secret masked in what it writes.

    Each secret's bytes become as many asterisks, so lengths inside the msgpack encoding stay valid;
    a checkpoint never stores a password that reached a message or a state value.
    """

    def __init__(self, secrets: list[str]) -> None:
        super().__init__(allowed_msgpack_modules=_bosun_models())
        self._secrets = [s.encode() for s in secrets]

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        kind, data = super().dumps_typed(obj)
        for secret in self._secrets:
            data = data.replace(secret, b"*" * len(secret))
        return kind, data


def open_checkpointer(path: Path, secrets: list[str] | None = None) -> ChannelSqliteSaver:
    """LangGraph's SQLite checkpointer in a file, checked on open; a damaged, full or read-only file
    is a StoreError."""
    conn = open_sqlite(path, "checkpoint store")
    try:
        # a checkpoint per step: sync at WAL checkpoints only
        conn.execute("PRAGMA synchronous=NORMAL")
        saver = ChannelSqliteSaver(conn, serde=ScrubbingSerializer(secrets or []))
        saver.setup()
    except sqlite3.Error as exc:
        conn.close()
        raise problem(path, "checkpoint store", exc) from None
    return saver


def memory_checkpointer(secrets: list[str] | None = None) -> ChannelSqliteSaver:
    """Checkpoints in memory only: for a session whose data directory cannot be written."""
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    saver = ChannelSqliteSaver(conn, serde=ScrubbingSerializer(secrets or []))
    saver.setup()
    return saver


def open_postgres_checkpointer(url: str) -> Any:
    """LangGraph's Postgres checkpointer (the `postgres` extra) on one connection; unreachable is a
    StoreError."""
    try:
        import psycopg
        from langgraph.checkpoint.postgres import PostgresSaver
        from psycopg.rows import dict_row
    except ImportError:
        raise StoreError(
            "a postgresql:// checkpoint URL needs the postgres extra: pip install "
            "'bosun-bi[postgres]'"
        ) from None
    try:
        conn = psycopg.connect(url, autocommit=True, prepare_threshold=0, row_factory=dict_row)
        saver = PostgresSaver(conn, serde=ScrubbingSerializer([]))
        saver.setup()
    except psycopg.Error as exc:
        raise StoreError(
            f"the conversation store at {redacted(url)} cannot be used: {str(exc).splitlines()[0]}"
        ) from None
    return saver


@dataclass(frozen=True)
class TurnOutcome:
    """How one run of the graph ended: its answer and the turn's own last state.

    The state is read from the run rather than from the thread's latest checkpoint, which another
    process may have written since; `paused` says the turn waits inside the graph for a reply
    (interrupt mode), so its checkpoints are kept.
    """

    answer: Answer
    state: MainState
    paused: bool = False


def _config(thread_id: str, context: RunContext) -> RunnableConfig:
    return {
        "configurable": {"thread_id": thread_id},
        "max_concurrency": context.settings.max_parallel_workers,
    }


def stream_turn(
    graph: Graph,
    question: str,
    thread_id: str,
    context: RunContext,
    history: list[PastTurn] | None = None,
    durability: Durability | None = None,
    progress: bool = True,
) -> Iterator[TurnEvent | TurnOutcome]:
    """Events while the turn runs, then its TurnOutcome; a turn paused for a clarification resumes
    with this reply.

    `durability` is LangGraph's: "async" (its default) checkpoints every step (a killed turn resumes
    where it stopped, `resume_turn`), "exit" only the turn's end or pause, for a caller that runs a
    killed turn again from its question. Without `progress` no event is streamed: LangGraph then
    runs a step's lone task in the calling thread instead of handing each step to its thread pool
    and waiting there for events.
    """
    config = _config(thread_id, context)
    context, ledger = _with_ledger(context)
    payload: Command[Any] | TurnInput = (
        Command(resume=question)
        if _paused(graph, config)
        else TurnInput(question=question, conversation_history=history or [])
    )
    values = yield from _stream(graph, payload, thread_id, context, durability, progress)
    outcome = _outcome(values, question, thread_id, context)
    yield replace(outcome, answer=_billed(outcome.answer, ledger))


def _with_ledger(context: RunContext) -> tuple[RunContext, Ledger | None]:
    """A fresh token ledger for this turn, when a chat model may be asked (the llm backend)."""
    if context.settings.understanding != "llm":
        return context, None
    ledger = Ledger(context.settings.llm_turn_token_budget)
    return replace(context, ledger=ledger), ledger


def _billed(answer: Answer, ledger: Ledger | None) -> Answer:
    """The answer with the turn's tokens, in total and per sub-goal (what the rules answered
    instead, the answer says itself)."""
    if ledger is None:
        return answer
    tokens = ledger.summary()
    entries = [
        e.model_copy(update={"tokens": tokens.by_node.get(f"sg{e.id}")})
        for e in answer.trace.sub_goals
    ]
    trace = answer.trace.model_copy(update={"sub_goals": entries})
    return answer.model_copy(update={"tokens": tokens, "trace": trace})


def _paused(graph: Graph, config: RunnableConfig) -> bool:
    """Whether the thread waits at a pause: its last checkpoint holds one (read without rebuilding
    the state)."""
    saver = graph.checkpointer
    last = saver.get_tuple(config) if isinstance(saver, BaseCheckpointSaver) else None
    return last is not None and any(
        channel == _PAUSE for _, channel, _ in last.pending_writes or ()
    )


def _outcome(
    values: dict[str, Any], question: str, thread_id: str, context: RunContext
) -> TurnOutcome:
    """The run's answer from its last state: F14's, or one finished as F14 finishes its own when
    the turn paused (the stream says where, so the state is not read again) or stopped short."""
    state = MainState.model_validate({"question": question, **values})
    pending = values.get(_PAUSE, ())
    if pending:
        asked = _asked(pending[0].value, state, question, thread_id)
        return TurnOutcome(finished(asked, state, context), state, paused=True)
    answer = _answer(state, question, thread_id)
    if state.final_response is None:
        answer = finished(answer, state, context)
    return TurnOutcome(answer, state)


def _asked(value: dict[str, Any], state: MainState, question: str, thread_id: str) -> Answer:
    """The answer of a turn paused inside the graph (interrupt mode): the question and its
    options."""
    asked = Clarification.model_validate(value)
    return Answer(
        question=question,
        thread_id=thread_id,
        status="needs_clarification",
        answer=asked.text,
        clarification=asked,
        trace=trace_of(state.sub_goals, state.notes, state.audits),
    )


def resume_turn(graph: Graph, thread_id: str, context: RunContext) -> Answer:
    """Finish a turn interrupted mid-way (a killed process) from its last checkpoint."""
    *_, outcome = _resumed(graph, thread_id, context)
    assert isinstance(outcome, TurnOutcome)
    return outcome.answer


def _resumed(
    graph: Graph, thread_id: str, context: RunContext
) -> Iterator[TurnEvent | TurnOutcome]:
    values = yield from _stream(graph, None, thread_id, context)
    state = MainState.model_validate({"question": "", **values})
    yield TurnOutcome(_answer(state, state.question, thread_id), state)


def forget_finished(graph: Graph, thread_id: str, outcome: TurnOutcome) -> None:
    """Drop a finished turn's checkpoints: resuming needs none, and memory lives in the turn store.

    A turn paused inside the graph (interrupt mode) keeps its checkpoints, as its reply resumes
    them.
    """
    saver = graph.checkpointer
    if isinstance(saver, BaseCheckpointSaver) and not outcome.paused:
        saver.delete_thread(thread_id)


def run_turn(
    graph: Graph,
    question: str,
    thread_id: str,
    context: RunContext,
    history: list[PastTurn] | None = None,
) -> Answer:
    *_, outcome = stream_turn(graph, question, thread_id, context, history, progress=False)
    assert isinstance(outcome, TurnOutcome)
    return outcome.answer


def _stream(
    graph: Graph,
    payload: Command[Any] | TurnInput | None,
    thread_id: str,
    context: RunContext,
    durability: Durability | None = None,
    progress: bool = True,
) -> Generator[TurnEvent, None, dict[str, Any]]:
    """Yield custom events (with `progress`); return the last full state LangGraph streamed."""
    config = _config(thread_id, context)
    modes: list[StreamMode] = ["custom", "values"] if progress else ["values"]
    values: dict[str, Any] = {}
    for mode, chunk in graph.stream(
        payload, config, context=context, stream_mode=modes, durability=durability
    ):
        if mode == "custom" and isinstance(chunk, TurnEvent):
            yield chunk
        elif mode == "values" and isinstance(chunk, dict):
            values = chunk
    return values


def _answer(state: MainState, question: str, thread_id: str) -> Answer:
    final = state.final_response
    if final is None:
        return Answer(
            question=question,
            thread_id=thread_id,
            status="failed",
            answer="The turn stopped before it finished.",
            trace=Trace(rounds=0, sub_goals=[]),
        )
    return final.model_copy(update={"question": question, "thread_id": thread_id})


def render_trace_mermaid(trace: Trace) -> str:
    """The sub-goal DAG as Mermaid text: one subgraph per round, edges for InputRefs."""
    lines = ["flowchart LR"]
    for round_no in sorted({e.round or 0 for e in trace.sub_goals}):
        lines.append(f"    subgraph Round_{round_no}")
        for e in (e for e in trace.sub_goals if (e.round or 0) == round_no):
            duration = f" {e.duration_ms:.0f} ms" if e.duration_ms is not None else ""
            lines.append(f'        SG{e.id}["sg{e.id}: {e.worker}<br/>{e.status}{duration}"]')
        lines.append("    end")
    for e in trace.sub_goals:
        for name, source in e.inputs.items():
            lines.append(f"    SG{source.split('.')[0][2:]} -->|{name}| SG{e.id}")
    return "\n".join(lines)
