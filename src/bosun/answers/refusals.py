"""Why the data cannot answer, and what it can tell instead: a question about the future, a cause,
a measure or a judgement the data does not hold; a question that says nothing about the data, or
too little of it read; a name nothing is called; a page past the last; a link no object has.
"""

from __future__ import annotations

from datetime import date

from bosun.catalog import Catalog
from bosun.understanding import Refusal
from bosun.understanding.meaning import Link
from bosun.understanding.periodnames import day_name
from bosun.understanding.phrases import condition_words

_REFUSED = {
    "future": "The data records what has happened, up to {today}: it holds no forecasts, so I cannot tell what will "
    "happen ({words}).",
    "cause": "The data records what happened, not why: I cannot tell the cause ({words}).",
    "no_measure": "The data holds no {words}, so I cannot give a figure for it.",
    "opinion": "{words} is a judgement the data does not hold, so I cannot rank by it.",
    "no_date_part": "The data has no field for {words} (no time of day, weekday or month derived from its dates), "
    "so I cannot give a figure for it.",
}


def refused(refusal: Refusal, catalog: Catalog, today: date) -> str:
    """Why the data cannot answer, and what it can tell instead (the catalog's measures)."""
    words = " ".join(f"“{w}”" for w in refusal.words) or "this"
    said = _REFUSED[refusal.reason].format(today=day_name(today), words=words)
    measures = [spec.label for spec in catalog.spec.measures.values()][:6]
    return (
        f"{said} I can tell what happened in {catalog.record.index}: {', '.join(measures)}, by "
        "any of its "
        f"fields and dates."
    )


def nothing_asked(text: str, catalog: Catalog) -> str:
    """A text that asks nothing of the data (empty, noise, another language), and what to ask."""
    return (
        f"I could not find a question about the data in “{text[:80]}”. Ask about "
        f"{catalog.record.index}, "
        f"for example by {', '.join(_examples(catalog))}, a date range, or a measure such as "
        f"{', '.join(list(catalog.spec.measures)[:3])}."
    )


def mostly_unread(text: str, unread: list[str], catalog: Catalog) -> str:
    """A question of which more words were not understood than read."""
    words = ", ".join(f"“{w}”" for w in unread)
    return (
        f"I could not read most of “{text[:80]}”: I did not understand {words}. Ask "
        "about "
        f"{catalog.record.index} in other words, for example by "
        f"{', '.join(_examples(catalog))}."
    )


def _examples(catalog: Catalog) -> list[str]:
    return [spec.words[0] for spec in catalog.spec.entities.values() if spec.words][:3]


def unknown_term(term: str, catalog: Catalog) -> str:
    """A name nothing in the data is called, and the kinds of names looked among."""
    kinds = ", ".join(catalog.spec.entities)
    return f"I don't know “{term}”: nothing in the data is called that (I looked among: {kinds})."


def unknown_object(noun: str, term: str, index: str) -> str:
    """ "No vessel “9999999” was found in vessels."."""
    return f"No {noun} “{term}” was found in {index}."


def not_in_glossary(asked: str) -> str:
    return f"I don't know the term “{asked}”; it is not in the glossary."


def past_the_pages(page: int, most: int) -> str:
    """A page beyond the records Bosun reads for one question."""
    return (
        f"Page {page} is past the first {most:,} records, the "
        "most "
        "Bosun reads for one question; narrow it down with a date range or a filter instead."
    )


def no_linked(link: Link, catalog: Catalog) -> str:
    """ "No vessels have flag FR, so no shipments are on them (“French-flagged”)."""
    obj = catalog.object(link.object)
    return (
        f"No {obj.index} have {condition_words(link.condition, catalog)}, so there are no "
        f"{catalog.record.index} of theirs to count or list (“{link.words}”)."
    )
