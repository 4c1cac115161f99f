"""Attributes of a linked reference that filter the records (issue #24 item 4, a fact table with
references): salaries hold a player id, People.csv says where each player was born, so "salaries of
players born in Venezuela" reads the players born there, then their salaries.

Evidence: a record column whose values are a reference's unique key; the reference's label columns
(letters, a few values each named by itself, in the singular and the plural: countries, states, plot
types) are its attributes, each asked for by its name's words and the participles of those words
(draft_words.yaml `participles`: "birth_country" → "born in").
"""

from __future__ import annotations

from typing import Any

from bosun.catalog.profile import Column, IndexProfile
from bosun.catalog.words import _has, _words, phrase, plural, spoken, words_of
from bosun.engines.base import Engine

PAGE = 5000  # buckets per request when reading a column's values, well under search.max_buckets
SHORT_CODE = 2  # values this short are codes, which may also be words ("IN", "OR", "ME")
# more distinct values than this are no attribute to filter by (cities, names)
MOST_ATTRIBUTE_VALUES = 500


def distinct_values(engine: Engine, index: str, column: str) -> set[str]:
    """Every distinct value of a column, paged by a composite aggregation: a column may hold more
    values (20,000 player ids) than one request may return buckets."""
    values: set[str] = set()
    page: dict[str, Any] = {"size": PAGE, "sources": [{"v": {"terms": {"field": column}}}]}
    while True:
        result = engine.search(index, {"size": 0, "aggs": {"v": {"composite": page}}})[
            "aggregations"
        ]["v"]
        values.update(str(bucket["key"]["v"]) for bucket in result["buckets"])
        if len(result["buckets"]) < PAGE or "after_key" not in result:
            return values
        page["after"] = result["after_key"]


def linked_attributes(
    ref: IndexProfile, key: str, record_fields: list[str], is_label: Any
) -> dict[str, Any]:
    """The `links` entry of one reference linked by its unique key from `record_fields`, or {}
    without attributes.

    `is_label(column)` says whether a column's values are labels (letters, not numbers or codes)."""
    if ref.columns[key].distinct < ref.rows:
        return {}  # a row per period (a team per season): an attribute would change with the period
    attributes = {
        name: _attribute(column)
        for name, column in ref.columns.items()
        if name != key and _filters(column) and is_label(column)
    }
    attributes = {name: attribute for name, attribute in attributes.items() if attribute["values"]}
    if not attributes:
        return {}
    nouns = [w for field in record_fields for w in _thing_words(field)]
    return {
        "key": key,
        "fields": [{"field": field} for field in record_fields],
        "words": list(dict.fromkeys(nouns)),
        "attributes": attributes,
    }


def _filters(column: Column) -> bool:
    return (
        column.type == "keyword"
        and 1 < column.distinct <= MOST_ATTRIBUTE_VALUES
        and column.complete_values
    )


def _attribute(column: Column) -> dict[str, Any]:
    """Words asking for the attribute: its name, and the participles of its words ("born in" for
    birth_country); its values, each naming itself, but for short codes ("IN" is a state and a word:
    "born in Cuba")."""
    participles: dict[str, list[str]] = _words()["participles"]
    said = [phrase(column.name), spoken(column.name)]
    for word in words_of(column.name):
        for participle in participles.get(word, []):
            said += [f"{participle} in", str(participle)]
    named = sorted(str(v) for v, _ in column.values if len(str(v)) > SHORT_CODE)
    values = {value: list(dict.fromkeys([value, _plural_said(value)])) for value in named}
    return {"words": list(dict.fromkeys(said)), "values": values}


def _plural_said(value: str) -> str:
    """The plural a user types of a value ending in a word ("rodent exclosures" for Rodent
    Exclosure); a code, a number or an abbreviation ("USA", "12", "D.R.") stays as it is."""
    return plural(value) if value[-1].isalpha() and value[-1].islower() else value


def _thing_words(field: str) -> list[str]:
    """What a record's key column names: "player_id" → player, players."""
    words = words_of(field)
    if len(words) < 2 or not _has(words[-1], "id_words"):
        return []
    stem = spoken("_".join(words[:-1]))
    return [stem, plural(stem)]


def link_note(reference: str, spec: dict[str, Any]) -> str:
    """ "people: linked by player_id (its key player_id) → the records filtered by its birth_country
    ('born in'), …"."""
    fields = ", ".join(target["field"] for target in spec["fields"])
    said = ", ".join(
        f"{name} ('{attribute['words'][-2]}')" if len(attribute["words"]) > 2 else name
        for name, attribute in spec["attributes"].items()
    )
    return (
        f"{reference}: linked by {fields} (its key {spec['key']}) → the records filtered by its "
        f"{said}"
    )
