"""Panels (issue #37 item 2): one row per thing per period where the thing is numbered, not named
or grouped — a respondent's id in each year of a survey (6,127 ids over 5 years), a state's code
in each year (46 codes over 30 years). Its figures are levels of that thing in that period, as a
summary table's are (levels.py), and a code that numbers the things is never summed.

Evidence: a date or date part, and a column of whole numbers or keys whose values repeat across
the periods, no two rows holding the same thing and period, and at least half of the grid of
things × periods present (a survey loses respondents over the years).
"""

from __future__ import annotations

from dataclasses import dataclass

from bosun.catalog.profile import Column, IndexProfile
from bosun.catalog.rows import person_nouns
from bosun.catalog.summaries import one_row_each, period_word
from bosun.catalog.words import _words, phrase, words_of
from bosun.engines.base import Engine

_DENSE = 0.5  # at least this share of the things × periods grid is present
_REPEATS = 2  # a thing is seen in this many periods on average, at least
_MOST_ASKED = 8  # pairs of a period and a thing checked against the data, at most


@dataclass(frozen=True)
class Panel:
    thing: str  # the column numbering the things ("id", "state")
    period: str  # what one period is ("year")
    things: int
    periods: int

    def why(self, rows: int) -> str:
        """ "one row per id and year (19,609 rows of 6,127 ids × 5 years)"."""
        return (
            f"one row per {phrase(self.thing)} and {self.period} ({rows:,} rows of "
            f"{self.things:,} {phrase(self.thing)}s × {self.periods:,} {self.period}s)"
        )


def panel_of(
    engine: Engine, record: IndexProfile, roles: dict[str, str], parts: set[str]
) -> Panel | None:
    """The numbered thing and the period that a row is one of; None for any other table. `roles`:
    the drafted roles; `parts`: the date-part columns."""
    periods = [
        c
        for c in record.columns.values()
        if (roles[c.name] == "date" or c.name in parts) and c.distinct > 1
    ]
    things = [
        c
        for c in record.columns.values()
        if c.name not in parts and _numbers_things(c, roles[c.name], record.rows)
    ]
    pairs = [(p, t) for p in periods for t in things if _fills(p, t, record.rows)]
    # the fullest grids first, and a bounded number asked: a wide file has thousands of pairs
    pairs.sort(key=lambda pair: -record.rows / (pair[0].distinct * pair[1].distinct))
    for period, thing in pairs[:_MOST_ASKED]:
        if one_row_each(engine, record.index, [period, thing]):
            word = period_word(period, parts)
            return Panel(thing.name, word, thing.distinct, period.distinct)
    return None


def _fills(period: Column, thing: Column, rows: int) -> bool:
    """The rows fill at least half of the things × periods grid, and no more than all of it."""
    grid = period.distinct * thing.distinct
    return _DENSE * grid <= rows <= grid


def _numbers_things(column: Column, role: str, rows: int) -> bool:
    """An id, or whole numbers drafted as a quantity, whose values repeat across the rows."""
    whole = column.type in {"integer", "long"}
    numbered = role == "identifier" and (whole or column.type == "keyword")
    counted = role == "measure" and whole
    return (numbered or counted) and column.distinct >= 2 and _REPEATS * column.distinct <= rows


def thing_words(record: IndexProfile, panel: Panel) -> list[str]:
    """The nouns of a panel's things where only an id word names them ("id", "nr"): what each row
    describes, a person where its columns say so (rows.py), so "how many different people" counts
    the ids."""
    ids = {str(w) for w in _words()["id_words"]}
    if any(w not in ids for w in words_of(panel.thing)):
        return []
    return person_nouns(record)
