"""A turn's model ledger: the tokens each node used, the per-turn budget, and what fell back to
rules.

One ledger per turn, handed to nodes in the run context. A node names itself for the calls it makes
(`with charged(ledger, "sg3"): ...`); the chat client reads that through a context variable, so a
backend shared by every thread of a session still bills the turn that called it. It lives outside
the llm package so that the planner and workers bill turns without loading the llm backend.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from pydantic import BaseModel

from bosun.errors import ModelFailure, TokenBudgetSpent


class Usage(BaseModel):
    """Tokens one node (or the whole turn) used, as the provider counted them (`usage_metadata`)."""

    input_tokens: int = 0
    output_tokens: int = 0
    calls: int = 0

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens

    def plus(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            calls=self.calls + other.calls,
        )


class TurnTokens(BaseModel):
    """The answer's `tokens`: the turn's total, its budget, and each node's share."""

    input_tokens: int
    output_tokens: int
    total: int
    budget: int
    by_node: dict[str, Usage]


@dataclass
class Ledger:
    """Thread-safe: the parallel branches of one round bill it at once."""

    budget: int
    by_node: dict[str, Usage] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # model answers refused and who answered instead
    fallen_back: set[str] = field(default_factory=set)  # the nodes whose rules took over this turn
    # why the model could not be reached: it is not asked again this turn
    unreachable: str | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, node: str, usage: Usage) -> None:
        with self._lock:
            self.by_node[node] = self.by_node.get(node, Usage()).plus(usage)

    def fall_back(self, who: str, text: str) -> None:
        """A model answer was refused: `who` (reading, plan, a writer) answered by rules, and the
        answer says so.

        Once the budget is used or the model is unreachable, it is asked nothing more and one note
        says so for every node.
        """
        note = self.stopped_note() or text
        with self._lock:
            self.fallen_back.add(who)
            if note not in self.notes:
                self.notes.append(note)

    @property
    def used(self) -> int:
        with self._lock:
            return sum(u.total for u in self.by_node.values())

    @property
    def spent(self) -> bool:
        return self.used >= self.budget

    def check(self) -> None:
        """Before a model call: once the budget is used or the model unreachable, it is asked
        nothing more."""
        note = self.stopped_note()
        if note is not None:
            raise (TokenBudgetSpent if self.spent else ModelFailure)(note)

    def stopped_note(self) -> str | None:
        if self.spent:
            return (
                f"This turn used its model token budget ({self.budget:,} tokens, "
                "BOSUN_LLM_TURN_TOKEN_BUDGET): "
                "the rules answered the rest of it, without the model."
            )
        if self.unreachable is not None:
            said = f"The chat model could not be reached ({self.unreachable})"
            return f"{said}: the rules answered this turn."
        return None

    def summary(self) -> TurnTokens:
        with self._lock:
            nodes = dict(self.by_node)
        total = Usage()
        for usage in nodes.values():
            total = total.plus(usage)
        return TurnTokens(
            input_tokens=total.input_tokens,
            output_tokens=total.output_tokens,
            total=total.total,
            budget=self.budget,
            by_node=nodes,
        )


_BILLED: ContextVar[tuple[Ledger, str] | None] = ContextVar("bosun_billed_node", default=None)


@contextmanager
def charged(ledger: Ledger | None, node: str) -> Iterator[None]:
    """Model calls made inside are billed to `node` of this turn's ledger (nothing when there is
    none)."""
    token = _BILLED.set((ledger, node) if ledger is not None else None)
    try:
        yield
    finally:
        _BILLED.reset(token)


def billed() -> tuple[Ledger, str] | None:
    """The ledger and node the current model call is billed to."""
    return _BILLED.get()


def fell_back(who: str, text: str) -> None:
    """A model answer was refused and the rules answered instead: the turn's answer says `text`."""
    charge = billed()
    if charge is not None:
        charge[0].fall_back(who, text)
