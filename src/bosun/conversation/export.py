"""Every record a search matches, page by page in its own order (search_after), for the page's pager
and its CSV and XLSX exports.

The query is the one an answer ran (its `query`), so an export lists exactly what the answer
counted. It runs through the guarded engine like every other query: read-only, the catalog's
indices, the caps per request.

A value loaded from someone's file reaches whoever opens the export, so no cell can run: in a CSV a
text starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'` (OWASP's rule
against CSV injection; a number, negative or not, stays as it is), and an XLSX writes every text as
a text, never as a formula or a link.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import itertools
import math
import re
from collections.abc import Iterable, Iterator
from typing import Any, Literal

from bosun.engines.base import Body, Engine
from bosun.errors import ConfigError, UserError

PAGE = 1000  # hits per request while exporting: well under any cluster's max_result_window
Format = Literal["csv", "xlsx"]
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# what a spreadsheet reads as the start of a formula (OWASP, CSV injection)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_EXACT_WHOLE = 2**53  # the largest whole number a double holds exactly


def records(
    engine: Engine, index: str, query: Body, limit: int, offset: int = 0
) -> Iterator[dict[str, Any]]:
    """The `_source` of each matching record from `offset` on, at most `limit`, in the query's sort
    order.

    A query that aggregates is refused here, before anything runs: its rows are all in its answer
    already.
    """
    if any(key in query for key in ("aggs", "aggregations")):
        raise UserError(
            "only a list of records can be paged or exported; an aggregation's rows are all in its "
            "answer"
        )
    body = {
        k: v
        for k, v in query.items()
        if k not in ("from", "size", "search_after", "track_total_hits")
    }
    # search_after needs an order to continue from
    body["sort"] = body.get("sort") or [{"_doc": "asc"}]
    return _pages(engine, index, body, limit, offset)


def matching(engine: Engine, index: str, query: Body) -> int:
    """How many records the query matches."""
    return engine.count(index, {"query": query["query"]} if "query" in query else None)


def _pages(
    engine: Engine, index: str, body: Body, limit: int, offset: int
) -> Iterator[dict[str, Any]]:
    skipped = yielded = 0
    while yielded < limit:
        hits = engine.search(index, {**body, "size": PAGE, "track_total_hits": False})["hits"][
            "hits"
        ]
        for hit in hits:
            if skipped < offset:
                skipped += 1
            elif yielded < limit:
                yielded += 1
                yield hit["_source"]
        if len(hits) < PAGE:
            return
        body["search_after"] = hits[-1]["sort"]


def rows(found: Iterator[dict[str, Any]], columns: list[str]) -> list[list[Any]]:
    return [[record.get(c) for c in columns] for record in found]


def csv_lines(found: Iterator[dict[str, Any]], columns: list[str]) -> Iterator[str]:
    """The header, then one CSV line per record, written as they come (nothing held in memory)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")  # RFC 4180: a lone CR in a cell is quoted
    lines: Iterator[list[Any]] = itertools.chain(
        [list(columns)], ([r.get(c) for c in columns] for r in found)
    )
    for line in lines:
        writer.writerow([inert(value) for value in line])
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()


def inert(value: Any) -> Any:
    """A CSV cell no spreadsheet runs: a text that would start a formula gets a leading `'`."""
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def formats() -> list[Format]:
    """The formats this install exports: CSV always, XLSX when its writer (the `xlsx` extra) is
    there."""
    with_xlsx = importlib.util.find_spec("xlsxwriter") is not None
    return ["csv", "xlsx"] if with_xlsx else ["csv"]


def xlsx_book(lines: Iterable[list[Any]], columns: list[str]) -> bytes:
    """One sheet: the header, then each line, written a row at a time (XlsxWriter's constant-memory
    mode keeps one row in memory, the rest in a temporary file). Values are written as the CSV
    writes them: numbers as numbers, dates as their ISO text, lists and objects as their text; and
    each by its own kind's writer, so a text is never read as a formula, a link or a number."""
    try:
        import xlsxwriter
    except ImportError:
        raise ConfigError("an XLSX export needs its writer: pip install 'bosun-bi[xlsx]'") from None
    out = io.BytesIO()
    book = xlsxwriter.Workbook(
        out,
        {
            "constant_memory": True,
            "strings_to_formulas": False,
            "strings_to_urls": False,
            "strings_to_numbers": False,
        },
    )
    sheet = book.add_worksheet()
    for row, line in enumerate(itertools.chain([list(columns)], lines)):
        for column, value in enumerate(line):
            _write(sheet, row, column, value)
    book.close()
    return out.getvalue()


def _write(sheet: Any, row: int, column: int, value: Any) -> None:
    """One cell by its kind: a number a spreadsheet holds exactly as a number, a truth value as one,
    anything else (an infinite number, a whole number past 2⁵³) as its text; nothing for None."""
    if value is None:
        return
    if isinstance(value, bool):
        sheet.write_boolean(row, column, value)
    elif _spreadsheet_number(value):
        sheet.write_number(row, column, value)
    else:
        sheet.write_string(row, column, str(value))


def _spreadsheet_number(value: Any) -> bool:
    """Whether a spreadsheet's number (a double) holds the value exactly."""
    if isinstance(value, int):
        return abs(value) <= _EXACT_WHOLE
    return isinstance(value, float) and math.isfinite(value)
