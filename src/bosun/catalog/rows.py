"""What one row is (issue #24 class 10): the records' noun and the verbs that count them, from the
records' name.

Evidence: the name ends with a noun of an act on a thing (row_words.yaml) and has words before it,
which name the thing: "pizza_sales" holds pizzas sold, so "pizzas", "sold" and "sell" count rows and
the count is said "pizzas sold". A name with no such act ("flights", "police_stops") keeps its own
noun. Failing the name, a pair of columns for the two sides of one event (row_words.yaml `sides`:
"home_team" and "away_team") says a row is a match.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bosun.catalog.profile import IndexProfile
from bosun.catalog.words import _data, phrase, plural, row_name, singular, spoken, words_of


@dataclass(frozen=True)
class RowNoun:
    thing: str  # "pizza"
    verbs: list[str]  # "sold", "sell", …
    also: tuple[str, ...] = ()  # other nouns for one row ("game" beside "match")
    evidence: str = "its name"

    @property
    def label(self) -> str:
        return f"{plural(self.thing)} {self.verbs[0]}"

    @property
    def words(self) -> list[str]:
        """The words that name a row and count the rows."""
        things = [word for thing in (self.thing, *self.also) for word in (thing, plural(thing))]
        return list(dict.fromkeys([*things, self.label, *self.verbs]))


def row_noun(index: str) -> RowNoun | None:
    acts: dict[str, list[str]] = _data("row_words.yaml")["acts"]
    words = words_of(row_name(index))
    verbs = acts.get(words[-1]) if words else None
    if verbs is None or len(words) < 2:
        return None
    return RowNoun(singular(" ".join(words[:-1])), [str(v) for v in verbs])


def record_noun(index: str, columns: Iterable[str]) -> RowNoun | None:
    """What one row is, from the records' name, else from a pair of sides among the columns."""
    return row_noun(index) or sides_noun(columns)


def sides_noun(columns: Iterable[str]) -> RowNoun | None:
    """A row is one event between two sides when two columns name the same thing for each side: the
    side's word first or last, the rest of the name the same ("home_team"/"away_team",
    "goals_home"/"goals_away")."""
    names = list(columns)
    for spec in _data("row_words.yaml")["sides"]:
        pair = _paired(names, str(spec["sides"][0]), str(spec["sides"][1]))
        if pair:
            nouns = [str(n) for n in spec["nouns"]]
            return RowNoun(
                nouns[0],
                [str(v) for v in spec["verbs"]],
                tuple(nouns[1:]),
                f"its columns {pair[0]} and {pair[1]}",
            )
    return None


def _paired(names: list[str], one: str, other: str) -> tuple[str, str] | None:
    for name in names:
        words = words_of(name)
        if len(words) < 2 or one not in (words[0], words[-1]):
            continue
        swapped = "_".join(
            other if i in (0, len(words) - 1) and w == one else w for i, w in enumerate(words)
        )
        if swapped in names:
            return name, swapped
    return None


def event_verbs(index: str) -> list[str]:
    """The verbs of records named by an act ("flights": flew, flown): they name the records, as the
    noun does."""
    events: dict[str, list[str]] = _data("row_words.yaml")["events"]
    words = words_of(row_name(index))
    return [str(v) for v in events.get(words[-1], [])] if words else []


def row_nouns(record: IndexProfile) -> list[str]:
    """Other nouns for one row, singular and plural, from the column that numbers the rows and from
    a records' name that names a part of a thing:

    invoice_items with a unique invoice_line_id → invoice line(s), line(s), invoice item(s),
    item(s).
    """
    nouns = [*_numbered_by(record), *_part_nouns(record.index)]
    found = [word for noun in nouns for word in (noun, plural(noun))]
    return list(dict.fromkeys([*found, *person_nouns(record)]))


def person_nouns(record: IndexProfile) -> list[str]:
    """ "person", "people", … where enough columns say what a person is or has (row_words.yaml
    `persons`: age, female, married, kids, education); none otherwise.

    Evidence: the columns' whole names, written out ("educ" is education), not a word inside one
    ("customer_age" is a customer's, said by its own noun)."""
    spec: dict[str, Any] = _data("row_words.yaml")["persons"]
    described = {str(w) for w in spec["columns"]}
    named = [name for name in record.columns if {phrase(name), spoken(name)} & described]
    return [str(n) for n in spec["nouns"]] if len(named) >= int(spec["least"]) else []


def person_bound(record: IndexProfile) -> str | None:
    """The column a bare number is of after the people's noun ("people over 60": their age) in
    rows of people (row_words.yaml `persons.bound_by`, by the column's whole name); None in
    other rows."""
    spec: dict[str, Any] = _data("row_words.yaml")["persons"]
    bound_by = {str(w) for w in spec["bound_by"]}
    numeric = [c.name for c in record.columns.values() if c.numeric]
    named = [name for name in numeric if {phrase(name), spoken(name)} & bound_by]
    return named[0] if named and person_nouns(record) else None


def person_adjectives() -> dict[str, list[str]]:
    """The adjectives that compare the bound of people ("older", "younger")."""
    found: dict[str, list[str]] = _data("row_words.yaml")["persons"]["adjectives"]
    return found


def _numbered_by(record: IndexProfile) -> list[str]:
    """ "invoice_line_id", unique among the rows → "invoice line", "line"."""
    ids = {str(w) for w in _data("row_words.yaml")["row_ids"]}
    for column in record.columns.values():
        words = words_of(column.name)
        stem = words[:-1]
        # "id_num" numbers the rows but names nothing
        if stem and words[-1] in ids and not ids & set(stem) and column.distinct >= record.rows > 0:
            return list(dict.fromkeys([" ".join(stem), stem[-1]]))
    return []


def _part_nouns(index: str) -> list[str]:
    """ "invoice_items" → "invoice line", "line", "invoice item", "item"."""
    parts: dict[str, list[str]] = _data("row_words.yaml")["parts"]
    words = words_of(row_name(index))
    found = parts.get(words[-1], []) if len(words) > 1 else []
    whole = " ".join(words[:-1])
    return [said for part in found for said in (f"{whole} {part}", str(part))]


def row_why(index: str, noun: RowNoun) -> str:
    return (
        f"{index}: one row is a {noun.thing} {noun.verbs[0]} ({noun.evidence}) → count "
        f"'{noun.label}'"
    )
