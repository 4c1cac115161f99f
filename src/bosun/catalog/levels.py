"""Levels versus amounts (issue #37 item 2): in a table of one row per thing per period (a state in
a year, a store in a week), a figure is that thing's level in that period, an unemployment rate, a
capital stock, a population: averaged over rows, or summed across things within one period ("total
employment across all states in 1975"), never summed into a total over periods. Its bare words go
to its average ("unemployment by state" is the average unemployment), "total" to a sum kept for
one period at a time, and a fraction of a hundred is also called a rate ("unemployment rate").

Evidence: the table's rows are one thing and one period each (summaries.py: a dimension and a date
or date part unique together); a figure is an amount, summed as before, where its name says so (a
sum word, a flow word such as "generation" or "sold", or a plural noun of whole numbers: "returns",
"goals"), else a level.
"""

from __future__ import annotations

from typing import Any

from bosun.catalog.counted import said_whole
from bosun.catalog.profile import Column, IndexProfile
from bosun.catalog.words import _has, phrase, plural, singular, words_of

_PERCENT = 100  # a level of fractions no larger than this is a rate or a percentage


def is_amount(column: Column) -> bool:
    """An amount of the period, summed across periods too: named as one, or a count of things
    ("returns")."""
    if _has(column.name, "sum_words") or _has(column.name, "flow_words"):
        return True
    last = words_of(column.name)[-1] if words_of(column.name) else ""
    counted = last.endswith("s") and singular(last) != last
    return counted and column.type in {"integer", "long"} and (column.low or 0) >= 0


def is_ratio(column: Column) -> bool:
    """A figure per something ("gdp_per_cap"): no sum of it means anything."""
    return "per" in words_of(column.name)


def is_rate(column: Column) -> bool:
    """Fractions within 0 to 100: a rate or a percentage ("unemp" 2.8 to 18.0)."""
    low, high = column.low, column.high
    if not isinstance(low, int | float) or not isinstance(high, int | float):
        return False
    fractional = column.type in {"float", "double"}
    return fractional and low >= 0 and high <= _PERCENT


def levels_of(record: IndexProfile, fields: dict[str, dict[str, Any]]) -> list[str]:
    """The measure fields of a thing-by-period table that are levels, not amounts."""
    return [
        name
        for name, field in fields.items()
        if field["role"] == "measure" and not is_amount(record.columns[name])
    ]


def draft_levels(
    record: IndexProfile,
    levels: list[str],
    fields: dict[str, dict[str, Any]],
    measures: dict[str, Any],
) -> None:
    """Mark each level field `level: true` and draft its measures: its own words to the average,
    "total …" to a sum (none for a rate or a ratio, which no sum means), "… rate" for a rate."""
    for name in levels:
        column = record.columns[name]
        said = said_whole(name, record.columns)
        rate = _rate_words(column, said)
        fields[name]["level"] = True
        fields[name]["synonyms"] = list(dict.fromkeys([*fields[name]["synonyms"], *rate]))
        own = {k: m for k, m in measures.items() if m.get("field") == name}
        if all(m["agg"] == "avg" for m in own.values()):  # averaged already (a median per row)
            for measure in own.values():
                measure["words"] = list(dict.fromkeys([*measure["words"], *rate]))
            continue
        words = [w for m in own.values() for w in m["words"] if not w.startswith("total ")]
        for key in own:
            del measures[key]
        measures[name] = _average(name, said, [*words, *rate])
        if not (is_rate(column) or is_ratio(column)):
            measures[f"total_{name}"] = _total(name, said)


def _rate_words(column: Column, said: str) -> list[str]:
    """A fraction under 100 is also said as a rate ("unemployment rate"), unless its name says what
    it is already ("unemployment_rate", "score").

    >>> _rate_words(Column("unemp", "double", 9, 9, 2.8, 18.0), "unemployment")
    ['unemployment rate', 'unemployment rates']
    >>> _rate_words(Column("jobless_rate", "double", 9, 9, 2.8, 18.0), "jobless rate")
    []
    """
    if not is_rate(column) or _has(column.name, "avg_words"):
        return []
    return [f"{said} rate", f"{said} rates"]


def _average(name: str, said: str, words: list[str]) -> dict[str, Any]:
    average = f"average {said}"
    averages = [f"average {w}" for w in words if w.startswith(said) and w != said]
    return {
        "agg": "avg",
        "field": name,
        "words": list(dict.fromkeys([*words, average, *averages, plural(said)])),
        "label": average,
    }


def _total(name: str, said: str) -> dict[str, Any]:
    return {
        "agg": "sum",
        "field": name,
        "words": [f"total {said}", f"total {plural(said)}"],
        "label": f"total {said}",
    }


def mark_averaged(fields: dict[str, dict[str, Any]], measures: dict[str, Any]) -> list[str]:
    """Mark `level: true` on each measure field drafted only as averages (a delay, a duration, an
    age, a rate, a statistic per row: averaged by its name or its values), the fields marked."""
    aggs: dict[str, set[str]] = {}
    for measure in measures.values():
        if measure.get("field") in fields:
            aggs.setdefault(str(measure["field"]), set()).add(str(measure["agg"]))
    averaged = [name for name, found in aggs.items() if found == {"avg"}]
    for name in averaged:
        fields[name]["level"] = True
    return averaged


def average_amounts(
    record: IndexProfile,
    fields: dict[str, dict[str, Any]],
    measures: dict[str, Any],
    levels: list[str],
) -> None:
    """In a table of one row per thing per period, an amount's average is one thing's in one period
    (a respondent's doctor visits in a year): drafted beside its sum, so "average doctor visits per
    year" is each year's average over its rows, not an average of yearly totals."""
    for name, field in fields.items():
        own = [m for m in measures.values() if m.get("field") == name]
        if field["role"] != "measure" or name in levels or not own:
            continue
        if any(m["agg"] == "avg" for m in own):
            continue
        said = said_whole(name, record.columns)
        words = [f"average {w}" for w in dict.fromkeys([said, phrase(name), plural(said)])]
        measures[f"average_{name}"] = {
            "agg": "avg",
            "field": name,
            "words": words,
            "label": f"average {said}",
        }
