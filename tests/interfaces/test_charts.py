"""Charts chosen from a result's shape and validated against the Vega-Lite v5 schema."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from bosun.answers.charts import SCHEMA_URL, chart_for, validate
from bosun.workers.models import ResultTable

TERMS = {
    "aggs": {"g": {"terms": {"field": "carrier_name"}, "aggs": {"m0": {"sum": {"field": "teu"}}}}}
}
MONTHS = {
    "aggs": {"t": {"date_histogram": {"field": "arrival_date", "calendar_interval": "month"}}}
}
BY_MONTH = {"aggs": {"g": {"terms": {"field": "carrier_name"}, "aggs": MONTHS["aggs"]}}}
TWO_DIMS = {
    "aggs": {
        "g": {"terms": {"field": "carrier_name"}, "aggs": {"h": {"terms": {"field": "status"}}}}
    }
}


def table(
    columns: list[str],
    rows: list[list[Any]],
    query: dict[str, Any] | None,
    labels: list[str] | None = None,
    roles: list[Any] | None = None,
) -> ResultTable:
    return ResultTable(
        title="t",
        columns=columns,
        rows=rows,
        total=len(rows),
        query=query,
        labels=labels or [],
        roles=roles or [],
    )


def test_a_ranking_is_bars_in_the_rows_order() -> None:
    spec = chart_for(
        table(["carrier_name", "TEU"], [["MAERSK", 30], ["MSC", 20], ["ONE", 25]], TERMS)
    )
    assert spec is not None and spec["$schema"] == SCHEMA_URL and spec["mark"]["type"] == "bar"
    assert spec["encoding"]["y"] == {
        "field": "carrier_name",
        "type": "nominal",
        "sort": None,
        "title": "carrier_name",
    }
    assert spec["data"]["values"][0] == {"carrier_name": "MAERSK", "TEU": 30}


def test_a_time_series_is_a_line_and_one_per_group() -> None:
    line = chart_for(table(["period", "shipments"], [["2025-01-01", 3], ["2025-02-01", 5]], MONTHS))
    assert line is not None and line["mark"]["type"] == "line"
    assert line["encoding"]["x"] == {
        "field": "period",
        "type": "ordinal",
        "sort": ["Jan 2025", "Feb 2025"],
        "title": "period",
        "axis": {"labelAngle": 0, "labelOverlap": "greedy"},  # level, never on end
    }
    assert line["data"]["values"] == [
        {"period": "Jan 2025", "shipments": 3},
        {"period": "Feb 2025", "shipments": 5},
    ]
    rows = [["MSC", "2025-02-01", 4], ["ONE", "2024-12-01", 1], ["MSC", "2025-01-01", 3]]
    per_group = chart_for(table(["carrier_name", "period", "shipments"], rows, BY_MONTH))
    assert per_group is not None and per_group["mark"]["type"] == "line"
    assert per_group["encoding"]["color"]["field"] == "carrier_name"
    # in time, not as first met
    assert per_group["encoding"]["x"]["sort"] == ["Dec 2024", "Jan 2025", "Feb 2025"]


def test_a_chart_names_each_interval_as_people_write_it() -> None:
    for interval, first, second in (
        ("quarter", "Q1 2025", "Q2 2025"),
        ("week", "6 Jan 2025", "7 Apr 2025"),
        ("day", "6 Jan", "7 Apr"),
    ):
        query = {
            "aggs": {
                "t": {"date_histogram": {"field": "arrival_date", "calendar_interval": interval}}
            }
        }
        spec = chart_for(
            table(["period", "shipments"], [["2025-01-06", 3], ["2025-04-07", 5]], query)
        )
        assert spec is not None and [v["period"] for v in spec["data"]["values"]] == [first, second]


def test_two_dimensions_stack_and_a_share_is_one_normalized_bar() -> None:
    rows = [["MSC", "arrived", 3], ["MSC", "held", 1], ["ONE", "arrived", 2]]
    stacked = chart_for(table(["carrier_name", "status", "shipments"], rows, TWO_DIMS))
    assert stacked is not None and stacked["encoding"]["y"]["stack"] == "zero"
    assert stacked["encoding"]["color"]["field"] == "status"
    share = chart_for(
        table(["carrier_name", "share of TEU"], [["MSC", 60.0], ["ONE", 40.0]], TERMS)
    )
    assert share is not None and share["encoding"]["x"]["stack"] == "normalize"
    each_own = chart_for(
        table(["carrier_name", "share held (%)"], [["MSC", 2.2], ["ONE", 3.9]], TERMS)
    )
    # bars, not one whole
    assert each_own is not None and each_own["encoding"]["y"]["field"] == "carrier_name"


@pytest.mark.parametrize(
    ("columns", "rows", "query"),
    [
        (["bol_number", "teu"], [["A", 1], ["B", 2]], {"query": {"match_all": {}}}),  # records
        (["carrier_name", "TEU"], [["MSC", 3]], TERMS),  # one group
        (["shipments"], [[5], [6]], {"aggs": {"m0": {"sum": {"field": "teu"}}}}),  # no bucket
        (["carrier_name", "alliance"], [["MSC", "x"], ["ONE", "y"]], TERMS),  # nothing to measure
        (["field", "value"], [["flag", "PA"], ["built", 2011]], None),  # an object's attributes
    ],
)
def test_no_chart_where_none_fits(
    columns: list[str], rows: list[list[Any]], query: dict[str, Any] | None
) -> None:
    assert chart_for(table(columns, rows, query)) is None


def test_the_validator_is_the_real_schema() -> None:
    with pytest.raises(jsonschema.ValidationError):
        validate({"$schema": SCHEMA_URL, "mark": "pie-ish", "data": {"values": []}})


def test_axis_titles_are_the_answers_headings_not_field_names() -> None:
    spec = chart_for(
        table(
            ["carrier_name", "TEU"],
            [["MAERSK", 30], ["MSC", 20]],
            TERMS,
            labels=["carrier", "total TEU"],
            roles=["key", "figure"],
        )
    )
    assert spec is not None
    assert spec["encoding"]["y"]["title"] == "carrier"
    assert spec["encoding"]["x"]["title"] == "total TEU"


def test_every_measure_asked_is_drawn_each_on_its_own_scale() -> None:
    two = {
        "aggs": {
            "g": {
                "terms": {"field": "shipper_name"},
                "aggs": {"m0": {"value_count": {"field": "_id"}}, "m1": {"avg": {"field": "d"}}},
            }
        }
    }
    spec = chart_for(
        table(
            ["shipper_name", "shipments", "average transit days"],
            [["A", 1045, 16.14], ["B", 743, 15.79]],
            two,
            labels=["shipper", "shipments", "average transit days"],
            roles=["key", "figure", "figure"],
        )
    )
    assert spec is not None and "encoding" not in spec
    views = spec["vconcat"]
    assert [view["encoding"]["x"]["field"] for view in views] == [
        "shipments",
        "average transit days",
    ]
    assert [view["encoding"]["y"]["title"] for view in views] == ["shipper", "shipper"]
    assert spec["data"]["values"][1] == {
        "shipper_name": "B",
        "shipments": 743,
        "average transit days": 15.79,
    }


def test_a_share_of_many_parts_lists_every_part_in_its_own_colour_largest_first() -> None:
    names = [f"C{i}" for i in range(12)]
    shares = [20.0, 15.0, 12.0, 10.0, 8.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0]
    spec = chart_for(
        table(
            ["carrier_name", "share of TEU"],
            [list(r) for r in zip(names, shares, strict=True)],
            TERMS,
        )
    )
    assert spec is not None
    colour = spec["encoding"]["color"]
    assert colour["scale"] == {"scheme": "tableau20"}  # 20 distinct colours, not 10
    assert colour["legend"]["symbolLimit"] == 0  # every part in the legend
    assert colour["sort"] == {"field": "share of TEU", "order": "descending"}
    assert spec["encoding"]["order"]["sort"] == "descending"


def test_periods_compared_draw_every_measure() -> None:
    rng = {"range": {"arrival_date": {"gte": "2025-01-01"}}}
    query = {
        "aggs": {
            "g": {
                "terms": {"field": "carrier_name"},
                "aggs": {"p0": {"filter": rng}, "p1": {"filter": rng}},
            }
        }
    }
    columns = ["carrier_name", "TEU · 2025", "TEU · 2026", "shipments · 2025", "shipments · 2026"]
    spec = chart_for(
        table(
            [*columns, "change", "change %"],
            [["MSC", 10, 12, 3, 4, 2, 20.0], ["ONE", 8, 6, 2, 2, -2, -25.0]],
            query,
            labels=["carrier", *columns[1:], "change", "change %"],
            roles=["key", "figure", "figure", "figure", "figure", "change", "change_percent"],
        )
    )
    assert spec is not None
    views = spec["vconcat"]
    assert [view["transform"][0]["fold"] for view in views] == [columns[1:3], columns[3:5]]
    assert [view["encoding"]["y"]["title"] for view in views] == ["TEU", "shipments"]
    assert views[0]["encoding"]["x"]["title"] == "carrier"
