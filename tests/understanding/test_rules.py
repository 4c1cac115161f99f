"""The rules backend reads questions with the catalog's words only."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from bosun.catalog import load_catalog
from bosun.understanding.rules import RulesUnderstanding

TODAY = date(2026, 6, 15)
SHOP = Path(__file__).parents[1] / "domains" / "shop" / "catalog.yaml"


@pytest.fixture(scope="module")
def rules() -> RulesUnderstanding:
    return RulesUnderstanding(load_catalog())


def read(rules: RulesUnderstanding, question: str) -> dict[str, Any]:
    m = rules.analyze(question, TODAY)
    return {
        "intent": m.intent_type,
        "filters": {c.field: c.values for c in m.conditions},
        "time": (m.time.field, str(m.time.start), str(m.time.end)) if m.time else None,
        "measures": [(x.agg, x.field) for x in m.measures],
        "group_by": m.group_by,
        "interval": m.interval,
        "top_n": m.top_n,
        "sort": m.sort,
        "ambiguous": [a.options for a in m.ambiguities if a.kind == "entity"],
    }


def test_records_with_names(rules: RulesUnderstanding) -> None:
    assert read(rules, "Show me Maersk shipments to Los Angeles") == {
        "intent": "search",
        "filters": {"carrier_name": ["MAERSK"], "port_of_unlading": ["LOS ANGELES"]},
        "time": None,
        "measures": [],
        "group_by": [],
        "interval": None,
        "top_n": None,
        "sort": [],
        "ambiguous": [],
    }


def test_count_with_time_words(rules: RulesUnderstanding) -> None:
    got = read(rules, "How many shipments arrived in Houston last month?")
    assert got["filters"] == {"port_of_unlading": ["HOUSTON"]}
    assert got["time"] == ("arrival_date", "2026-05-01", "2026-05-31")
    assert got["measures"] == [("count", None)] and got["intent"] == "aggregation"


def test_ranking_by_a_measure(rules: RulesUnderstanding) -> None:
    got = read(rules, "Top 5 shippers to LA by TEU in 2025")
    assert (got["group_by"], got["top_n"], got["measures"]) == (
        ["shipper_name"],
        5,
        [("sum", "teu")],
    )
    assert got["filters"] == {"port_of_unlading": ["LOS ANGELES"]}


def test_comparison_of_two_names(rules: RulesUnderstanding) -> None:
    m = rules.analyze("Compare Maersk vs Evergreen shipping volumes to LA last quarter", TODAY)
    assert m.compare == ["carrier_name"]
    assert {c.field: c.values for c in m.conditions}["carrier_name"] == ["MAERSK", "EVERGREEN"]
    assert m.assumptions == ["volume means TEU (sum of teu)"]
    assert [a.kind for a in m.ambiguities] == ["field"]  # the date field of "last quarter", assumed


def test_vocabularies_and_grouping(rules: RulesUnderstanding) -> None:
    got = read(rules, "How many shipments are currently in transit to New York?")
    assert got["filters"] == {"port_of_unlading": ["NEW YORK"], "status": ["in_transit"]}
    assert got["measures"] == [("count", None)]  # "transit" inside "in transit" is not transit time
    got = read(rules, "Number of hazardous shipments by port of unlading last year")
    assert (got["filters"], got["group_by"]) == ({"is_hazardous": [True]}, ["port_of_unlading"])


def test_superlative_on_a_measure_sorts_records(rules: RulesUnderstanding) -> None:
    got = read(rules, "Show the heaviest 5 shipments into Houston last month")
    assert (got["intent"], got["sort"], got["top_n"]) == (
        "search",
        [("gross_weight_kg", "desc")],
        5,
    )


def test_which_one_and_trend(rules: RulesUnderstanding) -> None:
    got = read(rules, "Which carrier moved the most TEU into Savannah this year?")
    assert (got["group_by"], got["top_n"], got["time"]) == (
        ["carrier_name"],
        1,
        ("arrival_date", "2026-01-01", "2026-06-15"),
    )
    got = read(rules, "Monthly TEU trend for COSCO into Long Beach in 2025")
    assert (got["interval"], got["filters"]) == (
        "month",
        {"carrier_name": ["COSCO"], "port_of_unlading": ["LONG BEACH"]},
    )


def test_possessive_typo_and_ambiguity(rules: RulesUnderstanding) -> None:
    assert read(rules, "Break down MSC's TEU into Savannah by container type in 2025")[
        "filters"
    ] == {"carrier_name": ["MSC"], "port_of_unlading": ["SAVANNAH"]}
    assert read(rules, "maesrk volumes")["filters"] == {"carrier_name": ["MAERSK"]}
    assert read(rules, "Show me shipments for Anna")["ambiguous"] == [
        ["ANNA EXPRESS", "ANNA MAERSK", "MSC ANNA"]
    ]


def test_a_second_domain_reads_with_its_own_catalog() -> None:
    from pathlib import Path

    shop = RulesUnderstanding(
        load_catalog(Path(__file__).parents[1] / "domains" / "shop" / "catalog.yaml")
    )
    got = read(shop, "Revenue by store for Northwind in March 2026")
    assert got["filters"] == {"customer_name": ["NORTHWIND TRADERS"]}
    assert (got["measures"], got["group_by"]) == ([("sum", "amount")], ["store_name"])
    assert got["time"] == ("order_date", "2026-03-01", "2026-03-31")


def test_a_time_range_without_a_date_word_assumes_the_default_date_field(
    rules: RulesUnderstanding,
) -> None:
    m = rules.analyze("Shipments to LA last quarter", TODAY)
    assert m.time is not None and m.time.field == "arrival_date"
    (unsure,) = m.ambiguities
    assert (unsure.kind, unsure.term, unsure.default) == ("field", "last quarter", "arrival_date")
    assert unsure.options == ["arrival_date", "departure_date", "eta_date"]
    named = rules.analyze("Shipments that departed for LA last quarter", TODAY)
    assert (
        named.time is not None and named.time.field == "departure_date" and named.ambiguities == []
    )


def test_a_synonym_of_two_fields_takes_the_first_and_says_so(rules: RulesUnderstanding) -> None:
    m = rules.analyze("Shipments arrived in LA in 2025 by origin country", TODAY)
    assert m.group_by == ["shipper_country"]
    assert [(a.kind, a.term, a.options) for a in m.ambiguities] == [
        ("field", "origin country", ["shipper_country", "lading_country"])
    ]


def test_a_word_of_two_measures_takes_the_default_and_says_so() -> None:
    catalog = load_catalog()
    spec = catalog.spec.model_copy(deep=True)
    spec.measures["boxes"] = spec.measures["containers"].model_copy(update={"words": ["volume"]})
    m = RulesUnderstanding(type(catalog)(spec, catalog.path)).analyze(
        "Volume to LA by carrier in 2025", TODAY
    )
    assert [(x.name, x.field) for x in m.measures] == [("volume", "teu")]
    (unsure,) = [a for a in m.ambiguities if a.kind == "measure"]
    assert (unsure.term, unsure.options, unsure.default) == (
        "volume",
        ["volume", "boxes"],
        "volume",
    )


@pytest.mark.parametrize(
    ("question", "page"),
    [
        ("Show Maersk shipments to LA", 1),
        ("Show Maersk shipments to LA, page 3", 3),
        ("the second page of Maersk shipments to LA", 2),
    ],
)
def test_which_page_of_records(rules: RulesUnderstanding, question: str, page: int) -> None:
    m = rules.analyze(question, TODAY)
    assert (m.intent_type, m.page, m.top_n) == ("search", page, None)


@pytest.mark.parametrize(
    ("question", "negated"),
    [
        (
            "Shipments to LA not from Maersk last month",
            {"carrier_name": True, "port_of_unlading": False},
        ),
        ("shipments excluding China to LA", {"lading_country": True, "port_of_unlading": False}),
        (
            "excluding shipments from China, how many went to LA?",
            {"lading_country": True, "port_of_unlading": False},
        ),
        ("non-hazardous shipments to Houston", {"is_hazardous": True, "port_of_unlading": False}),
    ],
)
def test_negations(rules: RulesUnderstanding, question: str, negated: dict[str, bool]) -> None:
    assert {c.field: c.negate for c in rules.analyze(question, TODAY).conditions} == negated


@pytest.mark.parametrize(
    ("question", "field", "bound"),
    [
        ("Shipments heavier than 20 tons to Houston", "gross_weight_kg", {"gt": 20000.0}),
        ("shipments with more than 10 containers to Savannah", "container_count", {"gt": 10.0}),
        ("Shipments over $1.5M declared value", "declared_value_usd", {"gt": 1_500_000.0}),
        (
            "How many shipments to Savannah took longer than 30 days in transit?",
            "transit_days",
            {"gt": 30.0},
        ),
        ("shipments with at least 8 TEU to Houston", "teu", {"gte": 8.0}),
        ("shipments with a declared value under 10k", "declared_value_usd", {"lt": 10_000.0}),
    ],
)
def test_numeric_thresholds_with_units(
    rules: RulesUnderstanding, question: str, field: str, bound: dict[str, float]
) -> None:
    m = rules.analyze(question, TODAY)
    (condition,) = [c for c in m.conditions if c.field == field]
    assert {
        k: v for k in ("gt", "gte", "lt", "lte") if (v := getattr(condition, k)) is not None
    } == bound
    # the threshold's words are not read as a measure
    assert all(x.field != field for x in m.measures)
    # "in transit" there is not the status
    assert not any(c.field == "status" for c in m.conditions)


def test_a_threshold_on_nothing_known_is_named(rules: RulesUnderstanding) -> None:
    assert rules.analyze("shipments over 5 widgets", TODAY).not_understood == ["over 5 widgets"]


def test_a_word_several_values_share_means_any_of_them(rules: RulesUnderstanding) -> None:
    assert read(rules, "reefer shipments to Savannah")["filters"]["container_type"] == [
        "20RF",
        "40RF",
    ]
    assert read(rules, "20 foot reefer shipments to Savannah")["filters"]["container_type"] == [
        "20RF"
    ]


@pytest.mark.parametrize(
    ("question", "group_by"),
    [
        ("Which shippers to Oakland used 20 foot containers last year?", ["shipper_name"]),
        ("What carriers serve Long Beach?", ["carrier_name"]),
    ],
)
def test_which_x_groups_by_x_whatever_the_verb(
    rules: RulesUnderstanding, question: str, group_by: list[str]
) -> None:
    m = rules.analyze(question, TODAY)
    assert m.group_by == group_by and m.lookup is None


def test_names_that_pick_the_same_rows_are_not_an_ambiguity(rules: RulesUnderstanding) -> None:
    m = rules.analyze("Total value of toys imported into LA in Q4 2025", TODAY)
    assert [a for a in m.ambiguities if a.kind == "entity"] == []
    assert {c.field for c in m.conditions} == {"hs_code", "port_of_unlading"}


def test_which_n_ranks_n_groups(rules: RulesUnderstanding) -> None:
    m = rules.analyze("Which 3 countries of origin sent the most TEU to Norfolk in 2025?", TODAY)
    assert (m.group_by, m.top_n, [x.field for x in m.measures]) == (["lading_country"], 3, ["teu"])


def test_the_first_date_word_said_picks_the_date_field(rules: RulesUnderstanding) -> None:
    m = rules.analyze("Shipments expected to arrive in Savannah next week", TODAY)
    assert m.time is not None and (m.time.field, str(m.time.start)) == ("eta_date", "2026-06-22")
    assert [a.options for a in m.ambiguities if a.kind == "field"] == [["eta_date", "arrival_date"]]


def test_recency_words_sort_records_by_the_date_their_noun_names(rules: RulesUnderstanding) -> None:
    m = rules.analyze("show me the latest 5 departures from Busan", TODAY)
    assert (m.intent_type, m.sort, m.top_n, m.not_understood) == (
        "search",
        [("departure_date", "desc")],
        5,
        [],
    )


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "which commodity had the highest average value per kg",
            ["per kg"],
        ),  # a ratio is not computed
        # no party phrase: the question word is said
        ("who moved the most TEU into Oakland", ["who", "the most"]),
        ("shipments from Acme% to Houston", ["%"]),  # a wildcard is never part of a name
        ("how many shipments in 1850", ["1850"]),  # a year that cannot be a date of the data
        # a word that float() would read as a number is a word
        ("how many shipments to Savannah INF", ["INF"]),
    ],
)
def test_what_cannot_be_read_is_said(
    rules: RulesUnderstanding, question: str, said: list[str]
) -> None:
    assert rules.analyze(question, TODAY).not_understood == said


def test_a_party_phrase_of_the_catalog_groups_by_that_party(rules: RulesUnderstanding) -> None:
    m = rules.analyze("who ships the most toys to Long Beach", TODAY)
    assert (m.group_by, m.top_n, m.not_understood) == (["shipper_name"], 1, [])


@pytest.mark.parametrize(
    ("question", "catalog_form"),
    [
        (
            "how many shipments departing from Shanghai in 2025",
            "how many shipments departed from Shanghai in 2025",
        ),
        (
            "how many shipments sailing from Busan in 2025",
            "how many shipments sail from Busan in 2025",
        ),
        ("top 5 consignee by TEU in 2025", "top 5 consignees by TEU in 2025"),
        ("shipments valued above $1 million", "shipments of value above $1 million"),
        ("average transits by carrier", "average transit by carrier"),
    ],
)
def test_a_catalog_word_reads_in_any_inflection(
    rules: RulesUnderstanding, question: str, catalog_form: str
) -> None:
    assert read(rules, question) == read(rules, catalog_form)
    assert rules.analyze(question, TODAY).not_understood == []


def test_a_form_the_catalog_spells_with_two_meanings_is_not_guessed(
    rules: RulesUnderstanding,
) -> None:
    """ "load" and "loaded" name the departure date, "loads" counts shipments: "loading" could be
    either, so it is reported rather than read as one."""
    meaning = rules.analyze("how many shipments loading in Shanghai in 2025", TODAY)
    assert meaning.not_understood == ["loading"]


@pytest.mark.parametrize(
    ("question", "looked_up"),
    [
        ("how many orders over 15000", None),
        ("orders above 250000 this year", None),
        ("order 100234", "100234"),
        ("what did order 100234 contain", "100234"),
    ],
)
def test_a_number_after_a_bound_is_no_identifier(question: str, looked_up: str | None) -> None:
    """A record kind then a number is one record's id ("order 100234"), but not when a bound
    stands between them: "orders over 15000" bounds an amount, never looks up order 15000."""
    shop = RulesUnderstanding(load_catalog(SHOP))
    m = shop.analyze(question, TODAY)
    assert (m.lookup.key if m.lookup else None) == looked_up
