"""The compiler: a `Meaning` → an Elasticsearch query, and the engine's response → a `Table`.

    compile(meaning, catalog)             → CompiledQuery (index, DSL body, the meaning)
    tabulate(compiled, response, catalog) → Table (columns with roles, headings in words and
                                            units, rows, what the answer says of them)

Beside these, the few helpers the workers need: the filters of a meaning (a reference lookup reads
its own index with them), the coverage query and the records' dates (which periods the data covers
whole), the calendar of periods, and the overall figure groups are held against, unrounded. The
modules of this package are private: import from here.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from bosun.catalog import Catalog
from bosun.query import _compared, _sides
from bosun.query._compared import considered
from bosun.query._compile import CompiledQuery, build_query, counted, filters, table
from bosun.query._labels import labelled
from bosun.query._periods import (
    coverage_query,
    period_end,
    period_field,
    periods_between,
    record_dates,
    whole_period,
)
from bosun.query._steps import GROUP_CAP, group_count, overall
from bosun.query.table import Column, Role, Table
from bosun.understanding import Meaning

__all__ = [
    "GROUP_CAP",
    "Column",
    "CompiledQuery",
    "Role",
    "Table",
    "compares",
    "compile",
    "counted",
    "coverage_query",
    "filters",
    "overall",
    "period_end",
    "period_field",
    "periods_between",
    "record_dates",
    "tabulate",
    "whole_period",
]


def compares(meaning: Meaning) -> bool:
    """Is the answer a comparison: periods side by side, set logic over groups, or the difference
    of two sides?"""
    return _compared.applies(meaning) or _sides.applies(meaning)


def compile(meaning: Meaning, catalog: Catalog) -> CompiledQuery:
    """The query that answers `meaning`: on the index it reads, in the DSL every engine speaks."""
    return CompiledQuery(index=meaning.index, body=build_query(meaning, catalog), meaning=meaning)


def tabulate(
    compiled: CompiledQuery,
    response: dict[str, Any],
    catalog: Catalog,
    dates: tuple[date | None, date | None] = (None, None),
) -> Table:
    """The answer to `compiled` from the engine's `response`, with how many groups a step chose
    among and how many set logic tested; `dates`, the records' first and last, keep periods the
    data cuts short out of a ranking."""
    meaning = compiled.meaning
    answered = labelled(
        table(meaning, response, catalog, dates), counted(meaning, catalog), catalog
    )
    counts = {"groups": group_count(response), "considered": considered(meaning, response)}
    return answered.model_copy(update={"dates": dates, **counts})
