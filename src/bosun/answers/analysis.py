"""What the figures show (F12, analyze_results): the first measure ranked or followed as a trend,
then each further measure's leader, judged the catalog's way.
"""

from __future__ import annotations

from typing import Any

from bosun import query
from bosun.answers.figures import label
from bosun.answers.grammar import writing
from bosun.answers.judged import better_way
from bosun.answers.periods import period_cell
from bosun.answers.rankings import ranking
from bosun.answers.trends import trend
from bosun.catalog import Catalog
from bosun.catalog.schema import Better
from bosun.query import Table
from bosun.understanding import Meaning


def analysis(meaning: Meaning, table: Table, catalog: Catalog) -> str:
    """The comparison, ranking or trend the results show, each measure's ("" when there is nothing
    to compare)."""
    betters = [better_way(catalog, m) for m in meaning.measures]
    said = [
        _first_measure(meaning, table, betters[0] if betters else None),
        _other_measures(meaning, table, betters),
    ]
    return " ".join(t for t in said if t)


def _other_measures(meaning: Meaning, table: Table, betters: list[Better | None]) -> str:
    """Groups compared on several measures ("their volumes and average transit times"): after the
    first, each further measure's leader, judged the catalog's way ("EVERGREEN has the best average
    transit days")."""
    if not meaning.group_by or meaning.interval or meaning.steps or meaning.periods:
        return ""
    said = []
    for index, measure in enumerate(meaning.measures[1:], start=1):
        rows = _labelled_figures(table, index)
        if len(rows) >= 2:
            additive = measure.agg in ("count", "sum") and measure.share is None
            better = betters[index]  # the best first where the catalog says which way is better
            name = _figure_name(table, index)
            said.append(ranking(rows, name, additive, lowest=better == "lower", better=better))
    return " ".join(said)


def _labelled_figures(table: Table, measure: int) -> list[list[Any]]:
    """[what a row is, its figure of `measure`] for each row whose figure is a number (none when
    the table has no such figure)."""
    if table.column("figure", measure) is None:
        return []
    pairs = [[label(table, row), table.figure(row, measure)] for row in table.rows]
    return [pair for pair in pairs if isinstance(pair[1], int | float)]


def _figure_name(table: Table, measure: int) -> str:
    column = table.column("figure", measure)
    assert column is not None
    return column.name


def _first_measure(meaning: Meaning, table: Table, better: Better | None = None) -> str:
    """The first measure ranked or followed ("" when there is nothing to compare)."""
    # their figures are said with the results
    if not meaning.measures or meaning.steps or meaning.periods:
        return ""
    rows = _labelled_figures(table, 0)
    if len(rows) < 2:
        return ""
    name = _figure_name(table, 0)
    if meaning.interval and not meaning.group_by and not meaning.top_n:
        whole = [r for r in rows if query.whole_period(r[0], meaning, table.dates)]
        named = [[period_cell(r[0], meaning.interval), r[1]] for r in rows]
        return trend([named[rows.index(r)] for r in whole], name, named, meaning.interval)
    # a share of a sum means something; of averages, percentiles or shares not
    first = meaning.measures[0]
    additive = first.agg in ("count", "sum") and first.share is None
    # groups by period: the groups' totals over the periods, if totals mean something
    if meaning.interval:
        if not additive:
            return ""
        over = writing().rankings.over_periods.format(label=name, interval=meaning.interval)
        rows, name = _totals(rows), over
        if len(rows) < 2:
            return ""
    return ranking(rows, name, additive, lowest=meaning.order == "asc", better=better)


def _totals(rows: list[list[Any]]) -> list[list[Any]]:
    """Each group's figures added up, in the order the groups first appear."""
    totals: dict[Any, float] = {}
    for group, value in rows:
        totals[group] = totals.get(group, 0) + value
    return [[group, total] for group, total in totals.items()]
