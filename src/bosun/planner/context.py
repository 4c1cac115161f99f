"""A turn's run context: the workers' dependencies, and what only the planner's nodes use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from bosun.catalog.taught import TaughtWord
from bosun.ledger import Ledger
from bosun.planner.rules import Planner, RulesPlanner
from bosun.understanding import AskedBack, Audit, PastTurn
from bosun.understanding.vectors import NameVectors
from bosun.workers.catalogue import default_registry
from bosun.workers.context import Context
from bosun.workers.models import Goal
from bosun.workers.registry import Registry

GoalsOf = Callable[[str, list[PastTurn]], list[Goal]]
# counts one more pick of an option at a question back; the alias to offer once it is made often
Remembered = Callable[[str, str], TaughtWord | None]
# the taught words a question (on a day) is read through, as what they were taught to mean
ReadThrough = Callable[[str, date], list[TaughtWord]]


def _read_through_none(question: str, today: date) -> list[TaughtWord]:
    return []


def one_goal(question: str, history: list[PastTurn]) -> list[Goal]:
    """F01's fallback: the whole turn is one goal delivering an answer."""
    return [Goal(id=1, text=question, deliverables=["answer"])]


@dataclass(frozen=True)
class Taught:
    """The deployment's taught words as one turn reads them (issue #25).

    F14 names the `words` the question was read through (`read_through`: where its tagging read a
    word as taught, not where the word only appears inside a name or a date); when the thread's
    last turn asked back (`asked`) and this turn picks one of its options, `remembered` counts the
    pick and may return the alias to offer. The session leaves `asked` empty when picks cannot be
    counted (an unwritable store).
    """

    words: list[TaughtWord]
    asked: AskedBack | None
    remembered: Remembered
    read_through: ReadThrough = _read_through_none


@dataclass(frozen=True)
class RunContext(Context):
    """What a turn runs with: F01's reader, F02's planner, the workers' registry, the turn's token
    ledger, the name vectors the session's understanding resolves names with (MCP's name tool
    uses them too), the coverage audit of readings, and what F14 says besides the workers'
    deliverables: the note about today and the taught words."""

    registry: Registry = field(default_factory=default_registry)
    goals_of: GoalsOf = one_goal
    planner: Planner = field(default_factory=RulesPlanner)
    ledger: Ledger | None = None  # a chat model may be asked: the tokens each node used
    vectors: NameVectors | None = None
    # said in an answer that reads a time word when today is not the real date (the data's end)
    today_note: str | None = None
    taught: Taught | None = None  # a session's taught words; none in the planner's own tests
    # the coverage audit of F01's readings; none in the planner's own tests (nothing is read)
    audit: Audit | None = None
