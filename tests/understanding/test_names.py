from __future__ import annotations

import pytest

from bosun.catalog import Catalog, load_catalog
from bosun.understanding.names import Found, NameIndex, build_index, find_names


@pytest.fixture(scope="module")
def index() -> NameIndex:
    return build_index(load_catalog())


def names(text: str, index: NameIndex) -> list[tuple[str, list[tuple[str, str]], str]]:
    found: list[Found] = find_names(text, index)
    return [
        (f.text, sorted({(c.entity, c.value) for c in f.candidates}), f.candidates[0].method)
        for f in found
    ]


def test_exact_alias_and_code(index: NameIndex) -> None:
    assert names("Maersk shipments to LA via USLGB", index) == [
        ("Maersk", [("carrier", "MAERSK")], "exact"),
        ("LA", [("port", "LOS ANGELES")], "alias"),
        ("USLGB", [("port", "LONG BEACH")], "code"),
    ]


def test_longest_phrase_wins(index: NameIndex) -> None:
    assert names("into Long Beach from Ho Chi Minh City", index) == [
        ("Long Beach", [("port", "LONG BEACH")], "exact"),
        ("Ho Chi Minh City", [("port", "HO CHI MINH CITY")], "exact"),
    ]


def test_typo_resolves_fuzzily(index: NameIndex) -> None:
    assert names("maesrk volumes", index) == [("maesrk", [("carrier", "MAERSK")], "fuzzy")]


def test_shared_alias_is_ambiguous(index: NameIndex) -> None:
    (found,) = find_names("shipments from Acme Corp to", index)
    assert found.ambiguous
    assert sorted(c.value for c in found.candidates) == ["ACME CORP LLC", "ACME CORPORATION"]


def test_partial_name_matching_several_is_ambiguous(index: NameIndex) -> None:
    (found,) = find_names("Show me shipments for Anna", index)
    assert sorted(c.value for c in found.candidates) == ["ANNA EXPRESS", "ANNA MAERSK", "MSC ANNA"]


def test_partial_name_matching_one_resolves(index: NameIndex) -> None:
    assert names("containers from Bavarian Motor Parts", index) == [
        ("Bavarian Motor Parts", [("company", "BAVARIAN MOTOR PARTS GMBH")], "partial")
    ]


def test_inline_vocabulary_and_products(index: NameIndex) -> None:
    assert names("lithium-ion batteries from Vietnam", index) == [
        ("lithium-ion batteries", [("product", "Lithium-ion accumulators")], "alias"),
        ("Vietnam", [("country", "VN")], "alias"),
    ]


def test_unknown_names_find_nothing(index: NameIndex) -> None:
    assert names("average gross weight of reefer shipments to Philadelphia", index) == []


def _with_defaults(**defaults: float) -> Catalog:
    """The sample's catalog with its `defaults` changed as a catalog file would change them."""
    catalog = load_catalog()
    spec = catalog.spec.model_copy(
        update={"defaults": catalog.spec.defaults.model_copy(update=defaults)}
    )
    return Catalog(spec, catalog.path)


def test_the_catalog_says_how_alike_a_misspelt_name_must_be() -> None:
    # "maesrk" is 83 % like "maersk": read at the default 80, not at 85 or 90
    assert names("maesrk volumes", build_index(_with_defaults(fuzzy_min_score=80))) == [
        ("maesrk", [("carrier", "MAERSK")], "fuzzy")
    ]
    assert names("maesrk volumes", build_index(_with_defaults(fuzzy_min_score=85))) == []
    assert names("maesrk volumes", build_index(_with_defaults(fuzzy_min_score=90))) == []
