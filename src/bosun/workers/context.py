"""The typed run context every worker and node receives (through LangGraph's runtime context)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from bosun.settings import Settings
from bosun.workers.models import Goal
from bosun.workers.registry import REGISTRY, Registry

if TYPE_CHECKING:
    from bosun.catalog import Catalog
    from bosun.engines.graphql.objects import ObjectSource
    from bosun.engines.guardrails import GuardedEngine
    from bosun.understanding import Understanding
    from bosun.understanding.vectors import NameVectors

GoalsOf = Callable[[str, list[Any]], list[Goal]]
# A session sets every dependency; the planner's own tests run workers that need none of them.
_UNSET: Any = None


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
    engine: GuardedEngine = _UNSET
    catalog: Catalog = _UNSET
    understanding: Understanding = _UNSET  # the rules backend by default
    vectors: NameVectors | None = None
    objects: ObjectSource = _UNSET  # single business objects: GraphQL in-process or remote
    extras: dict[str, Any] = field(default_factory=dict)
