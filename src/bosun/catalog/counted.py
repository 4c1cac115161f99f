"""Counts of events named by what they were with (draft_words.yaml `counted_events`): a column of
"doctor visits" or "hospital admissions" counts the times a row's person saw a doctor or went to
hospital, so a question names it by the thing alone ("how many saw a doctor at least once", "had a
hospital stay"). The thing is a word of that column only: "store" of a "store_visits" beside a
"store" column names the store. A squeezed name cut short inside the event's noun ("hospadmi",
"doctorco") is said with the one event noun the cut piece begins.

    >>> counted_words("docvis", ["docvis", "hospvis", "age"])
    ['doctor']
    >>> counted_words("hospadmi", ["hospadmi", "hospdays"])
    ['hospital admissions']
    >>> counted_words("store_visits", ["store", "store_visits"])
    []
    >>> said_whole("doctorco", ["doctorco"])
    'doctor consultations'
"""

from __future__ import annotations

from collections.abc import Collection

from bosun.catalog.words import _words, spoken


def counted_words(name: str, names: Collection[str]) -> list[str]:
    """The column's words as a count of events: its name with a cut event noun said whole, and the
    thing alone where no other column says it; [] for any other column."""
    words = spoken(name, names, quantity=True).split()
    event = _event(words[-1]) if len(words) > 1 else None
    if event is None:
        return []
    whole = " ".join([*words[:-1], event])
    said = [whole] if event != words[-1] else []
    others = [spoken(other, names).split() for other in names if other != name]
    if any(set(words[:-1]) & set(other) for other in others):
        return said
    return [*said, " ".join(words[:-1])]


def said_whole(name: str, names: Collection[str]) -> str:
    """The column's words as a measure is labelled, a cut event noun said whole ("doctor co" is
    "doctor consultations")."""
    words = spoken(name, names, quantity=True).split()
    event = _event(words[-1]) if len(words) > 1 else None
    return " ".join([*words[:-1], event] if event else words)


def _event(word: str) -> str | None:
    """The event noun `word` is, or the one plural event noun it is the start of ("admi" →
    admissions); None when it is none or the start of several."""
    events = [str(w) for w in _words()["counted_events"]]
    if word in events:
        return word
    started = [e for e in events if e.startswith(word) and e.endswith("s")]
    return started[0] if len(started) == 1 else None
