"""Slots: the values workers hand each other, each declared once with its type.

A worker declares the slots it consumes and produces; the planner wires them by name (InputRef), the
worker reads them typed (`WorkerInput.get(SLOT)`), and F03 checks what it produced against the types
declared here before any other worker sees it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from bosun.query import CompiledQuery, Table
from bosun.understanding import Ambiguity, Meaning
from bosun.understanding.meaning import Link
from bosun.workers.models import Deliverable, Slot


class QueryResults(BaseModel):
    """F07's answer: the compiler's table of the response, the query run and the meaning it
    answers."""

    table: Table
    query: dict[str, Any]
    meaning: Meaning


class FoundKeys(BaseModel):
    """What one link read on its reference index: the keys of the objects that have the attribute
    asked."""

    link: Link
    keys: list[str]
    query: dict[str, Any]


class LinkedKeys(BaseModel):
    """The keys of every link of a meaning, in the order of its links."""

    found: list[FoundKeys]
    groups: dict[str, list[str]] = Field(
        default_factory=dict,
        description="each value of the attribute grouped by → the keys of the objects that have it",
    )


class OverallFigure(BaseModel):
    """What overall_figure computed: the figure a threshold holds the groups against ("more TEU
    than average"), None where no record is in scope, and the query that computed it."""

    value: float | None
    query: dict[str, Any]


class PointedRows(BaseModel):
    """The keys of the last answer's rows a goal points at: values of `field` (every other value
    when `negate`: "the rest"), and the words that say them."""

    field: str
    keys: list[str | int | float | bool]
    negate: bool = False
    words: str = ""


# Support slots: what one worker hands the next.
ANALYSIS_RESULT = Slot("analysis_result", Meaning)
ENTITY_OPTIONS = Slot("entity_options", Ambiguity)
ES_QUERY = Slot("es_query", CompiledQuery)
AMBIGUITY = Slot("ambiguity", list[Ambiguity])
ES_RESULTS = Slot("es_results", QueryResults)
LINKED_KEYS = Slot("linked_keys", LinkedKeys)
BASELINE_FIGURE = Slot("baseline_figure", OverallFigure)
POINTED_ROWS = Slot("pointed_rows", PointedRows)

# Deliverable slots: what F14 puts in the answer.
ANSWER = Slot("answer", Deliverable)
EXPLANATION = Slot("explanation", Deliverable)
PAGE_RESULTS = Slot("page_results", Deliverable)
FORMATTED_RESULTS = Slot("formatted_results", Deliverable)
ANALYSIS = Slot("analysis", Deliverable)
CLARIFICATION_MESSAGE = Slot("clarification_message", Deliverable)
DIAGNOSIS = Slot("diagnosis", Deliverable)
OBJECT_DETAILS = Slot("object_details", Deliverable)
