"""Running a turn for the API: in a worker thread, answered whole or streamed as Server-Sent
Events."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from datetime import date
from typing import Any

import anyio

from bosun.conversation.session import Session
from bosun.errors import BosunError, RunFailure
from bosun.interfaces.api.errors import ApiError, status_of
from bosun.planner.answer import Answer
from bosun.planner.events import TurnEvent

log = logging.getLogger("bosun.api")
_END = object()


async def answer_of(session: Session, question: str, thread_id: str, as_of: date | None) -> Answer:
    """The turn's answer; a failed turn whose engine is down is a 503."""
    answer = await anyio.to_thread.run_sync(_last, session, question, thread_id, as_of)
    if answer.status == "failed" and (
        down := await anyio.to_thread.run_sync(engine_problem, session)
    ):
        raise ApiError(503, "engine_unavailable", down)
    return answer


def _last(session: Session, question: str, thread_id: str, as_of: date | None) -> Answer:
    *_, answer = session.stream(question, thread_id, as_of, progress=False)
    assert isinstance(answer, Answer)
    return answer


def engine_problem(session: Session) -> str | None:
    """Why the engine cannot answer now (unreachable, timing out), or None when it can."""
    try:
        session.context.engine.count(session.context.catalog.record.index)
    except RunFailure as exc:
        return str(exc)
    return None


async def sse_of(
    session: Session, question: str, thread_id: str, as_of: date | None
) -> AsyncIterator[str]:
    """The turn's events as SSE while it runs in a worker thread, then `clarification` (if any) and
    `answer`."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Any] = asyncio.Queue()

    def produce() -> None:
        try:
            for item in session.stream(question, thread_id, as_of):
                loop.call_soon_threadsafe(queue.put_nowait, item)
        except Exception as exc:  # handed to the stream, which reports it as an error event
            loop.call_soon_threadsafe(queue.put_nowait, exc)
        finally:
            loop.call_soon_threadsafe(queue.put_nowait, _END)

    # the turn runs to its end even if the client goes away: its answer is still stored on the
    # thread
    running = asyncio.ensure_future(anyio.to_thread.run_sync(produce))
    while (item := await queue.get()) is not _END:
        for kind, data in _frames(item, session):
            yield f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
    await running


def _frames(item: Any, session: Session) -> list[tuple[str, dict[str, Any]]]:
    if isinstance(item, TurnEvent):
        return [(item.kind, item.model_dump(mode="json"))]
    if isinstance(item, Answer):
        body = item.model_dump(mode="json")
        asked = [("clarification", body["clarification"])] if item.clarification else []
        return [*asked, *_failed(session, item), ("answer", body)]
    if isinstance(item, BosunError):
        return [("error", {"error": status_of(item)[1], "detail": str(item)})]
    log.error("unexpected error in a streamed turn", exc_info=item)
    return [
        (
            "error",
            {
                "error": "internal",
                "detail": f"an unexpected {type(item).__name__}; see the server log",
            },
        )
    ]


def _failed(session: Session, answer: Answer) -> list[tuple[str, dict[str, Any]]]:
    """An error frame when a failed turn's engine is down, or refuses the caller's credentials."""
    if answer.status != "failed":
        return []
    try:
        down = engine_problem(session)
    except BosunError as exc:  # the caller's credentials refused (BOSUN_ENGINE_AUTH=caller)
        return [("error", {"error": status_of(exc)[1], "detail": str(exc)})]
    return [("error", {"error": "engine_unavailable", "detail": down})] if down else []
