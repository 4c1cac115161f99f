"""A turn's run context: the workers' dependencies, and what only the planner's nodes use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bosun.ledger import Ledger
from bosun.planner.rules import Planner, RulesPlanner
from bosun.understanding import PastTurn
from bosun.understanding.vectors import NameVectors
from bosun.workers.catalogue import default_registry
from bosun.workers.context import Context
from bosun.workers.models import Goal
from bosun.workers.registry import Registry

GoalsOf = Callable[[str, list[PastTurn]], list[Goal]]


def one_goal(question: str, history: list[PastTurn]) -> list[Goal]:
    """F01's fallback: the whole turn is one goal delivering an answer."""
    return [Goal(id=1, text=question, deliverables=["answer"])]


@dataclass(frozen=True)
class RunContext(Context):
    """What a turn runs with: F01's reader, F02's planner, the workers' registry, the turn's token
    ledger, and the name vectors the session's understanding resolves names with (MCP's name tool
    uses them too)."""

    registry: Registry = field(default_factory=default_registry)
    goals_of: GoalsOf = one_goal
    planner: Planner = field(default_factory=RulesPlanner)
    ledger: Ledger | None = None  # a chat model may be asked: the tokens each node used
    vectors: NameVectors | None = None
