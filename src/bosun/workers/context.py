"""The typed dependencies every worker receives (through LangGraph's runtime context)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from bosun.settings import Settings

if TYPE_CHECKING:
    from bosun.catalog import Catalog
    from bosun.engines.graphql.objects import ObjectSource
    from bosun.engines.guardrails import GuardedEngine
    from bosun.understanding import Understanding

# A session sets every dependency; the planner's own tests run workers that need none of them.
_UNSET: Any = None


@dataclass(frozen=True)
class Context:
    """Dependencies of a run: never module globals."""

    settings: Settings
    today: Callable[[], date] = date.today
    engine: GuardedEngine = _UNSET
    catalog: Catalog = _UNSET
    understanding: Understanding = _UNSET  # the rules backend by default
    objects: ObjectSource = _UNSET  # single business objects: GraphQL in-process or remote
