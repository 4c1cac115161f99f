"""Candidate readings (understanding/candidates.py): which words may be repaired, how variants are
spelt and scored, and which one is read or asked back."""

from __future__ import annotations

from bosun.understanding.audit import Unexplained, Verdict
from bosun.understanding.candidates import (
    Repair,
    Score,
    Scored,
    Variant,
    Words,
    chosen,
    score,
)
from bosun.understanding.meaning import Ambiguity, Meaning
from bosun.understanding.shorthand import Shorthand

WORDS = Words.of(["consignees", "consignee", "carrier", "shipments", "until", "units"], 80.0, 3.0)


def _meaning(text: str, **parts: object) -> Meaning:
    return Meaning(text=text, index="shipments").model_copy(update=parts)


def test_a_british_spelling_is_spelt_the_american_way_whatever_its_length() -> None:
    assert WORDS.close("tyre") == (("tire", "spelling", 100.0),)


def test_a_typo_is_read_as_the_closest_form_of_a_known_word() -> None:
    (only,) = WORDS.close("consignes")
    assert only[:2] == ("consignees", "typo") and round(only[2]) == 90


def test_english_words_short_words_and_far_words_are_never_repaired() -> None:
    assert WORDS.close("carries") == ()  # an English word, one letter from "carrier"
    assert WORDS.close("unts") == ()  # too short to fuzz
    assert WORDS.close("zorblax") == ()  # close to nothing


def test_two_words_alike_are_both_tried() -> None:
    assert [word for word, _, _ in WORDS.close("untis")] == ["units", "until"]


def test_a_variant_spells_its_repairs_in() -> None:
    text = "top consignes by carier"
    variant = Variant(text).with_repair(Repair(17, 23, "carier", "carrier", "typo"))
    variant = variant.with_repair(Repair(4, 13, "consignes", "consignees", "typo"))
    assert variant.spelt == "top consignees by carrier"


def test_the_score_counts_words_unread_by_the_reading_or_the_audit() -> None:
    meaning = _meaning("top consignes by TEU", not_understood=["consignes"])
    verdict = Verdict(approved=False, unexplained=[Unexplained(words="top", why="")])
    assert score(meaning, verdict, [], 0) == Score(unread=2, asked=0, edits=0, content=0)


def test_a_word_asked_back_is_not_unread() -> None:
    asked = Ambiguity(term="shipper Cosko", kind="entity", options=["COSCO"])
    meaning = _meaning("the shipper Cosko", not_understood=["Cosko"], ambiguities=[asked])
    assert score(meaning, None, [], 0) == Score(unread=0, asked=1, edits=0, content=0)


def _scored(read: str, unread: int, **parts: object) -> Scored:
    variant = Variant("top untis").with_repair(Repair(4, 9, "untis", read, "typo"))
    return Scored(variant, _meaning(variant.spelt, **parts), Score(unread, 0, 1, -2))


def test_a_repair_is_taken_only_when_it_explains_more() -> None:
    first = Scored(Variant("top untis"), _meaning("top untis"), Score(1, 0, 0, -1))
    same = _scored("units", 1)
    assert chosen(first, [same]) == (first, [])
    better = _scored("units", 0, top_n=10)
    assert chosen(first, [better]) == (better, [])


def test_two_repairs_that_explain_alike_but_read_apart_are_asked_back() -> None:
    first = Scored(Variant("top untis"), _meaning("top untis"), Score(1, 0, 0, -1))
    units, until = _scored("units", 0, top_n=10), _scored("until", 0, top_n=3)
    assert chosen(first, [units, until]) == (first, ["units", "until"])
    alike = _scored("until", 0, top_n=10)  # reads the same: no question to ask
    assert chosen(first, [units, alike]) == (units, [])


SHORT = Words.of(
    ["carrier", "quantity"],
    80.0,
    3.0,
    Shorthand.of(
        {"wk": "week", "#": "number of"}, ["quantity", "customer", "customs", "port of lading"]
    ),
)


def test_shorthand_of_the_grammar_is_read_as_the_grammar_says_without_an_edit() -> None:
    assert SHORT.close("wk") == (("week", "abbreviation", 100.0),)
    assert SHORT.close("#") == (("number of", "abbreviation", 100.0),)


def test_shorthand_of_a_catalog_word_is_found_in_the_catalogs_words() -> None:
    assert SHORT.close("qty") == (("quantity", "short", 100.0),)
    assert SHORT.close("POL", spelt=False) == (("port of lading", "short", 100.0),)
    # two catalog words it may stand for: both tried, and asked back when they read alike
    assert [word for word, _, _ in SHORT.close("cust")] == ["customs", "customer"]


def test_a_name_is_read_as_shorthand_only_in_capitals_of_a_catalog_phrase() -> None:
    assert SHORT.close("Pol", spelt=False) == ()
    assert SHORT.close("ABC", spelt=False) == ()
