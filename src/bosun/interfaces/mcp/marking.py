"""The MCP tool that marks an answer right or wrong: it writes a mark (never data), so it is not
read-only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from mcp.server.mcpserver import Context
from pydantic import Field

from bosun.conversation.marking import mark_turn
from bosun.conversation.marks import MAX_CORRECTION, Mark
from bosun.conversation.session import Session
from bosun.interfaces import owners
from bosun.interfaces.identity import of_call


def mark_tool(session: Session) -> Callable[..., Mark]:
    def mark_answer(
        thread_id: Annotated[
            str, Field(description="the answer's thread_id, as `ask` returned it")
        ],
        right: Annotated[bool, Field(description="whether the answer is right")],
        turn: Annotated[
            int | None,
            Field(
                ge=1,
                description="the turn's number on the thread, from 1; default "
                "the thread's last answer",
            ),
        ] = None,
        figure: Annotated[
            float | None,
            Field(allow_inf_nan=False, description="the figure it should have given, when wrong"),
        ] = None,
        correction: Annotated[
            str, Field(max_length=MAX_CORRECTION, description="what was wrong, in words")
        ] = "",
        ctx: Context | None = None,
    ) -> Mark:
        """Mark an answer right or wrong, with an optional correction (the last mark of a turn
        wins). Marked answers become the deployment's evaluation set (`bosun eval export`) and
        examples for its model."""
        owners.readable(session.store, thread_id, owners.current())
        who = of_call(ctx, session.context.settings).name  # the call's identity, never an argument
        return mark_turn(session, thread_id, turn, right, who, figure, correction)

    return mark_answer
