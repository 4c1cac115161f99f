"""Rows that are already summaries (issue #24 class 11): a table of figures per period and place
(one row per source and year, per store and week) counts nothing by its rows. Its row count is named
for what a row is ("source-years"), its nouns ("electricity") and rankings with no figure named
("which source … the most") go to its main summed figure, "how many units" sums the column named
"units_sold", and a statistic stored per row (a median basket) is averaged and said so, never
summed.

Evidence: no identifier, a period (a date or a date part) and places (dimensions) whose distinct
values multiply to about the number of rows, and no two rows of the same period and places: every
row is one period of one place.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from datetime import date
from itertools import combinations, islice
from math import prod
from typing import Any

from bosun.catalog.linked import PAGE
from bosun.catalog.profile import Column, IndexProfile
from bosun.catalog.words import _data, phrase, plural, singular, spoken, words_of
from bosun.engines.base import Engine

_DENSE = 0.8  # at least this share of the period × place grid is present
# a wide file's periods and places: the first of them tried, and the grids checked against the data
_MOST_PERIODS = 12
_MOST_PLACES = 30
_MOST_ASKED = 16
_ESTIMATED = 1.1  # a cluster's distinct count of many values may be this much too low
# days between dates
_PERIODS = [(360, "year"), (85, "quarter"), (28, "month"), (7, "week"), (0, "day")]


@dataclass(frozen=True)
class Summary:
    period: str  # "year"
    places: list[str]  # the columns a row is one of ("source")
    sizes: list[int]  # distinct values of the period, then of each place

    @property
    def label(self) -> str:
        return "-".join([*(spoken(p) for p in self.places), plural(self.period)])


def summary_of(
    engine: Engine, record: IndexProfile, roles: dict[str, str], parts: set[str], numbers: set[str]
) -> Summary | None:
    """The period and places that a row is one of; None for records of events. `parts`: date-part
    columns; `numbers`: the records' own numbers ("flight" in flights), never a place.

    Bounded whatever the width: columns whose most common value is on more rows than any grid could
    hold are left out, the first few periods and places of the rest are tried, and a bounded number
    of their grids are checked against the data (a wide file has millions of combinations)."""
    if "identifier" in roles.values() or "measure" not in roles.values():
        return None
    periods = [
        c
        for c in record.columns.values()
        if (roles[c.name] == "date" or c.name in parts) and c.distinct > 1
    ]
    places = [
        c
        for c in record.columns.values()
        if roles[c.name] == "dimension" and c.name not in parts | numbers and c.distinct > 1
    ]
    missing = _most_missing(record.rows, [*periods, *places])
    periods = [c for c in periods if _even(c, record.rows, missing)][:_MOST_PERIODS]
    places = [c for c in places if _even(c, record.rows, missing)][:_MOST_PLACES]
    for period, chosen in islice(_dense_grids(record.rows, periods, places), _MOST_ASKED):
        if one_row_each(engine, record.index, [period, *chosen]):
            sizes = [c.distinct for c in [period, *chosen]]
            return Summary(period_word(period, parts), [c.name for c in chosen], sizes)
    return None


def _dense_grids(
    rows: int, periods: list[Column], places: list[Column]
) -> Iterator[tuple[Column, tuple[Column, ...]]]:
    """Each period with one to three places whose grid of values the rows fill at least _DENSE of,
    and no more than all of: the fewest places first."""
    for period in periods:
        for size in range(1, min(len(places), 3) + 1):
            for chosen in combinations(places, size):
                cells = prod(c.distinct for c in [period, *chosen])
                if _DENSE * cells <= rows <= cells:
                    yield period, chosen


def _even(column: Column, rows: int, missing: int) -> bool:
    """No value of the column is on more rows than a grid could hold it on: in a grid the rows fill
    at least _DENSE of, a value is on at most rows / (_DENSE × the column's distinct values) rows,
    and more only where another column of the grid is missing (`missing` rows at most). A column
    whose values were not read (dates) has no evidence against it."""
    if not column.values:
        return True
    most = column.values[0][1]
    return most <= _ESTIMATED * rows / (_DENSE * column.distinct) + missing


def _most_missing(rows: int, columns: list[Column]) -> int:
    """The most rows that miss one of a grid's other columns: the three largest gaps together."""
    gaps = sorted((rows - c.present for c in columns), reverse=True)
    return sum(gaps[:3])


def one_row_each(engine: Engine, index: str, columns: list[Column]) -> bool:
    """No two rows share their period and places: their combinations paged by a composite
    aggregation, a bounded number of buckets a request whatever the columns' cardinalities, until
    one holds two rows."""
    sources = [{c.name: {"terms": {"field": c.name}}} for c in columns]
    page: dict[str, Any] = {"size": PAGE, "sources": sources}
    while True:
        found = engine.search(index, {"size": 0, "aggs": {"v": {"composite": page}}})
        result = found.get("aggregations", {}).get("v", {})
        buckets = result.get("buckets", [])
        if any(int(bucket["doc_count"]) > 1 for bucket in buckets):
            return False
        if len(buckets) < PAGE or "after_key" not in result:
            return True
        page["after"] = result["after_key"]


def period_word(column: Column, parts: set[str]) -> str:
    if column.name in parts:
        return singular(words_of(column.name)[-1])
    first, last = str(column.low)[:10], str(column.high)[:10]
    if column.distinct < 2 or len(first) < 10 or len(last) < 10:
        return "day"
    days = (date.fromisoformat(last) - date.fromisoformat(first)).days / (column.distinct - 1)
    return next(word for least, word in _PERIODS if days >= least)


def summarise(
    record: IndexProfile,
    summary: Summary,
    measures: dict[str, Any],
    count: str,
    levels: Collection[str] = (),
) -> str | None:
    """Rewrite the drafted measures for a table of figures; the main figure's key (None with no
    summed figure). The figure is an amount summed; with none but `levels` (levels.py), the first
    level's average."""
    sums = [
        key for key, m in measures.items() if m["agg"] == "sum" and m.get("field") not in levels
    ]
    sums = sums or [key for key in levels if key in measures]
    if not sums:
        return None
    nouns = [w for w in measures[count]["words"] if w not in _COUNTING]
    indexed = {singular(w) for w in words_of(record.index)}
    named = [
        key
        for key in sums
        if indexed & {singular(w) for w in words_of(str(measures[key]["field"]))}
    ]
    figure = (named or sums)[0]
    measures[count] = {
        **measures[count],
        "label": summary.label,
        "words": list(dict.fromkeys([summary.label, *_COUNTING])),
    }
    measures[figure]["words"] = list(dict.fromkeys([*measures[figure]["words"], *nouns]))
    taken = {w for m in measures.values() for w in m["words"]}
    for key in sums:
        head = words_of(str(measures[key]["field"]))[0]
        if (
            len(words_of(str(measures[key]["field"]))) > 1
            and head.endswith("s")
            and head not in taken
        ):
            measures[key]["words"].append(head)  # "units_sold": "how many units"
            taken.add(head)
    return figure


_COUNTING = ["how many", "number of", "count", "records", "rows"]


def summary_why(
    record: IndexProfile, summary: Summary, figure: str | None, levels: Collection[str] = ()
) -> str:
    """What a row is and what its figures are: already summed, or levels (levels.py) named."""
    named = [plural(summary.period), *(plural(phrase(p)) for p in summary.places)]
    shape = " × ".join(f"{size:,} {noun}" for size, noun in zip(summary.sizes, named, strict=True))
    then = f"; rankings and the records' nouns use '{figure}'" if figure else ""
    things = " and ".join(phrase(p) for p in summary.places)
    figures = "figures already summed"
    if levels:
        figures = (
            f"{', '.join(levels)} are levels of a {things} in a {summary.period}, averaged and "
            f"summed only within one {summary.period}"
        )
    return (
        f"{record.index}: one row per {things} and {summary.period} ({record.rows:,} rows of "
        f"{shape}): {figures} → count '{summary.label}'{then}"
    )


def is_statistic(name: str) -> bool:
    """A column named as a statistic of each row's own records ("median_basket", "avg_price")."""
    words = {str(w) for w in _data("row_words.yaml")["statistics"]}
    return bool(words & set(words_of(name)))


def per_row_statistics(measures: dict[str, Any]) -> None:
    """A median or mean stored per row is averaged across rows, with the assumption said; never
    summed."""
    for measure in measures.values():
        field = measure.get("field")
        if field is None or not is_statistic(str(field)) or measure["agg"] not in {"sum", "avg"}:
            continue
        said = spoken(str(field))
        measure.update(
            agg="avg",
            label=f"average {said}",
            assumption=f"{said} is a figure of each row: averaged over the rows, not recomputed "
            "over their records",
        )
