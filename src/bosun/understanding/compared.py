"""Checks of periods compared, of set logic and of differences of two sides against the catalog
(issues 23, 35), for `validate_meaning`."""

from __future__ import annotations

from bosun.catalog import Catalog
from bosun.understanding.meaning import Difference, HasAll, HasNone, Meaning


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
        if isinstance(step, Difference):
            problems += _difference_problems(step, meaning, catalog)
    return problems


def _difference_problems(step: Difference, meaning: Meaning, catalog: Catalog) -> list[str]:
    """Two values of a field the records have, the field not grouped by (its values are the
    columns), and no other step or periods beside (the table of a difference has no room for
    them)."""
    spec = catalog.record.fields.get(step.field)
    if spec is None:
        return [f"unknown field {step.field!r} in a difference"]
    problems = []
    if step.field in meaning.group_by:
        problems.append(f"a difference of {step.field!r} values, grouped by {step.field!r}")
    if len(set(map(str, step.values))) < 2:
        problems.append("a difference of a value with itself")
    if len(meaning.steps) > 1 or meaning.periods:
        problems.append("a difference beside other steps or periods compared")
    if spec.values and spec.type != "boolean":
        problems += [
            f"{step.field!r} has no value {v!r}" for v in step.values if str(v) not in spec.values
        ]
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
