"""The planner's state (seed 000's MainState) and the reducer that joins parallel branches."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, Field

from bosun.planner.answer import Answer
from bosun.understanding import PastTurn, Verdict
from bosun.workers.models import Goal, InputRef, Slot, SubGoal, WorkerResult

T = TypeVar("T")
Status = Literal["planning", "executing", "done", "failed"]


def worker_results_reducer(
    current: list[WorkerResult], update: list[WorkerResult] | None
) -> list[WorkerResult]:
    """Concatenate what parallel branches return; an empty update (from F13) clears the list."""
    if not update:
        return []
    return [*current, *update]


class PlanDecision(BaseModel):
    """F02's proposal for one round; the gates decide what of it runs."""

    action: Literal["continue", "done", "failed"]
    sub_goals: list[SubGoal] = Field(default_factory=list)
    synthesis_inputs: dict[str, InputRef] = Field(default_factory=dict)
    blocked: dict[int, str] = Field(
        default_factory=dict, description="goals that cannot progress, and why"
    )
    reasoning: str = ""


class TurnInput(BaseModel):
    """What a new turn starts the graph with: the human message and the thread's last turns."""

    question: str
    conversation_history: list[PastTurn] = Field(default_factory=list)


class MainState(BaseModel):
    question: str
    goals: list[Goal] = Field(default_factory=list)
    sub_goals: list[SubGoal] = Field(default_factory=list)
    completed_outputs: dict[int, dict[str, Any]] = Field(default_factory=dict)
    worker_results: Annotated[list[WorkerResult], worker_results_reducer] = Field(
        default_factory=list
    )
    round: int = 0
    max_rounds: int = 8
    status: Status = "planning"
    proposal: PlanDecision | None = None
    synthesis_inputs: dict[str, InputRef] | None = None
    planner_reasoning: str = ""
    notes: list[str] = Field(
        default_factory=list, description="what the gates decided, for the trace"
    )
    final_response: Answer | None = None
    conversation_history: list[PastTurn] = Field(default_factory=list)
    audits: list[Verdict] = Field(
        default_factory=list, description="the coverage audit's verdict on each goal's reading"
    )
    deadline: float | None = None

    def output(self, sub_goal_id: int, slot: Slot[T]) -> T | None:
        """What a finished sub-goal put in `slot`, typed; None when it put nothing there."""
        value = self.completed_outputs.get(sub_goal_id, {}).get(slot.name)
        return None if value is None else slot.read(value)

    def sub_goal(self, sub_goal_id: int) -> SubGoal:
        return next(s for s in self.sub_goals if s.id == sub_goal_id)

    def goal(self, goal_id: int) -> Goal:
        return next(g for g in self.goals if g.id == goal_id)
