"""Judge one answer against one expectation of an evaluation file (DATA_CONTRACT §4)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import duckdb

from bosun.planner.answer import Answer

TOLERANCE = 0.005


def _same(gold: Any, got: Any) -> bool:
    if isinstance(gold, datetime | date):
        gold = gold.date() if isinstance(gold, datetime) else gold
        return str(got)[:10] == gold.isoformat()
    if isinstance(gold, int | float) and not isinstance(gold, bool):
        try:
            value = float(got)
        except (TypeError, ValueError):
            return False
        return abs(value - float(gold)) <= TOLERANCE * max(abs(float(gold)), 1e-9)
    return str(gold).strip().lower() == str(got).strip().lower()


def judge(
    expect: dict[str, Any], answer: Answer, gold: duckdb.DuckDBPyConnection
) -> tuple[bool, str]:
    """(passed, why not) for one expectation."""
    kind = expect["kind"]
    if kind == "multi":
        outcomes = [judge(part, answer, gold) for part in expect["parts"]]
        failed = [why for ok, why in outcomes if not ok]
        return not failed, "; ".join(failed)
    return _JUDGES[kind](expect, answer, gold)


def _value(
    expect: dict[str, Any], answer: Answer, gold: duckdb.DuckDBPyConnection
) -> tuple[bool, str]:
    row = gold.execute(expect["gold_sql"]).fetchone()
    wanted = row[0] if row else None
    for result in answer.results:
        cells = [c for r in result.rows[:1] for c in r] if len(result.rows) == 1 else []
        if _same(wanted, result.total) or any(_same(wanted, c) for c in cells):
            return True, ""
    if (
        expect["kind"] == "value"
        and wanted is not None
        and str(wanted).lower() in answer.answer.lower()
    ):
        return True, ""
    return False, f"expected {wanted!r}; got totals {[r.total for r in answer.results]}"


def _rows(
    expect: dict[str, Any], answer: Answer, gold: duckdb.DuckDBPyConnection
) -> tuple[bool, str]:
    wanted = {r[0] for r in gold.execute(expect["gold_sql"]).fetchall()}
    for result in answer.results:
        if result.total == len(wanted) and all(r[0] in wanted for r in result.rows):
            return True, ""
    return False, f"expected {len(wanted)} records; got totals {[r.total for r in answer.results]}"


def _table(
    expect: dict[str, Any], answer: Answer, gold: duckdb.DuckDBPyConnection
) -> tuple[bool, str]:
    wanted = gold.execute(expect["gold_sql"]).fetchall()
    for result in answer.results:
        if len(result.rows) != len(wanted):
            continue
        if _covers(wanted, result.rows, bool(expect.get("ordered"))):
            return True, ""
    return False, f"expected {len(wanted)} rows; got {[len(r.rows) for r in answer.results]} rows"


def _covers(wanted: list[tuple[Any, ...]], rows: list[list[Any]], ordered: bool) -> bool:
    matched: list[int] = []
    for gold_row in wanted:
        index = next(
            (
                i
                for i, row in enumerate(rows)
                if all(any(_same(v, c) for c in row) for v in gold_row)
            ),
            None,
        )
        if index is None:
            return False
        matched.append(index)
    return not ordered or matched == sorted(matched)


def _clarify(
    expect: dict[str, Any], answer: Answer, gold: duckdb.DuckDBPyConnection
) -> tuple[bool, str]:
    options = answer.clarification.options if answer.clarification else []
    missing = [o for o in expect["options"] if o not in options]
    ok = answer.status == "needs_clarification" and not missing
    return ok, "" if ok else f"status {answer.status}, options {options}"


def _text(
    expect: dict[str, Any], answer: Answer, gold: duckdb.DuckDBPyConnection
) -> tuple[bool, str]:
    missing = [s for s in expect["contains"] if s.lower() not in answer.answer.lower()]
    return not missing, f"answer lacks {missing}" if missing else ""


def _not_found(
    expect: dict[str, Any], answer: Answer, gold: duckdb.DuckDBPyConnection
) -> tuple[bool, str]:
    has_rows = any(r.rows for r in answer.results)
    named = expect["term"].lower() in answer.answer.lower()
    ok = not has_rows and named
    return ok, "" if ok else f"rows shown: {has_rows}; term named: {named}"


_JUDGES = {
    "count": _value,
    "value": _value,
    "rows": _rows,
    "table": _table,
    "clarify": _clarify,
    "text": _text,
    "not_found": _not_found,
}
