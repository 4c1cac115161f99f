"""Checks of periods compared and of set logic against the catalog (issue 23), for
`validate_meaning`."""

from __future__ import annotations

from bosun.catalog import Catalog
from bosun.understanding.meaning import HasAll, HasNone, Meaning


def compared_problems(meaning: Meaning, catalog: Catalog) -> list[str]:
    """Periods on date fields, one time filter or periods (not both), and set logic on fields the
    records have, with values they can hold; [] = valid."""
    fields = catalog.record.fields
    problems = [
        f"{p.field!r} is not a date field"
        for p in meaning.periods
        if p.field not in fields or fields[p.field].type != "date"
    ]
    if meaning.periods and meaning.time is not None:
        problems.append("periods compared and a time filter: the periods are the dates")
    if len(meaning.periods) == 1:
        problems.append("one period compared with nothing")
    # (a change's periods are checked with the other steps, reading._step_problem)
    for step in meaning.steps:
        if isinstance(step, HasAll | HasNone):
            problems += _set_problems(step, meaning, catalog)
    return problems


def _set_problems(step: HasAll | HasNone, meaning: Meaning, catalog: Catalog) -> list[str]:
    spec = catalog.record.fields.get(step.field)
    if spec is None:
        return [f"unknown field {step.field!r} in {step.kind}"]
    problems = []
    if not meaning.group_by:
        problems.append(f"{step.kind} keeps groups, and nothing is grouped")
    if step.field in meaning.group_by:
        problems.append(f"{step.kind} on {step.field!r}, the field grouped by")
    if spec.values and spec.type != "boolean":
        problems += [
            f"{step.field!r} has no value {v!r}" for v in step.values if str(v) not in spec.values
        ]
    return problems
