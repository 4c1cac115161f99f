"""The worker registry: stateless functions registered with what they consume and produce."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bosun.errors import ConfigError
from bosun.workers.models import GoalType, WorkerCapability, WorkerInput, WorkerResult

if TYPE_CHECKING:
    from bosun.workers.context import Context

WorkerFn = Callable[[WorkerInput, "Context"], WorkerResult]


@dataclass(frozen=True)
class RegisteredWorker:
    capability: WorkerCapability
    fn: WorkerFn


@dataclass
class Registry:
    """Workers by name; every output slot has exactly one producer."""

    workers: dict[str, RegisteredWorker] = field(default_factory=dict)

    def register(self, capability: WorkerCapability, fn: WorkerFn) -> None:
        if capability.name in self.workers:
            raise ConfigError(f"worker {capability.name!r} is registered twice")
        for slot in capability.produces:
            other = self.producer_of(slot)
            if other is not None:
                raise ConfigError(f"slot {slot!r} of worker {capability.name!r} is already produced by "
                                  f"{other.capability.name!r}")
        self.workers[capability.name] = RegisteredWorker(capability, fn)

    def producer_of(self, slot: str) -> RegisteredWorker | None:
        for registered in self.workers.values():
            if slot in registered.capability.produces:
                return registered
        return None

    def get(self, name: str) -> RegisteredWorker | None:
        return self.workers.get(name)

    def capabilities(self) -> list[WorkerCapability]:
        return [w.capability for w in self.workers.values()]


REGISTRY = Registry()


def worker(name: str, description: str, *, consumes: list[str], produces: list[str], goal_type: GoalType,
           preconditions: list[str] | None = None, reviews_empty: bool = False,
           registry: Registry = REGISTRY) -> Callable[[WorkerFn], WorkerFn]:
    """Register a stateless `(WorkerInput, Context) -> WorkerResult` function."""
    capability = WorkerCapability(name=name, description=description, consumes=consumes, produces=produces,
                                  goal_type=goal_type, preconditions=preconditions or [],
                                  reviews_empty=reviews_empty)

    def decorate(fn: WorkerFn) -> WorkerFn:
        registry.register(capability, fn)
        return fn

    return decorate
