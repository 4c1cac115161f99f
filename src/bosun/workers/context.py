"""The typed run context every worker and node receives (through LangGraph's runtime context)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from bosun.settings import Settings
from bosun.workers.models import Goal
from bosun.workers.registry import REGISTRY, Registry

GoalsOf = Callable[[str, list[Any]], list[Goal]]


def one_goal(question: str, history: list[Any]) -> list[Goal]:
    """F01's fallback: the whole turn is one goal delivering an answer."""
    return [Goal(id=1, text=question, deliverables=["answer"])]


@dataclass(frozen=True)
class Context:
    """Dependencies of a run: never module globals."""

    settings: Settings
    registry: Registry = field(default_factory=lambda: REGISTRY)
    goals_of: GoalsOf = one_goal
    today: Callable[[], date] = date.today
    engine: Any = None
    catalog: Any = None
    understanding: Any = None  # an Understanding (bosun.understanding); the rules backend by default
    vectors: Any = None
    objects: Any = None  # single business objects (an ObjectSource: GraphQL in-process or remote)
    extras: dict[str, Any] = field(default_factory=dict)
