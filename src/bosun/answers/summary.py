"""The text of a table of results (F11, show_results): one figure, a listing, the records found, or
the words of a step, of periods compared, of shares and percentiles.

"67 shipments with port of unlading CHARLESTON and arrival date May 2026."
"MAERSK — total TEU: 12,345."
"Total TEU per month, 12 months: January 2025 1,234; …"
"""

from __future__ import annotations

from typing import Any

from bosun import query
from bosun.answers import compared, measures, steps
from bosun.answers.figures import counts, key, no_rows, said_of, stated
from bosun.answers.grammar import writing
from bosun.answers.listings import found, listing
from bosun.answers.names import code_names, with_names
from bosun.answers.records import Over, noun, rows_named
from bosun.catalog import Catalog
from bosun.query import Table
from bosun.understanding import Meaning, Measure
from bosun.understanding.phrases import measure_words


def describe(meaning: Meaning, table: Table, catalog: Catalog) -> str:
    """The results in words. `meaning` is the one the query answered; as the table was computed, a
    trend of nothing named counts."""
    counted = query.counted(meaning, catalog)
    named = _with_names(table, counted, catalog)
    over = Over.of(counted, catalog)
    rows_noun = noun(counted, catalog, max(rows_named(table, counted), table.considered or 0))
    if query.compares(counted):  # periods side by side, set logic over groups
        which = over.which if over.said else ""
        return compared.summary(counted, named, rows_noun, which)
    # thresholds, top N within groups, running totals, changes, averages per period
    if counted.steps:
        return steps.summary(
            meaning, named, lambda count: noun(counted, catalog, count), over.which, catalog
        )
    return _summary(counted, named, rows_noun, over)


def _with_names(table: Table, meaning: Meaning, catalog: Catalog) -> Table:
    """The table as the text says it: a grouping's codes with their names, where the catalog has
    them."""
    if not meaning.group_by:
        return table
    names = code_names(catalog, meaning.group_by[0])
    return with_names(table, meaning.group_by[0], names) if names else table


def _summary(meaning: Meaning, table: Table, rows_noun: str, over: Over) -> str:
    if meaning.intent_type == "search":
        return found(meaning, table, over)
    rows = table.rows
    if measures.special(meaning):
        return measures.summary(meaning, table, rows_noun, over.named, over.catalog)
    if not rows:
        return no_rows()
    figures = list(zip(meaning.measures, table.figures(rows[0]), strict=True))
    # one number, or the one asked
    if len(rows) == 1 and figures and not (meaning.interval and not meaning.top_n):
        labels = table.labels(rows[0])
        if labels:
            return writing().summary.one_row.format(
                key=key(labels[:1], meaning), figures=stated(figures)
            )
        return _one_figure(figures, over)
    return listing(meaning, table, rows_noun)


def _one_figure(figures: list[tuple[Measure, Any]], over: Over) -> str:
    """A figure naming what it counts and over which records: "67 shipments with port of unlading
    CHARLESTON and arrival date 2026-05-01 to 2026-05-31", "Total TEU of the shipments with …:
    12,345"."""
    words = writing().summary
    if len(figures) == 1 and counts(figures[0][0]):
        return words.counted.format(figures=stated(figures), which=over.which)
    if len(figures) == 1:
        measure, value = figures[0]
        said = words.one_figure.format(
            measure=measure_words(measure), records=over.named, figure=said_of(value, measure.unit)
        )
        return said[0].upper() + said[1:]
    return words.figures.format(records=over.named, figures=stated(figures))
