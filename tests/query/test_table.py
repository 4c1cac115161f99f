"""The compiler's table names what each column is: a reader asks a row for its keys, its period,
a measure's figure or the change, and never counts columns. Each question runs through the rules
reader, `compile` and `tabulate` on the embedded engine over the sample."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest

from bosun import query
from bosun.catalog import load_catalog
from bosun.engines.embedded import EmbeddedEngine
from bosun.query import Table
from bosun.understanding.rules import RulesUnderstanding
from tests.conftest import sample_engine

TODAY = date(2026, 6, 15)


@pytest.fixture(scope="module")
def engine() -> Iterator[EmbeddedEngine]:
    yield from sample_engine(2_000)


def tabulated(engine: EmbeddedEngine, question: str) -> Table:
    catalog = load_catalog()
    meaning = RulesUnderstanding(catalog).read(question, [], TODAY).goals[0].meaning
    assert meaning is not None and meaning.not_understood == [], question
    compiled = query.compile(meaning, catalog)
    return query.tabulate(compiled, engine.search(compiled.index, compiled.body), catalog)


def described(table: Table) -> list[tuple[str, str, int | None, int | None]]:
    return [(c.name, c.role, c.measure, c.period) for c in table.columns]


def test_a_grouped_trend_has_a_key_a_period_and_a_figure(engine: EmbeddedEngine) -> None:
    table = tabulated(engine, "monthly TEU by carrier in 2025")
    assert described(table) == [
        ("carrier_name", "key", None, None),
        ("period", "period", None, None),
        ("TEU", "figure", 0, None),
    ]
    assert table.rows and table.total == len(table.rows)
    for row in table.rows:
        assert table.keys(row) == [table.key(row)] and isinstance(table.key(row), str)
        assert str(table.period(row)).startswith("2025-")
        assert table.labels(row) == [table.key(row), table.period(row)]
        assert table.figures(row) == [table.figure(row, 0)] and isinstance(table.figure(row), int)
    carriers = {table.key(row) for row in table.rows}
    assert len(table.rows) == 12 * len(carriers)  # every month of each carrier, empty ones too


def test_periods_side_by_side_name_each_period_figure_and_the_change(
    engine: EmbeddedEngine,
) -> None:
    table = tabulated(engine, "TEU by carrier, 2024 vs 2025")
    assert described(table) == [
        ("carrier_name", "key", None, None),
        ("TEU · 2024", "figure", 0, 0),
        ("TEU · 2025", "figure", 0, 1),
        ("change", "change", None, None),
        ("change %", "change_percent", None, None),
    ]
    assert table.period(table.rows[0]) is None and table.column("period") is None
    for row in table.rows:
        before, after = table.figure(row, 0, period=0), table.figure(row, 0, period=1)
        assert table.figures(row) == [before, after]
        assert table.cell(row, "change") == after - before
        assert table.cell(row, "change_percent") == round(100 * (after - before) / before, 1)


def test_a_listing_names_each_object_by_its_key_and_lists_the_fields_asked(
    engine: EmbeddedEngine,
) -> None:
    table = tabulated(engine, "which carriers belong to the Gemini Cooperation")
    assert described(table) == [
        ("carrier_name", "key", None, None),
        ("alliance", "field", None, None),
    ]
    assert sorted(table.key(row) for row in table.rows) == ["HAPAG-LLOYD", "MAERSK"]
    assert {table.value(row, "alliance") for row in table.rows} == {"Gemini Cooperation"}
    assert table.figures(table.rows[0]) == [] and table.column("figure") is None


def test_a_record_search_keys_each_record_by_its_id(engine: EmbeddedEngine) -> None:
    table = tabulated(engine, "shipments from Shanghai to Oakland in 2025")
    assert table.roles[0] == "key" and set(table.roles[1:]) == {"field"}
    assert table.names[0] == "bol_number" and table.total >= len(table.rows) > 0
    for row in table.rows:
        assert table.value(row, "port_of_lading") == "SHANGHAI"
        assert table.keys(row) == [table.value(row, "bol_number")]


def test_a_share_keeps_its_part_and_whole_beside_its_figure(engine: EmbeddedEngine) -> None:
    table = tabulated(engine, "share of TEU by carrier")
    assert table.roles == ["key", "figure", "part", "whole"]
    for row in table.rows:
        percent, part, whole = table.measured(row, 0)
        assert table.figures(row) == [percent] and percent == round(100 * part / whole, 2)
        assert table.cell(row, "whole") == whole


def test_an_average_per_period_counts_the_periods_and_keeps_their_total(
    engine: EmbeddedEngine,
) -> None:
    table = tabulated(engine, "average shipments per day in May")
    assert described(table) == [
        ("shipments per day (average)", "figure", 0, None),
        ("days", "count", None, None),
        ("shipments", "total", 0, None),
    ]
    (row,) = table.rows
    assert table.labels(row) == [] and table.cell(row, "count") == 31
    assert table.figure(row) == round(table.cell(row, "total") / 31, 2)
