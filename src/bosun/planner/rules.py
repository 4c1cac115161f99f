"""F02, rules implementation: plan each goal backwards from its deliverable slots through the
registry.

A goal needs each deliverable slot; the worker that produces a slot needs the slots it consumes,
each produced by another worker, and so on. Every sub-goal whose inputs are ready is proposed in the
same round, for every goal at once; a new registered worker is planned for with no change here.
A goal that builds on other goals (`inputs_from_goals`) takes the slots it consumes from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from bosun.planner.state import MainState, PlanDecision
from bosun.workers.models import Goal, InputRef, SubGoal
from bosun.workers.registry import Registry

DONE = ("success", "partial")


class Planner(Protocol):
    """What F02 does, whoever does it (these rules, or a chat model later)."""

    def plan(self, state: MainState, registry: Registry) -> PlanDecision: ...


class Blocked(Exception):
    """A goal cannot progress: a slot has no producer, or its producer failed for good."""


@dataclass
class _Plan:
    """Sub-goals proposed so far this round, numbered after the existing ones."""

    state: MainState
    registry: Registry
    added: list[SubGoal] = field(default_factory=list)

    @property
    def next_id(self) -> int:
        return max((s.id for s in [*self.state.sub_goals, *self.added]), default=0) + 1

    def latest(self, goal_id: int, slot: str) -> SubGoal | None:
        found = [
            s
            for s in [*self.state.sub_goals, *self.added]
            if s.goal_id == goal_id and slot in s.outputs
        ]
        return found[-1] if found else None

    def need(self, slot: str, goal: Goal) -> dict[str, InputRef] | None:
        """Refs to `slot` when it is available; otherwise plans what produces it and returns
        None."""
        if goal.inputs_from_goals and slot not in goal.deliverables:
            return self.from_goals(slot, goal)
        existing = self.latest(goal.id, slot)
        if existing is not None:
            if existing.status in DONE:
                return {slot: InputRef(from_sub_goal=existing.id, slot=slot)}
            if existing.status == "pending":
                return None
            raise Blocked(existing.error or existing.message or f"{existing.worker} failed")
        producer = self.registry.producer_of(slot)
        if producer is None:
            raise Blocked(f"no worker produces {slot!r}")
        inputs: dict[str, InputRef] = {}
        ready = True
        for consumed in producer.consumed(goal.params):
            refs = self.need(consumed, goal)
            ready = ready and refs is not None
            inputs.update(refs or {})
        if ready:
            cap = producer.capability
            self.added.append(
                SubGoal(
                    id=self.next_id,
                    goal_id=goal.id,
                    worker=cap.name,
                    inputs=inputs,
                    description=f"{cap.name}: {goal.text}",
                    params=goal.params,
                    outputs=list(cap.produces),
                    goal_type=cap.goal_type,
                )
            )
        return None

    def from_goals(self, slot: str, goal: Goal) -> dict[str, InputRef] | None:
        refs: dict[str, InputRef] = {}
        for other_id in goal.inputs_from_goals:
            found = self.latest(other_id, slot)
            if found is not None and found.status in DONE:
                refs[f"{slot}@{other_id}"] = InputRef(from_sub_goal=found.id, slot=slot)
            elif self.state.goal(other_id).status == "open":
                return None
        if not refs:
            raise Blocked(f"none of goals {goal.inputs_from_goals} delivered {slot!r}")
        return refs


class RulesPlanner:
    def plan(self, state: MainState, registry: Registry) -> PlanDecision:
        plan = _Plan(state, registry)
        blocked: dict[int, str] = {}
        for goal in (g for g in state.goals if g.status == "open"):
            try:
                for slot in goal.deliverables:
                    plan.need(slot, goal)
            except Blocked as reason:
                blocked[goal.id] = str(reason)
        running = any(s.status == "pending" for s in state.sub_goals)
        if plan.added or running:
            return PlanDecision(
                action="continue",
                sub_goals=plan.added,
                blocked=blocked,
                reasoning=f"{len(plan.added)} sub-goal(s) ready to run",
            )
        return _finish(state, blocked)


def synthesis_refs(state: MainState) -> dict[str, InputRef]:
    """Refs to every deliverable slot that some goal has delivered, keyed `goal:slot`."""
    refs: dict[str, InputRef] = {}
    for goal in state.goals:
        for slot in goal.deliverables:
            found = [
                s
                for s in state.sub_goals
                if s.goal_id == goal.id and slot in s.outputs and s.status in DONE
            ]
            if found:
                refs[f"{goal.id}:{slot}"] = InputRef(from_sub_goal=found[-1].id, slot=slot)
    return refs


def _finish(state: MainState, blocked: dict[int, str]) -> PlanDecision:
    refs = synthesis_refs(state)
    if not refs:
        return PlanDecision(
            action="failed", blocked=blocked, reasoning="no goal could be delivered"
        )
    return PlanDecision(
        action="done",
        synthesis_inputs=refs,
        blocked=blocked,
        reasoning="every goal is delivered or has failed",
    )
