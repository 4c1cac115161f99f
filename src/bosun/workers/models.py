"""The data models of seed 000's class diagram that workers and the planner share."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

GoalType = Literal["support", "deliverable"]
SubGoalStatus = Literal["pending", "success", "partial", "failed"]
ResultStatus = Literal["success", "partial", "failed"]


class InputRef(BaseModel):
    """A pointer from one sub-goal's input to another sub-goal's output slot."""

    from_sub_goal: int
    slot: str


class Goal(BaseModel):
    """One standalone goal of a turn, as F01 restates it, and the slots that deliver it."""

    id: int
    text: str
    deliverables: list[str]
    params: dict[str, Any] = Field(default_factory=dict)
    inputs_from_goals: list[int] = Field(default_factory=list, description="goals whose deliverables feed this one")
    status: Literal["open", "done", "failed"] = "open"
    error: str | None = None
    reviewed: bool = False


class SubGoal(BaseModel):
    """One unit of work: a worker, its wired inputs, and what became of it."""

    id: int
    goal_id: int
    worker: str
    description: str
    inputs: dict[str, InputRef] = Field(default_factory=dict)
    params: dict[str, Any] = Field(default_factory=dict)
    outputs: list[str] = Field(default_factory=list)
    goal_type: GoalType = "support"
    status: SubGoalStatus = "pending"
    round: int | None = None
    attempts: int = 0
    duration_ms: float | None = None
    result: dict[str, Any] | None = None
    error: str | None = None
    message: str | None = None


class WorkerInput(BaseModel):
    sub_goal: SubGoal
    resolved_inputs: dict[str, Any] = Field(default_factory=dict)
    deadline: float | None = Field(None, description="the turn's deadline, seconds since the epoch")


class WorkerResult(BaseModel):
    """What a worker returns; F03 fills duration and wraps exceptions as failed results."""

    sub_goal_id: int
    status: ResultStatus
    outputs: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    message: str | None = None
    transient: bool = Field(False, description="a failure worth one retry (timeout, engine hiccup)")
    empty: bool = Field(False, description="the result holds no data: the review gate may diagnose it")
    needs: str | None = Field(None, description="a slot the goal now needs instead, e.g. a clarification")
    duration_ms: float = 0.0


class WorkerCapability(BaseModel):
    """A registry entry: what a worker consumes and produces, and when it applies."""

    name: str
    description: str
    consumes: list[str] = Field(default_factory=list)
    produces: list[str]
    goal_type: GoalType
    preconditions: list[str] = Field(default_factory=list)
    reviews_empty: bool = Field(False, description="the diagnostic step the review gate adds for empty results")


class ResultTable(BaseModel):
    """A table the answer shows (DATA_CONTRACT §3 `results`)."""

    title: str
    columns: list[str]
    rows: list[list[Any]]
    total: int
    query: dict[str, Any] | None = None
    sub_goal_id: int | None = None
    chart: dict[str, Any] | None = Field(None, description="a Vega-Lite v5 spec where one fits the table's shape")


class Clarification(BaseModel):
    question: str
    options: list[str] = Field(default_factory=list)

    @classmethod
    def about(cls, term: str, options: list[str], preface: str = "") -> Clarification:
        """The question back for a name that matches several options."""
        return cls(question=f"{preface}“{term}” matches several names. Which one did you mean?", options=options)

    @property
    def text(self) -> str:
        """The question and its numbered options, as the answer shows them."""
        return self.question + "\n" + "\n".join(f"{i}. {o}" for i, o in enumerate(self.options, 1))


class Deliverable(BaseModel):
    """Content for the final answer; deliverable workers put one in their deliverable slot."""

    text: str = ""
    tables: list[ResultTable] = Field(default_factory=list)
    assumptions: list[str] = Field(default_factory=list)
    not_understood: list[str] = Field(default_factory=list, description="words of the question not used")
    clarification: Clarification | None = None
    failed: bool = False
