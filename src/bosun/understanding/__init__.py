"""Language → meaning, behind one contract; the rules backend is the default, a chat model the
other.

The layers above use understanding through what this module hands on: the contract (`Understanding`,
`Reading`, `validate_meaning`), the coverage audit every reading passes (`Audit`), the typed
`Meaning` and its parts, and the two helpers a worker reads a reply with (`normalize`,
`replace_term`). Answers are written by `bosun.answers`; the words of a meaning's parts it builds on
are `understanding.phrases` (the reader writes its own notes with them), periods in words
`understanding.periodnames`, the grammar `understanding.grammar`.
"""

from bosun.understanding.audit import Audit, Turn, Verdict
from bosun.understanding.meaning import Ambiguity, Condition, Meaning, Measure, Refusal, TimeFilter
from bosun.understanding.names import normalize
from bosun.understanding.picks import replace_term
from bosun.understanding.reading import (
    AskedBack,
    Continuation,
    GoalReading,
    PastTurn,
    Reading,
    Understanding,
    mostly_unread,
    validate_meaning,
)

__all__ = [
    "Ambiguity",
    "AskedBack",
    "Audit",
    "Condition",
    "Continuation",
    "GoalReading",
    "Meaning",
    "Measure",
    "PastTurn",
    "Reading",
    "Refusal",
    "TimeFilter",
    "Turn",
    "Understanding",
    "Verdict",
    "mostly_unread",
    "normalize",
    "replace_term",
    "validate_meaning",
]
