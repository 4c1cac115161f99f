"""F02, LLM implementation: a chat model proposes each round as a structured decision.

The proposal passes the same plan gate as the rules planner's (`gates.validate_plan`: unknown
worker, bad InputRef, cycles, duplicates) plus the goals and slots it names; a refused plan gets one
retry with the problems, then the rules planner plans the rest of the turn and the answer says so.
The model only wires workers: each sub-goal's parameters (the validated Meaning) come from its goal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from bosun.chat import ChatClient
from bosun.errors import ModelFailure
from bosun.ledger import billed, fell_back
from bosun.planner import gates
from bosun.planner.rules import RulesPlanner
from bosun.planner.state import MainState, PlanDecision
from bosun.workers.models import GoalParams, InputRef, SubGoal
from bosun.workers.registry import Registry


class ModelInput(BaseModel):
    name: str = Field(description="the input's name, usually the slot's")
    from_sub_goal: int
    slot: str


class ModelSubGoal(BaseModel):
    id: int
    goal_id: int
    worker: str
    inputs: list[ModelInput] = Field(default_factory=list)


class ModelSynthesisInput(BaseModel):
    key: str = Field(description="goal_id:slot")
    from_sub_goal: int
    slot: str


class ModelPlan(BaseModel):
    action: Literal["continue", "done", "failed"]
    sub_goals: list[ModelSubGoal] = Field(default_factory=list)
    synthesis_inputs: list[ModelSynthesisInput] = Field(default_factory=list)
    reasoning: str = ""


@dataclass
class LLMPlanner:
    client: ChatClient
    rules: RulesPlanner

    def plan(self, state: MainState, registry: Registry) -> PlanDecision:
        charge = billed()
        if charge is not None and "plan" in charge[0].fallen_back:
            # refused once this turn: the rules plan the rest
            return self.rules.plan(state, registry)
        values = {
            "workers": _workers(registry),
            "goals": _goals(state),
            "sub_goals": _sub_goals(state),
        }
        try:
            asked = self.client.ask(
                "plan", ModelPlan, values, lambda p: self.check(p, state, registry)
            )
        except ModelFailure as exc:
            return self._fallback(state, registry, str(exc))
        if asked.value is None:
            return self._fallback(state, registry, "; ".join(asked.problems))
        return self._with_blocked(decision(asked.value, state, registry), state, registry)

    def _with_blocked(
        self, planned: PlanDecision, state: MainState, registry: Registry
    ) -> PlanDecision:
        """Why a goal the plan leaves cannot progress (its worker failed, and how) is a fact of the
        state, not the model's to tell: the rules planner finds it, so that the answer says it."""
        scheduled = {s.goal_id for s in planned.sub_goals}
        blocked = {
            g: why
            for g, why in self.rules.plan(state, registry).blocked.items()
            if g not in scheduled
        }
        return planned.model_copy(update={"blocked": blocked})

    def check(self, plan: ModelPlan, state: MainState, registry: Registry) -> list[str]:
        goals = {g.id for g in state.goals}
        problems = [
            f"sg{s.id}: unknown goal {s.goal_id}" for s in plan.sub_goals if s.goal_id not in goals
        ]
        if (
            plan.action == "continue"
            and not plan.sub_goals
            and not any(s.status == "pending" for s in state.sub_goals)
        ):
            problems.append("continue with no sub-goal to run")
        known = {s.id: s for s in state.sub_goals}
        for ref in plan.synthesis_inputs:
            source = known.get(ref.from_sub_goal)
            if (
                source is None
                or ref.slot not in source.outputs
                or source.status not in ("success", "partial")
            ):
                problems.append(
                    f"synthesis input {ref.key}: sg{ref.from_sub_goal} delivered no {ref.slot!r}"
                )
        return problems or gates.validate_plan(decision(plan, state, registry), state, registry)

    def _fallback(self, state: MainState, registry: Registry, why: str) -> PlanDecision:
        fell_back(
            "plan",
            f"The model's plan was not used ({why[:200]}); the rules planner planned this turn.",
        )
        return self.rules.plan(state, registry)


def decision(plan: ModelPlan, state: MainState, registry: Registry) -> PlanDecision:
    """The PlanDecision of a model's plan: each sub-goal takes its goal's parameters and its
    worker's slots."""
    goals = {g.id: g for g in state.goals}
    sub_goals = []
    for proposed in plan.sub_goals:
        registered = registry.get(proposed.worker)
        goal = goals.get(proposed.goal_id)
        sub_goals.append(
            SubGoal(
                id=proposed.id,
                goal_id=proposed.goal_id,
                worker=proposed.worker,
                description=f"{proposed.worker}: {goal.text if goal else ''}",
                params=goal.params if goal else GoalParams(),
                inputs={
                    i.name: InputRef(from_sub_goal=i.from_sub_goal, slot=i.slot)
                    for i in proposed.inputs
                },
                outputs=list(registered.capability.produces) if registered else [],
                goal_type=registered.capability.goal_type if registered else "support",
            )
        )
    refs = {
        r.key: InputRef(from_sub_goal=r.from_sub_goal, slot=r.slot) for r in plan.synthesis_inputs
    }
    return PlanDecision(
        action=plan.action, sub_goals=sub_goals, synthesis_inputs=refs, reasoning=plan.reasoning
    )


def _workers(registry: Registry) -> str:
    return "\n".join(
        f"- {c.name}: {', '.join(c.consumes) or '(nothing)'} → {', '.join(c.produces)}. "
        f"{c.description}"
        for c in registry.capabilities()
    )


def _goals(state: MainState) -> str:
    return "\n".join(
        json.dumps(
            {
                "id": g.id,
                "text": g.text,
                "deliverables": g.deliverables,
                "status": g.status,
                "after_goals": g.inputs_from_goals,
            },
            ensure_ascii=False,
        )
        for g in state.goals
    )


def _sub_goals(state: MainState) -> str:
    rows = [
        json.dumps(
            {
                "id": s.id,
                "goal_id": s.goal_id,
                "worker": s.worker,
                "status": s.status,
                "outputs": s.outputs,
                "inputs": {k: [r.from_sub_goal, r.slot] for k, r in s.inputs.items()},
                "error": s.error,
            },
            ensure_ascii=False,
        )
        for s in state.sub_goals
    ]
    return "\n".join(rows) or "(none yet)"
