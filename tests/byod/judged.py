"""Judging a public dataset's 25 questions the way test_loans.py does, for the datasets of issue
#37: each question asked once, its answer judged against the gold SQL, the ones not right today
kept as strict expected failures (with the reason), and no answer confidently wrong but today's
listed ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

from bosun.evaluation.judge import judge
from bosun.planner.answer import Answer


def questions(name: str) -> list[dict[str, Any]]:
    """tests/byod/<name>_questions.yaml."""
    found: list[dict[str, Any]] = yaml.safe_load(
        (Path(__file__).parent / f"{name}_questions.yaml").read_text()
    )
    return found


def cases(items: list[dict[str, Any]], not_yet: dict[str, str]) -> list[Any]:
    """Each question, a strict expected failure when it is listed in `not_yet` (id → reason)."""
    return [
        pytest.param(
            item,
            id=item["id"],
            marks=[pytest.mark.xfail(strict=True, reason=not_yet[item["id"]])]
            if item["id"] in not_yet
            else [],
        )
        for item in items
    ]


def doubted(answer: Answer) -> bool:
    """The answer says its doubt: a word it did not use, a word it read one of two ways, a question
    back, or no figure at all."""
    read_one_way = any("” read as" in said for said in answer.assumptions)
    return (
        bool(answer.not_understood)
        or read_one_way
        or answer.status != "done"
        or not any(result.rows for result in answer.results)
    )


def assert_right(item: dict[str, Any], answer: Answer, gold: duckdb.DuckDBPyConnection) -> None:
    """The answer passes the question's expectation against the gold SQL."""
    ok, why = judge(item["expect"], answer, gold)
    shown = [(r.reading, r.columns, r.rows[:3]) for r in answer.results]
    assert ok, f"{item['q']}: {why}\n{answer.answer}\n{shown}"


def assert_not_confidently_wrong(
    item: dict[str, Any], answer: Answer, gold: duckdb.DuckDBPyConnection
) -> None:
    """Right, or saying its doubt: never a wrong figure shown without one."""
    ok, _ = judge(item["expect"], answer, gold)
    assert ok or doubted(answer), f"{item['q']}: confidently wrong\n{answer.answer}"
