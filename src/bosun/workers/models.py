"""The data models of seed 000's class diagram that workers and the planner share."""

from __future__ import annotations

from dataclasses import dataclass
from types import UnionType
from typing import Any, Generic, Literal, TypeVar, Union, cast, get_args, get_origin

from pydantic import BaseModel, Field, model_validator

from bosun import answers
from bosun.query import Role
from bosun.understanding import Continuation, Meaning

GoalType = Literal["support", "deliverable"]
GoalKind = Literal["data", "definition", "fields"]
SubGoalStatus = Literal["pending", "success", "partial", "failed"]
ResultStatus = Literal["success", "partial", "failed"]
T = TypeVar("T")


@dataclass(frozen=True, eq=False)
class Slot(Generic[T]):
    """A named output of one worker and the type of its value (the slots themselves are in
    `slots.py`)."""

    name: str
    kind: type[T]

    def of(self, value: T) -> Filled:
        """The slot filled with `value`, for a worker's result."""
        return Filled(self, value)

    def problem(self, value: object) -> str | None:
        """Why `value` may not fill this slot (it is not of the declared type), or None."""
        if conforms(value, self.kind):
            return None
        return f"slot {self.name!r} holds {type(value).__name__}, not {_named(self.kind)}"

    def read(self, value: object) -> T:
        """A value wired to this slot, as its type (checked when it was produced)."""
        return cast(T, value)


def conforms(value: object, kind: object) -> bool:
    """Is `value` of the type `kind` (a class, or list, dict, tuple or a union of them), down to
    every item?

    Our own check, because pydantic's strictest validation still takes a dict for a model, and the
    point here is that no dict travels where a model is declared.
    """
    origin, args = get_origin(kind), get_args(kind)
    if kind is Any:
        return True
    if origin in (Union, UnionType):
        return any(conforms(value, arg) for arg in args)
    if origin is None:
        return isinstance(value, cast(type, kind))
    if not isinstance(value, origin):
        return False
    if origin is list:
        return all(conforms(item, args[0]) for item in cast(list[object], value))
    if origin is dict:
        pairs = cast(dict[object, object], value).items()
        return all(conforms(k, args[0]) and conforms(v, args[1]) for k, v in pairs)
    if origin is tuple:
        items = cast(tuple[object, ...], value)
        return len(items) == len(args) and all(
            conforms(i, a) for i, a in zip(items, args, strict=True)
        )
    return True


def _named(kind: object) -> str:
    """`Deliverable`, `list[bosun.understanding.meaning.Ambiguity]`."""
    return str(kind) if get_origin(kind) else str(getattr(kind, "__name__", kind))


@dataclass(frozen=True)
class Filled:
    """A slot and the value a worker put in it."""

    slot: Slot[Any]
    value: Any


class InputRef(BaseModel):
    """A pointer from one sub-goal's input to another sub-goal's output slot."""

    from_sub_goal: int
    slot: str


class GoalParams(BaseModel):
    """What a goal asks, as understood: the parameters every sub-goal of the goal hands its
    worker."""

    kind: GoalKind = "data"
    text: str = ""
    meaning: Meaning | None = Field(
        None, description="a data goal's reading; None: the worker reads `text`"
    )
    terms: list[str] = Field(
        default_factory=list, description="definition: glossary terms; fields: fields asked"
    )
    continuation: Continuation = "new"
    preface: str = Field("", description="said first in a question back or a refusal")
    reply: str | None = Field(
        None, description="interrupt mode: the user's pick, given inside the turn"
    )


class Goal(BaseModel):
    """One standalone goal of a turn, as F01 restates it, and the slots that deliver it."""

    id: int
    text: str
    deliverables: list[str]
    params: GoalParams = Field(default_factory=GoalParams)
    inputs_from_goals: list[int] = Field(
        default_factory=list, description="goals whose deliverables feed this one"
    )
    status: Literal["open", "done", "failed"] = "open"
    error: str | None = None
    reviewed: bool = False


class ResultFlags(BaseModel):
    """What F13 keeps of a sub-goal's result for the gates: retry it, review its emptiness, or ask
    back."""

    transient: bool = False
    empty: bool = False
    needs: str | None = None


class SubGoal(BaseModel):
    """One unit of work: a worker, its wired inputs, and what became of it."""

    id: int
    goal_id: int
    worker: str
    description: str
    inputs: dict[str, InputRef] = Field(default_factory=dict)
    params: GoalParams = Field(default_factory=GoalParams)
    outputs: list[str] = Field(default_factory=list)
    goal_type: GoalType = "support"
    status: SubGoalStatus = "pending"
    round: int | None = None
    attempts: int = 0
    duration_ms: float | None = None
    result: ResultFlags | None = None
    error: str | None = None
    message: str | None = None


class WorkerInput(BaseModel):
    sub_goal: SubGoal
    resolved_inputs: dict[str, Any] = Field(default_factory=dict)
    deadline: float | None = Field(None, description="the turn's deadline, seconds since the epoch")

    def get(self, slot: Slot[T]) -> T:
        """The value wired to `slot`, typed (F03 checked it when it was produced)."""
        return slot.read(self.resolved_inputs[slot.name])

    def gathered(self, slot: Slot[T]) -> list[T]:
        """Every value of `slot` wired in from other goals (`inputs_from_goals`), in goal order."""
        return [
            slot.read(v)
            for k, v in self.resolved_inputs.items()
            if k.partition("@")[0] == slot.name
        ]


class WorkerResult(BaseModel):
    """What a worker returns; F03 fills duration and wraps exceptions as failed results."""

    sub_goal_id: int
    status: ResultStatus
    outputs: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    message: str | None = None
    transient: bool = Field(False, description="a failure worth one retry (timeout, engine hiccup)")
    empty: bool = Field(
        False, description="the result holds no data: the review gate may diagnose it"
    )
    needs: str | None = Field(
        None, description="a slot the goal now needs instead, e.g. a clarification"
    )
    duration_ms: float = 0.0

    @classmethod
    def of(
        cls,
        wi: WorkerInput,
        *filled: Filled,
        status: ResultStatus = "success",
        empty: bool = False,
        needs: str | None = None,
        message: str | None = None,
    ) -> WorkerResult:
        """A result of `wi`'s sub-goal with these slots filled."""
        outputs = {f.slot.name: f.value for f in filled}
        return cls(
            sub_goal_id=wi.sub_goal.id,
            status=status,
            outputs=outputs,
            empty=empty,
            needs=needs,
            message=message,
        )

    def get(self, slot: Slot[T]) -> T | None:
        """The value this result put in `slot`, if any."""
        value = self.outputs.get(slot.name)
        return None if value is None else slot.read(value)

    def with_filled(self, filled: Filled) -> WorkerResult:
        """This result with one slot filled anew (a wrapper rewriting a worker's output)."""
        return self.model_copy(update={"outputs": {**self.outputs, filled.slot.name: filled.value}})

    @property
    def flags(self) -> ResultFlags:
        return ResultFlags(transient=self.transient, empty=self.empty, needs=self.needs)


class WorkerCapability(BaseModel):
    """A registry entry: what a worker consumes and produces, and when it applies."""

    name: str
    description: str
    title: str = Field("", description="what it does in a few words, for a person reading the plan")
    consumes: list[str] = Field(default_factory=list)
    produces: list[str]
    goal_type: GoalType
    preconditions: list[str] = Field(default_factory=list)
    reviews_empty: bool = Field(
        False, description="the diagnostic step the review gate adds for empty results"
    )
    consumes_if: list[str] = Field(
        default_factory=list, description="slots consumed only for some goals"
    )


class ResultTable(BaseModel):
    """A table the answer shows (DATA_CONTRACT §3 `results`)."""

    title: str
    reading: str = Field(
        "",
        description="what the result was computed over, in words from the meaning and the "
        "catalog, never from the question's text; empty for tables of no data",
    )
    columns: list[str]
    rows: list[list[Any]]
    total: int
    query: dict[str, Any] | None = None
    sub_goal_id: int | None = None
    chart: dict[str, Any] | None = Field(
        None, description="a Vega-Lite v5 spec where one fits the table's shape"
    )
    period_names: dict[str, str] = Field(
        default_factory=dict,
        description="each period of the rows (its first "
        "day, as the rows hold it) in words: 2025-01-01 by month is January 2025",
    )
    roles: list[Role] = Field(
        default_factory=list,
        description="each column's role in the query's table (key, period, figure …, as "
        "bosun.query.Table names them); empty for a table that no query made",
    )

    labels: list[str] = Field(
        default_factory=list,
        description="each column's heading in words, as every interface shows it (carrier, "
        "month, day of the week of arrival date); `columns` keeps the names the rows are keyed by",
    )
    units: list[str | None] = Field(
        default_factory=list,
        description="the unit of each column's figures (TEU, USD, % …), None where it has none",
    )

    @model_validator(mode="after")
    def _headed(self) -> ResultTable:
        """A table made without headings in words is headed by its columns' names."""
        if len(self.labels) != len(self.columns):
            self.labels = list(self.columns)
        if len(self.units) != len(self.columns):
            self.units = [None] * len(self.columns)
        return self

    def cells(self, row: list[Any], role: Role) -> list[Any]:
        """The row's cells of the columns of `role`, in order (none when the table has no
        roles)."""
        return [cell for cell, kind in zip(row, self.roles, strict=False) if kind == role]


class Clarification(BaseModel):
    question: str
    options: list[str] = Field(default_factory=list)

    @classmethod
    def about(cls, term: str, options: list[str], preface: str = "") -> Clarification:
        """The question back for a name that matches several options, or is only like one."""
        if len(options) == 1:
            return cls(question=answers.did_you_mean(term, options[0], preface), options=options)
        return cls(question=answers.which_one(term, preface), options=options)

    @property
    def text(self) -> str:
        """The question and its numbered options, as the answer shows them."""
        return self.question + "\n" + "\n".join(f"{i}. {o}" for i, o in enumerate(self.options, 1))


class Deliverable(BaseModel):
    """Content for the final answer; deliverable workers put one in their deliverable slot."""

    text: str = ""
    tables: list[ResultTable] = Field(default_factory=list)
    assumptions: list[str] = Field(default_factory=list)
    choices: list[answers.Choice] = Field(
        default_factory=list, description="readings chosen, each with the others it could take"
    )
    suggestions: list[str] = Field(
        default_factory=list, description="questions to ask next, made from the reading"
    )
    not_understood: list[str] = Field(
        default_factory=list, description="words of the question not used"
    )
    clarification: Clarification | None = None
    failed: bool = False
