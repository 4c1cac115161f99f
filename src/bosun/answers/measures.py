"""The answer's words for shares and percentiles: each figure with what it was computed over.

"12.40 % of the containers of the shipments with container type 20RF or 40RF (1,234 of 9,950) are
with port of unlading SAVANNAH"; "median transit days of the shipments with carrier MAERSK: 23, over
4,321 shipments with a value"; by group, "MAERSK 2.10 % (123 of 5,860); MSC …". Tables carry the
same numbers: a share is its percentage, its part and its whole; a percentile its value and how many
records had one.
"""

from __future__ import annotations

from typing import Any

from bosun.answers import numbers
from bosun.answers.figures import LISTED, more_rows, no_rows
from bosun.answers.grammar import Measures, writing
from bosun.answers.periods import period_cell
from bosun.catalog import Catalog
from bosun.query import Table
from bosun.understanding import Meaning, Measure
from bosun.understanding.grammar import english
from bosun.understanding.phrases import condition_words, value_names


def special(meaning: Meaning) -> bool:
    """A meaning whose figures need these words: a share or a percentile among its measures."""
    return any(m.share is not None or m.agg == "percentile" for m in meaning.measures)


def summary(meaning: Meaning, table: Table, noun: str, over: str, catalog: Catalog) -> str:
    """The figures of a table of shares or percentiles in words; `over` says the records ("the
    shipments with carrier MAERSK", "all shipments"), `noun` what a row is ("carriers")."""
    rows = table.rows
    if not rows:
        return no_rows()
    if not table.labelling:  # the figures of all the records
        said = [
            _figure(m, cells, meaning, over, catalog)
            for m, cells in _split(table, meaning, rows[0])
        ]
        return "; ".join(said) + "."
    first = meaning.measures[0]
    return _words().by_group.format(
        label=first.label,
        part=_of_part(first, meaning, catalog),
        noun=noun,
        over=over,
        rows="; ".join(_row(table, meaning, row) for row in rows[:LISTED]),
        more=more_rows(len(rows)),
    )


def notes(meaning: Meaning, engine_kind: str) -> list[str]:
    """What the answer says of how a percentile was computed on this engine."""
    if not any(m.agg == "percentile" for m in meaning.measures):
        return []
    said = _words().percentile_note
    return [said["embedded"] if engine_kind == "embedded" else said["remote"]]


def _split(table: Table, meaning: Meaning, row: list[Any]) -> list[tuple[Measure, list[Any]]]:
    """Each measure with its cells of the row."""
    return [(measure, table.measured(row, i)) for i, measure in enumerate(meaning.measures)]


def _figure(
    measure: Measure, cells: list[Any], meaning: Meaning, over: str, catalog: Catalog
) -> str:
    if measure.share is not None:
        return _share(measure, cells, meaning, over, catalog)
    if measure.agg == "percentile":
        value, counted = cells
        return _words().percentile.format(
            label=measure.label,
            over=over,
            value=_number(value),
            unit=f" {measure.unit}" if measure.unit else "",
            counted=_number(counted),
        )
    return f"{measure.label}: {_number(cells[0])}"


def _share(
    measure: Measure, cells: list[Any], meaning: Meaning, over: str, catalog: Catalog
) -> str:
    """ "12.40 % of the containers of the shipments with … (1,234 of 9,950) are with …"."""
    percent, part, whole = cells
    base = ""
    if measure.agg != "count":  # a share of a sum names what it sums; of records, nothing
        shared = english().measure_kinds.share_label.partition("{measure}")[0]
        base = _words().share_base.format(measure=measure.label.removeprefix(shared))
    said = _words().share.format(
        percent=_percent(percent),
        base=base,
        over=over,
        part=_number(part),
        whole=_number(whole),
        of_part=_of_part(measure, meaning, catalog).strip(),
    )
    return said.strip()


def _row(table: Table, meaning: Meaning, row: list[Any]) -> str:
    key = " ".join(str(period_cell(v, meaning.interval)) for v in table.labels(row))
    said = [_cells(measure, cells) for measure, cells in _split(table, meaning, row)]
    return f"{key} {', '.join(said)}"


def _cells(measure: Measure, cells: list[Any]) -> str:
    """One measure's cells of a row: a share with its part and whole, a percentile with how many
    records had a value, else the figure."""
    if measure.share is not None:
        return _words().share_row.format(
            percent=_percent(cells[0]), part=_number(cells[1]), whole=_number(cells[2])
        )
    if measure.agg == "percentile":
        return _words().percentile_row.format(value=_number(cells[0]), counted=_number(cells[1]))
    return _number(cells[0])


def _of_part(measure: Measure, meaning: Meaning, catalog: Catalog) -> str:
    """ "with port of unlading SAVANNAH " for a share of a part; "" otherwise."""
    if measure.share is None or not measure.share.part:
        return ""
    part = writing().shared.and_word.join(
        condition_words(c, catalog, value_names(meaning)) for c in measure.share.part
    )
    return f"{writing().read_back.share_part.format(part=part)} "


def _percent(value: Any) -> str:
    if value is None:
        return writing().shared.not_available
    return numbers.percent(value)


def _number(value: Any) -> str:
    if value is None:
        return writing().shared.not_available
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    return numbers.said(value)


def _words() -> Measures:
    return writing().measures
