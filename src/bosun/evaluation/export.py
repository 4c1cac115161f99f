"""Confirmed answers as an evaluation file (DATA_CONTRACT §4): a team's own regression set, grown
from use.

Each marked turn becomes one item: its thread's earlier questions and its own as `turns`, and an
expectation whose gold SQL is the confirmed figure itself, written as a literal (`select 1234`), so
`bosun eval` judges a later answer against what a person confirmed, whatever the data holds then:

- marked right: what the answer showed — a single figure (`value`), the number of records a search
  matched
  (`count`), the table's rows (`table`, in order), or the options of a question back (`clarify`);
- marked wrong with a corrected figure: that figure (`value`);
- marked wrong without one, or right with nothing to check: skipped, and counted.
"""

from __future__ import annotations

import json
import math
from datetime import date
from typing import Any

from pydantic import BaseModel

from bosun.conversation.marks import Confirmed
from bosun.workers.models import ResultTable

MAX_TABLE_ROWS = 1000  # a longer table is checked by its number of rows


class Exported(BaseModel):
    items: list[dict[str, Any]]
    skipped: list[str]  # why each marked turn left out was left out

    def jsonl(self) -> str:
        return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in self.items)


def evaluation_items(confirmed: list[Confirmed]) -> Exported:
    """The evaluation items of the marked turns, and why each one left out was left out."""
    items: list[dict[str, Any]] = []
    skipped: list[str] = []
    for entry in confirmed:
        expect = _expectation(entry)
        mark = entry.mark
        if expect is None:
            verdict = (
                "right, with no figure to check"
                if mark.right
                else "wrong, without a corrected figure"
            )
            skipped.append(
                f"{mark.thread_id} turn {mark.turn} (“{entry.question}”): marked {verdict}"
            )
            continue
        items.append(
            {
                "id": f"confirmed-{mark.thread_id}-{mark.turn}",
                "turns": [*entry.before, entry.question],
                "expect": expect,
                "confirmed": {
                    "right": mark.right,
                    "by": mark.by,
                    "at": mark.at,
                    "correction": mark.correction,
                },
            }
        )
    return Exported(items=items, skipped=skipped)


def _expectation(entry: Confirmed) -> dict[str, Any] | None:
    figure = entry.mark.figure
    if not entry.mark.right and figure is None:
        return None
    if not entry.mark.right:
        return {"kind": "value", "gold_sql": f"select {_literal(figure)}"}
    answer = entry.answer
    if answer.status == "needs_clarification" and answer.clarification is not None:
        return {"kind": "clarify", "options": list(answer.clarification.options)}
    parts = [part for result in answer.results if (part := _of_result(result)) is not None]
    if len(parts) > 1:
        return {"kind": "multi", "parts": parts}
    return parts[0] if parts else None


def _of_result(result: ResultTable) -> dict[str, Any] | None:
    """What one result table showed, as an expectation on a later answer."""
    rows = result.rows
    if len(rows) == 1 and len(rows[0]) == 1:
        return {"kind": "value", "gold_sql": f"select {_literal(rows[0][0])}"}
    # records listed a page at a time: their number
    if result.total != len(rows) or len(rows) > MAX_TABLE_ROWS:
        return {"kind": "count", "gold_sql": f"select {result.total}"}
    if not rows:
        return None
    values = ", ".join("(" + ", ".join(_literal(cell) for cell in row) + ")" for row in rows)
    return {"kind": "table", "ordered": True, "gold_sql": f"select * from (values {values})"}


def _literal(value: Any) -> str:
    """A cell as a DuckDB literal: numbers as numbers (doubles, which the judge compares within 0.5
    %)."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value!r}::DOUBLE"
    if isinstance(value, date):
        value = value.isoformat()
    return "'" + str(value).replace("'", "''") + "'"
