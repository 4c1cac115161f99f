"""Events a turn emits while it runs, for live progress (`--verbose`) and tests."""

from __future__ import annotations

from typing import Literal

from langgraph.config import get_stream_writer
from pydantic import BaseModel, Field

EventKind = Literal[
    "goals", "round_started", "dispatched", "finished", "join", "gate", "done", "resumed"
]


class TurnEvent(BaseModel):
    kind: EventKind
    round: int = 0
    sub_goal_id: int | None = None
    worker: str | None = None
    title: str = Field("", description="dispatched: what the worker does, in a few words")
    status: str | None = None
    duration_ms: float | None = None
    message: str = ""
    inputs: dict[str, int] = Field(
        default_factory=dict, description="dispatched: input name → the sub-goal feeding it"
    )


def emit(event: TurnEvent) -> None:
    """Send an event to whoever streams the graph with stream_mode="custom" (no-op otherwise)."""
    try:
        writer = get_stream_writer()
    except RuntimeError:  # outside a graph run
        return
    writer(event)
