"""Marking an answer right or wrong over the API: a write, so off loopback it needs the token like
every call. A mark records who made it from the request's identity (`interfaces.identity`), never
from its body."""

from __future__ import annotations

from fastapi import Depends, FastAPI
from pydantic import BaseModel, Field

from bosun.conversation.marking import mark_turn
from bosun.conversation.marks import MAX_CORRECTION, Mark, MarkStore
from bosun.conversation.session import Session
from bosun.errors import UnknownTurn
from bosun.interfaces import identity, owners
from bosun.interfaces.api.errors import ApiError
from bosun.interfaces.identity import Identity
from bosun.interfaces.owners import Requester


class MarkRequest(BaseModel):
    right: bool = Field(description="whether the answer is right")
    figure: float | None = Field(
        None, allow_inf_nan=False, description="the figure it should have given"
    )
    correction: str = Field("", max_length=MAX_CORRECTION, description="what was wrong, in words")


def install(app: FastAPI, session: Session) -> None:
    asking = Depends(owners.dependency(session.context.settings))
    naming = Depends(identity.dependency(session.context.settings))

    @app.post("/threads/{thread_id}/turns/{turn}/mark", response_model=Mark, tags=["turns"])
    def mark(
        thread_id: str,
        turn: int,
        request: MarkRequest,
        who: Requester = asking,
        marker: Identity = naming,
    ) -> Mark:
        """Mark the thread's turn (numbered from 1) right or wrong, with an optional correction; the
        last mark of a turn wins. Marked answers feed `bosun eval export` and the llm backend's
        examples."""
        owners.readable(session.store, thread_id, who)
        try:
            return mark_turn(
                session,
                thread_id,
                turn,
                request.right,
                marker.name,
                request.figure,
                request.correction,
            )
        except UnknownTurn as exc:
            raise ApiError(404, "unknown_turn", str(exc)) from None

    @app.get("/threads/{thread_id}/marks", response_model=list[Mark], tags=["turns"])
    def marks(thread_id: str, who: Requester = asking) -> list[Mark]:
        """The thread's marked turns, oldest mark first."""
        return MarkStore(session.store).marks(owners.readable(session.store, thread_id, who))
