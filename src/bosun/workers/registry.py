"""Workers and their registry: stateless functions described by the slots they consume and produce.

`@worker(...)` only describes a function; a registry is built from workers explicitly
(`workers.catalogue.default_registry` lists the session's own).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bosun.errors import ConfigError
from bosun.workers.context import Context
from bosun.workers.models import (
    GoalParams,
    GoalType,
    Slot,
    WorkerCapability,
    WorkerInput,
    WorkerResult,
)

WorkerFn = Callable[[WorkerInput, Context], WorkerResult]
Applies = Callable[[GoalParams], bool]


@dataclass(frozen=True)
class Worker:
    """A stateless function with its capability and the typed slots it produces."""

    capability: WorkerCapability
    fn: WorkerFn
    produces: tuple[Slot[Any], ...] = ()
    consumes_if: tuple[tuple[Slot[Any], Applies], ...] = ()  # inputs needed only by some goals

    def consumed(self, params: GoalParams) -> list[str]:
        """The slots this worker needs for a goal: those it always consumes, then those the goal
        calls for (es_query_gen needs the keys of a linked object only when the goal filters on
        one)."""
        return [
            *self.capability.consumes,
            *(slot.name for slot, applies in self.consumes_if if applies(params)),
        ]

    def problems(self, result: WorkerResult) -> list[str]:
        """What of a result does not fill the slots this worker declares, with their types."""
        declared = {slot.name: slot for slot in self.produces}
        found = [
            f"{self.capability.name} produced {name!r}, a slot it does not declare"
            for name in result.outputs
            if name not in declared
        ]
        for name, value in result.outputs.items():
            problem = declared[name].problem(value) if name in declared else None
            found += [f"{self.capability.name}: {problem}"] if problem else []
        return found


@dataclass
class Registry:
    """Workers by name; every output slot has exactly one producer."""

    workers: dict[str, Worker] = field(default_factory=dict)

    @classmethod
    def of(cls, *workers: Worker) -> Registry:
        """A registry of these workers, in this order."""
        registry = cls()
        for described in workers:
            registry.register(described)
        return registry

    def register(self, worker: Worker) -> None:
        capability = worker.capability
        if capability.name in self.workers:
            raise ConfigError(f"worker {capability.name!r} is registered twice")
        for slot in capability.produces:
            other = self.producer_of(slot)
            if other is not None:
                raise ConfigError(
                    f"slot {slot!r} of worker {capability.name!r} is already produced by "
                    f"{other.capability.name!r}"
                )
        self.workers[capability.name] = worker

    def producer_of(self, slot: str) -> Worker | None:
        for registered in self.workers.values():
            if slot in registered.capability.produces:
                return registered
        return None

    def get(self, name: str) -> Worker | None:
        return self.workers.get(name)

    def capabilities(self) -> list[WorkerCapability]:
        return [w.capability for w in self.workers.values()]


def worker(
    name: str,
    description: str,
    *,
    consumes: Sequence[Slot[Any]],
    produces: Sequence[Slot[Any]],
    goal_type: GoalType,
    title: str = "",
    preconditions: list[str] | None = None,
    reviews_empty: bool = False,
    consumes_if: Sequence[tuple[Slot[Any], Applies]] = (),
) -> Callable[[WorkerFn], Worker]:
    """Describe a stateless `(WorkerInput, Context) -> WorkerResult` function as a Worker with its
    typed slots (a registry lists it; describing registers nothing); `consumes_if`: slots it
    consumes only for the goals a test on the goal's parameters accepts; `title` says what it does
    in a few words, as the page's plan shows it."""
    capability = WorkerCapability(
        name=name,
        description=description,
        title=title or name.replace("_", " "),
        consumes=[s.name for s in consumes],
        produces=[s.name for s in produces],
        goal_type=goal_type,
        preconditions=preconditions or [],
        reviews_empty=reviews_empty,
        consumes_if=[s.name for s, _ in consumes_if],
    )

    def describe(fn: WorkerFn) -> Worker:
        return Worker(capability, fn, tuple(produces), tuple(consumes_if))

    return describe
