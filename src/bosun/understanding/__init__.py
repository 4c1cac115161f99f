"""Language → meaning, behind one contract; the rules backend is the default, a chat model the
other.

The layers above use understanding through what this module hands on: the contract (`Understanding`,
`Reading`, `validate_meaning`), the typed `Meaning`, and the few language helpers answers are
written with.
"""

from bosun.understanding.grammar import english
from bosun.understanding.meaning import Ambiguity, Condition, Meaning, Measure, Refusal, TimeFilter
from bosun.understanding.names import normalize
from bosun.understanding.periodnames import day_name, period_cell, period_name, period_names
from bosun.understanding.picks import replace_term
from bosun.understanding.readback import (
    constraints_in_text,
    date_span,
    listed_noun,
    measure_words,
    read_back,
    records_noun,
)
from bosun.understanding.reading import (
    AskedBack,
    Continuation,
    GoalReading,
    PastTurn,
    Reading,
    Understanding,
    validate_meaning,
)

__all__ = [
    "Ambiguity",
    "AskedBack",
    "Condition",
    "Continuation",
    "GoalReading",
    "Meaning",
    "Measure",
    "PastTurn",
    "Reading",
    "Refusal",
    "TimeFilter",
    "Understanding",
    "constraints_in_text",
    "date_span",
    "day_name",
    "english",
    "listed_noun",
    "measure_words",
    "normalize",
    "period_cell",
    "period_name",
    "period_names",
    "read_back",
    "records_noun",
    "replace_term",
    "validate_meaning",
]
