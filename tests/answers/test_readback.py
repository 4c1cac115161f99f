"""A meaning said back in words: every noun from the catalog, none from the question's text."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from bosun.answers.readback import read_back
from bosun.catalog import Catalog, load_catalog
from bosun.understanding import Condition, Meaning, Measure, TimeFilter
from bosun.understanding.rules import RulesUnderstanding

TODAY = date(2026, 6, 15)
SHOP = Path(__file__).parents[1] / "domains" / "shop" / "catalog.yaml"


@pytest.fixture(scope="module")
def maritime() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="module")
def shop() -> Catalog:
    return load_catalog(SHOP)


@pytest.mark.parametrize(
    ("question", "reading"),
    [
        (
            "How many shipments arrived in Houston last month?",
            "number of shipments · port of unlading HOUSTON · May 2026 (arrival date)",
        ),
        (
            "Top 5 shippers to LA by TEU in 2025",
            "total TEU · by shipper · top 5 by total TEU · port of unlading LOS ANGELES · 2025 "
            "(arrival date)",
        ),
        (
            "5 least busy ports in 2025",
            "number of shipments · by port of unlading · bottom 5 by number of shipments · 2025 "
            "(arrival date)",
        ),
        (
            "shipments between 5 and 10 TEU into Savannah",
            "shipments · port of unlading SAVANNAH · TEU between 5 and 10",
        ),
        (
            "shipments heavier than 20 tons from Maersk or MSC or CMA CGM",
            "number of shipments · by carrier · carrier MAERSK or MSC or CMA CGM · weight above "
            "20,000 kg",
        ),
        (
            "shipments not from China departed in March 2026",
            "shipments · lading country not CN · March 2026 (departure date)",
        ),
        (
            "non-hazardous shipments to Miami this year",
            "shipments · port of unlading MIAMI · not hazardous · 1 Jan 2026 to 15 Jun 2026 "
            "(arrival date)",
        ),
        (
            "shipments in transit to Seattle",
            "shipments · port of unlading SEATTLE · status in transit",
        ),
        # a name beginning with a word of its field's name keeps the field
        (
            "shipments from Port Klang to Long Beach",
            "shipments · port of lading PORT KLANG · port of unlading LONG BEACH",
        ),
        (
            "the 3 heaviest shipments to Oakland",
            "3 shipments · highest weight first · port of unlading OAKLAND",
        ),
        (
            "the latest 5 arrivals in Miami",
            "5 shipments · latest arrival date first · port of unlading MIAMI",
        ),
        ("maximum transit time from Shanghai", "maximum transit days · port of lading SHANGHAI"),
        (
            "average transit time by carrier for reefer shipments",
            "average transit days · by carrier · container type 20RF or 40RF",
        ),
        (
            "value of imports from Vietnam by month in 2025",
            "total declared value (USD) · per month · lading country VN · 2025 (arrival date)",
        ),
    ],
)
def test_a_question_read_back_in_the_catalogs_words(
    maritime: Catalog, question: str, reading: str
) -> None:
    meaning = RulesUnderstanding(maritime).analyze(question, TODAY)
    assert read_back(meaning, maritime) == reading


@pytest.mark.parametrize(
    ("question", "reading"),
    [
        (
            "Revenue by store for Northwind in March 2026",
            "total revenue (USD) · by store · customer NORTHWIND TRADERS · March 2026 (order date)",
        ),
        (
            "How many orders did Contoso place last month?",
            "number of orders · customer CONTOSO LTD · May 2026 (order date)",
        ),
        (
            "orders over 500 dollars at the web store",
            "orders · store ONLINE · amount above 500 USD",
        ),
    ],
)
def test_another_catalog_gives_its_own_words(shop: Catalog, question: str, reading: str) -> None:
    meaning = RulesUnderstanding(shop).analyze(question, TODAY)
    assert read_back(meaning, shop) == reading


def test_the_reading_comes_from_the_meaning_not_the_question(maritime: Catalog) -> None:
    """Two wordings of one meaning read the same; the question's own words ("LA", "boxes") are not
    repeated."""
    readings = {
        read_back(RulesUnderstanding(maritime).analyze(q, TODAY), maritime)
        for q in ("TEU into LA in 2025", "how much TEU arrived at Los Angeles during 2025?")
    }
    assert readings == {"total TEU · port of unlading LOS ANGELES · 2025 (arrival date)"}


def test_open_dates_one_day_many_values_bounds_and_pages(maritime: Catalog) -> None:
    carriers = ["MAERSK", "MSC", "CMA CGM", "COSCO", "EVERGREEN", "ONE", "HMM"]
    meaning = Meaning(
        text="",
        index="shipments",
        conditions=[
            Condition(field="carrier_name", values=carriers, negate=True),
            Condition(field="transit_days", gt=10, lte=30.5),
            Condition(field="is_hazardous", values=[False]),
        ],
        time=TimeFilter(field="departure_date", start=date(2026, 1, 1), end=None, text=""),
        page=3,
        sort=[("teu", "asc")],
    )
    assert read_back(meaning, maritime) == (
        "shipments · lowest TEU first · carrier not MAERSK or MSC or CMA CGM or COSCO or EVERGREEN "
        "and 2 more · "
        "transit days above 10 days and at most 30.5 days · hazardous no · from 1 Jan 2026 "
        "(departure date) · page 3"
    )
    one_day = TimeFilter(field="eta_date", start=date(2026, 6, 14), end=date(2026, 6, 14), text="")
    until = TimeFilter(field="arrival_date", start=None, end=date(2025, 12, 31), text="")
    counted = Measure(name="shipments", agg="count", label="shipments")
    assert (
        read_back(
            Meaning(
                text="",
                index="shipments",
                intent_type="aggregation",
                measures=[counted],
                time=one_day,
                order="asc",
                group_by=["vessel_name"],
            ),
            maritime,
        )
        == "number of shipments · by vessel · lowest first · 14 Jun 2026 (eta)"
    )
    assert (
        read_back(Meaning(text="", index="shipments", top_n=1, time=until), maritime)
        == "1 shipment · until 31 Dec 2025 (arrival date)"
    )


@pytest.mark.parametrize(
    ("question", "reading"),
    [
        (
            "median transit time across all ports in 2025",
            "median transit days · over every port of unlading · 2025 (arrival date)",
        ),
        (
            "the median transit time for every port in 2025",
            "median transit days · by port of unlading · 2025 (arrival date)",
        ),
        (
            "How many containers did Maersk and MSC bring into Savannah, respectively?",
            "total containers · by carrier · carrier MAERSK or MSC · port of unlading SAVANNAH",
        ),
        (
            "In total, how many containers did Maersk and MSC bring into Savannah?",
            "total containers · carrier MAERSK or MSC · port of unlading SAVANNAH",
        ),
        # "had / with / without X": the records with some of X, or the others
        (
            "how many shipments without a declared value came into Miami",
            "number of shipments · port of unlading MIAMI · value not above 0 USD",
        ),
        (
            "how many shipments with containers arrived in Oakland",
            "number of shipments · port of unlading OAKLAND · container count above 0 containers",
        ),
    ],
)
def test_a_scope_word_is_said_back(maritime: Catalog, question: str, reading: str) -> None:
    """One figure over every port, or one per port: the reading says which the answer computed."""
    meaning = RulesUnderstanding(maritime).analyze(question, TODAY)
    assert read_back(meaning, maritime) == reading


def test_a_scope_word_is_said_back_in_another_catalog(shop: Catalog) -> None:
    meaning = RulesUnderstanding(shop).analyze("average order amount across all stores", TODAY)
    assert read_back(meaning, shop) == "average revenue (USD) · over every store"
