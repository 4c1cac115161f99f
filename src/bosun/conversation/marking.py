"""Marking a turn of a session: the mark stored, and the LLM backend's examples read again."""

from __future__ import annotations

from bosun.conversation.marks import Mark, MarkStore
from bosun.conversation.session import Session
from bosun.errors import UnknownTurn
from bosun.understanding.llm import LLMUnderstanding


def mark_turn(
    session: Session,
    thread_id: str,
    turn: int | None,
    right: bool,
    by: str,
    figure: float | None = None,
    correction: str = "",
) -> Mark:
    """Mark a turn (None: the thread's last) of the session's store; the LLM backend's examples
    follow."""
    marks = MarkStore(session.store)
    if turn is None:
        last = session.store.recent(thread_id, 1)
        if not last:
            raise UnknownTurn(f"thread {thread_id!r} has no answered turn to mark")
        turn = last[0].turn_id
    mark = marks.mark(thread_id, turn, right, by, figure, correction)
    understanding = session.context.understanding
    if isinstance(understanding, LLMUnderstanding) and understanding.examples is not None:
        # read again on the next question, even within the same second
        understanding.examples.forget()
    return mark
