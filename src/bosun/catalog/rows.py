"""What one row is (issue #24 class 10): the records' noun and the verbs that count them, from the records' name.

Evidence: the name ends with a noun of an act on a thing (row_words.yaml) and has words before it, which name the
thing: "pizza_sales" holds pizzas sold, so "pizzas", "sold" and "sell" count rows and the count is said "pizzas
sold". A name with no such act ("flights", "police_stops") keeps its own noun.
"""

from __future__ import annotations

from dataclasses import dataclass

from bosun.catalog.words import _data, plural, row_name, singular, words_of


@dataclass(frozen=True)
class RowNoun:
    thing: str  # "pizza"
    verbs: list[str]  # "sold", "sell", …

    @property
    def label(self) -> str:
        return f"{plural(self.thing)} {self.verbs[0]}"

    @property
    def words(self) -> list[str]:
        """The words that name a row and count the rows."""
        things = [self.thing, plural(self.thing)]
        return list(dict.fromkeys([*things, self.label, *self.verbs]))


def row_noun(index: str) -> RowNoun | None:
    acts: dict[str, list[str]] = _data("row_words.yaml")["acts"]
    words = words_of(row_name(index))
    verbs = acts.get(words[-1]) if words else None
    if verbs is None or len(words) < 2:
        return None
    return RowNoun(singular(" ".join(words[:-1])), [str(v) for v in verbs])


def event_verbs(index: str) -> list[str]:
    """The verbs of records named by an act ("flights": flew, flown): they name the records, as the noun does."""
    events: dict[str, list[str]] = _data("row_words.yaml")["events"]
    words = words_of(row_name(index))
    return [str(v) for v in events.get(words[-1], [])] if words else []


def row_why(index: str, noun: RowNoun) -> str:
    return f"{index}: one row is a {noun.thing} {noun.verbs[0]} (its name) → count '{noun.label}'"
