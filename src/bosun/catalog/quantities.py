"""What a column named by its unit alone measures (draft_words.yaml `quantities`): "milliseconds" is
a track's length, so "average track length", "longer than 600000 milliseconds" and "the longest
tracks" ask for it; "bytes" is a size ("the biggest files").

    >>> quantity_words("milliseconds")["synonyms"]
    ['length', 'duration']
    >>> quantity_words("dep_delay_ms")  # the delay is what it measures, in its unit
    {}
    >>> adjectives_of("unit_price")["more"]
    ['expensive', 'pricey', 'costly']
"""

from __future__ import annotations

from typing import Any

from bosun.catalog.words import _words, words_of


def quantity_words(name: str) -> dict[str, Any]:
    """The synonyms and adjectives of a column whose whole name is a unit; {} for any other."""
    words = words_of(name)
    if len(words) != 1:
        return {}
    for quantity in _words()["quantities"]:
        if words[0] in {str(unit) for unit in quantity["units"]}:
            return {
                "synonyms": [str(w) for w in quantity["words"]],
                "adjectives": {
                    "more": [str(w) for w in quantity["more"]],
                    "less": [str(w) for w in quantity["less"]],
                },
            }
    return {}


def adjectives_of(name: str) -> dict[str, list[str]]:
    """The adjectives that compare a measure, by the first word of its column's name that
    draft_words.yaml `measure_adjectives` lists ("unit_price" is expensive or cheap); {} if none."""
    listed = _words()["measure_adjectives"]
    for word in words_of(name):
        if word in listed:
            return {side: [str(w) for w in listed[word][side]] for side in ("more", "less")}
    return {}
