"""What an answer's figures are shown without: the check that every data result says how it was
read.

`unread(answer, meaning, catalog)` lists each way a result's `reading` fails the person checking it:
empty, or silent on a filter value, a date bound or a measure, of the turn's Meaning and of the
query that was actually run. It knows no domain: the values come from the meaning and the query, the
words for them from the catalog.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from bosun.catalog import Catalog
from bosun.planner.answer import Answer
from bosun.understanding import Meaning
from bosun.understanding.grammar import english
from bosun.understanding.phrases import date_span, part_value_name
from bosun.workers.models import ResultTable


def unread(answer: Answer, meaning: Meaning | None, catalog: Catalog) -> list[str]:
    """Every result with figures whose reading is missing something; the first result against
    `meaning`."""
    problems: list[str] = []
    data = [r for r in answer.results if r.rows and r.query is not None]
    for i, result in enumerate(data):
        if not result.reading.strip():
            problems.append(f"result {i} ({result.title!r}) has figures and no reading")
            continue
        problems += [f"result {i}: {p}" for p in _against_query(result, catalog)]
        if i == 0 and meaning is not None:
            problems += [
                f"result {i}: {p}" for p in _against_meaning(result.reading, meaning, catalog)
            ]
    return problems


def _against_meaning(reading: str, meaning: Meaning, catalog: Catalog) -> list[str]:
    """Each filter value, both date bounds and each measure of the Meaning is named."""
    missing = [
        f"value {v!r} of {c.field}"
        for c in meaning.conditions
        for v in c.values
        if not _says_value(reading, c.field, v, catalog)
    ]
    if meaning.time is not None and not _says_dates(reading, meaning.time.start, meaning.time.end):
        bounds = [d.isoformat() for d in (meaning.time.start, meaning.time.end) if d is not None]
        missing += [f"date {d}" for d in bounds]
    missing += [f"measure {m.label!r}" for m in meaning.measures if m.label not in reading]
    return [f"reading {reading!r} does not name the {what}" for what in missing]


def _against_query(result: ResultTable, catalog: Catalog) -> list[str]:
    """Each value and bound of the executed query's filters is named, and each measure column."""
    assert result.query is not None
    missing = []
    for clause in _clauses(result.query["query"]["bool"]["filter"]):
        kind, body = next(iter(clause.items()))
        field, value = next(iter(body.items()))
        values = value if kind == "terms" else [value] if kind == "term" else list(value.values())
        if kind == "range" and _dated(field, catalog):
            values = (
                []
                if _says_dates(result.reading, _day(value.get("gte")), _day(value.get("lte")))
                else values
            )
        missing += [
            f"{field} {v!r}" for v in values if not _says_value(result.reading, field, v, catalog)
        ]
    if "aggs" in result.query or result.query.get("size") == 0:
        leading = {"period", *catalog.record.fields}
        missing += [
            f"measure {c!r}" for c in result.columns if c not in leading and c not in result.reading
        ]
    return [f"reading {result.reading!r} does not name the query's {what}" for what in missing]


def _dated(field: str, catalog: Catalog) -> bool:
    spec = catalog.record.fields.get(field)
    return spec is not None and spec.type == "date"


def _day(value: Any) -> date | None:
    return date.fromisoformat(str(value)[:10]) if value is not None else None


def _says_dates(reading: str, start: date | None, end: date | None) -> bool:
    """The dates as people read them: "May 2026" for the whole month, "6 Jan 2025 to 3 Mar 2025",
    "from 6 Jan 2025"."""
    said = date_span(start, end)
    return bool(said) and said in reading


def _clauses(filters: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The query's filter clauses, a negation's own clauses in its place."""
    flat = []
    for clause in filters:
        inner = clause.get("bool", {}).get("must_not")
        flat += inner if inner else [clause]
    return flat


def _says_value(reading: str, field: str, value: Any, catalog: Catalog) -> bool:
    """The value as the data holds it, a number as it is written, or a word the catalog has for
    it."""
    spec = catalog.record.fields.get(field)
    key = str(value).lower() if isinstance(value, bool) else str(value)
    words = [key, *(spec.values.get(key, []) if spec else [])]
    if spec is not None and spec.derived is not None:  # a date part: 6 is said "Saturday"
        words.append(part_value_name(spec.derived.part, value))
    if isinstance(value, bool):
        words.append(english().phrases.truth[key])
    if isinstance(value, int | float) and not isinstance(value, bool):
        words.append(f"{value:,.0f}" if float(value).is_integer() else f"{value:,}")
    return any(word in reading for word in words)
