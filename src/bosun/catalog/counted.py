"""Counts of events named by what they were with (draft_words.yaml `counted_events`): a column of
"doctor visits" or "hospital admissions" counts the times a row's person saw a doctor or went to
hospital, so a question names it by the thing alone ("how many saw a doctor at least once", "had a
hospital stay"). The thing is a word of that column only: "store" of a "store_visits" beside a
"store" column names the store.

    >>> counted_thing("docvis", ["docvis", "hospvis", "age"])
    ['doctor']
    >>> counted_thing("store_visits", ["store", "store_visits"])
    []
"""

from __future__ import annotations

from collections.abc import Collection

from bosun.catalog.words import _words, spoken


def counted_thing(name: str, names: Collection[str]) -> list[str]:
    """The words before an event noun that ends the column's spoken name, where no other column
    says them; [] for any other column."""
    events = {str(w) for w in _words()["counted_events"]}
    words = spoken(name, names, quantity=True).split()
    if len(words) < 2 or words[-1] not in events:
        return []
    thing = " ".join(words[:-1])
    others = [spoken(other, names).split() for other in names if other != name]
    if any(set(words[:-1]) & set(said) for said in others):
        return []
    return [thing]
