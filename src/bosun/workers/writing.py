"""The model's words for F04, F09, F10 and F12, written from summaries, over the rules workers'
answers.

Each wrapped worker first answers by its rules (the glossary entry, the options, the field list, the
figures F12 computed); the model then rewrites the text from a bounded summary of that answer (at
most TOP_ROWS rows of CELL characters, whatever the size of the result), never from a result set.
Its text is checked (not empty, no passage of the instructions, F12: only figures of the summary); a
refused text gets one retry, then the rules' text stands and the answer says so. The tables, options
and figures themselves never come from the model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from bosun.chat import ChatClient
from bosun.errors import ModelFailure
from bosun.ledger import fell_back
from bosun.workers.context import Context
from bosun.workers.models import Clarification, Deliverable, Slot, WorkerInput, WorkerResult
from bosun.workers.registry import Registry, Worker, WorkerFn
from bosun.workers.slots import (
    ANALYSIS,
    ANSWER,
    CLARIFICATION_MESSAGE,
    ENTITY_OPTIONS,
    ES_RESULTS,
    EXPLANATION,
)

TOP_ROWS = 10
CELL = 40
LEAK_WORDS = 6  # this many words of the instructions in a row, in the text, is a leak
Summary = Callable[[WorkerInput, Deliverable], dict[str, str] | None]


class WrittenText(BaseModel):
    text: str = Field(max_length=3000)


def _question(wi: WorkerInput) -> str:
    return wi.sub_goal.params.text or wi.sub_goal.description


def helpdesk_summary(wi: WorkerInput, done: Deliverable) -> dict[str, str] | None:
    return {"entries": done.text, "question": _question(wi)} if done.text.startswith("**") else None


def clarify_summary(wi: WorkerInput, done: Deliverable) -> dict[str, str] | None:
    found = wi.get(ENTITY_OPTIONS)
    return {"term": found.term, "options": ", ".join(found.options), "question": _question(wi)}


def explain_summary(wi: WorkerInput, done: Deliverable) -> dict[str, str] | None:
    return {"fields": done.text, "question": _question(wi)}


def analyze_summary(wi: WorkerInput, done: Deliverable) -> dict[str, str] | None:
    """F12's figures, the columns, the row count and the top rows: bounded whatever the result's
    size."""
    if not done.text:
        return None
    table = wi.get(ES_RESULTS).table
    rows = [[_cell(v) for v in row[: len(table.columns)]] for row in table.rows[:TOP_ROWS]]
    return {
        "figures": done.text,
        "columns": json.dumps(table.names[:20]),
        "total": str(table.total),
        "rows": json.dumps(rows, ensure_ascii=False),
        "question": _question(wi),
    }


def _cell(value: Any) -> Any:
    return value[:CELL] if isinstance(value, str) else value


# worker → (its deliverable slot, prompt, summary)
WRITERS: dict[str, tuple[Slot[Deliverable], str, Summary]] = {
    "common_helpdesk": (ANSWER, "helpdesk", helpdesk_summary),
    "clarify_question": (CLARIFICATION_MESSAGE, "clarify", clarify_summary),
    "explain_metadata": (EXPLANATION, "explain", explain_summary),
    "analyze_results": (ANALYSIS, "analyze", analyze_summary),
}


def with_writers(registry: Registry, client: ChatClient) -> Registry:
    """A copy of the registry whose F04, F09, F10 and F12 have the model write their text."""
    workers = dict(registry.workers)
    for name, (slot, prompt, summary) in WRITERS.items():
        if name in workers:
            inner = workers[name]
            written = _written(inner.fn, client, slot, prompt, summary)
            workers[name] = Worker(inner.capability, written, inner.produces)
    return Registry(workers)


def _written(
    inner: WorkerFn, client: ChatClient, slot: Slot[Deliverable], prompt: str, summary: Summary
) -> WorkerFn:
    def write(wi: WorkerInput, ctx: Context) -> WorkerResult:
        result = inner(wi, ctx)
        done = result.get(slot)
        values = summary(wi, done) if result.status != "failed" and done is not None else None
        if values is None or done is None:
            return result
        text = _ask(client, prompt, values)
        if text is None:
            return result
        return result.with_filled(slot.of(_rewritten(done, text)))

    return write


def _ask(client: ChatClient, prompt: str, values: dict[str, str]) -> str | None:
    system = client.prompts[prompt].render(values)[0]
    check = _checks(prompt, system, values)
    try:
        asked = client.ask(prompt, WrittenText, values, check)
    except ModelFailure as exc:
        _kept(prompt, str(exc))
        return None
    if asked.value is None:
        _kept(prompt, "; ".join(asked.problems))
        return None
    return asked.value.text.strip()


def _kept(prompt: str, why: str) -> None:
    fell_back(
        prompt, f"The model's {prompt} text was not used ({why[:200]}); the rules' text stands."
    )


def _rewritten(done: Deliverable, text: str) -> Deliverable:
    if done.clarification is None:
        return done.model_copy(update={"text": text})
    asked = Clarification(question=text, options=done.clarification.options)
    return done.model_copy(update={"text": asked.text, "clarification": asked})


def _checks(prompt: str, system: str, values: dict[str, str]) -> Callable[[WrittenText], list[str]]:
    def check(written: WrittenText) -> list[str]:
        problems = [] if written.text.strip() else ["the text is empty"]
        if leaked(written.text, system):
            problems.append("the text repeats the instructions")
        if prompt == "analyze":
            problems += [
                f"the figure {n} is not in the summary"
                for n in invented_figures(written.text, values)
            ]
        return problems

    return check


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def leaked(text: str, instructions: str) -> bool:
    """Does the text repeat a passage of the instructions (LEAK_WORDS words in a row)?"""
    said = _words(text)
    runs = {" ".join(said[i : i + LEAK_WORDS]) for i in range(len(said) - LEAK_WORDS + 1)}
    told = _words(instructions)
    return any(
        " ".join(told[i : i + LEAK_WORDS]) in runs for i in range(len(told) - LEAK_WORDS + 1)
    )


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def invented_figures(text: str, values: dict[str, str]) -> list[str]:
    """Numbers of the text that the summary does not hold (an analysis may only restate figures)."""
    known = {_number(n) for v in values.values() for n in _NUMBER.findall(v)}
    return list(dict.fromkeys(n for n in _NUMBER.findall(text) if _number(n) not in known))


def _number(text: str) -> float:
    return float(text.replace(",", ""))
