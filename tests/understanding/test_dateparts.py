"""Date parts read against the catalog: a weekday, month or hour is a condition or grouping on the
field the loader derived, checked like any other (a weekday 8 or a sum of weekdays is refused)."""

from __future__ import annotations

import datetime as dt

from bosun.catalog import load_catalog
from bosun.understanding.meaning import Condition, Meaning, Measure
from bosun.understanding.reading import validate_meaning
from bosun.understanding.rules import RulesUnderstanding

TODAY = dt.date(2026, 6, 15)


def test_a_part_holds_only_its_values_and_is_never_measured() -> None:
    catalog = load_catalog()
    meaning = Meaning(
        text="q",
        index="shipments",
        conditions=[
            Condition(field="arrival_date_weekday", values=["5"]),
            Condition(field="departure_date_weekday", values=["8"]),
            Condition(field="eta_date_month", values=["May"]),
        ],
        measures=[Measure(name="s", agg="sum", field="arrival_date_weekday", label="sum")],
    )
    assert validate_meaning(meaning, catalog) == [
        "'departure_date_weekday' (weekday) has no value '8': 1–7",
        "'eta_date_month' (month) has no value 'May': 1–12",
        "'arrival_date_weekday' is a date part, not a figure to measure",
    ]


def test_a_part_the_data_lacks_is_refused_with_the_words_that_ask_it() -> None:
    rules = RulesUnderstanding(load_catalog())
    meaning = rules.analyze("TEU into Savannah between 9am and 5pm", TODAY)
    assert meaning.refusal is not None and meaning.refusal.reason == "no_date_part"
    assert meaning.refusal.words == ["between 9am and 5pm"]
    assert rules.analyze("TEU into Savannah on Fridays", TODAY).refusal is None
