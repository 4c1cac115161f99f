"""A measure the data lacks (issue 34, half-read questions): refused, not answered with a bare list.

A word nothing read, standing where a question names what it measures, is a measure the data does
not hold; the question is refused with reason no_measure and the catalog's closest measures
(closest.py) — "revenue by carrier" is not the list of carriers. The places:

- right after an aggregation that does not rank: "average speed of vessels", "the average age";
- before a grouping, with nothing else measured: "revenue by carrier", "website visits by month";
- after "by" once a ranking has its groups: "top carriers by revenue";
- anywhere, for a word of a thing counted in a unit (the grammar's `measure_kinds.unit_words`)
  when nothing measured was read: "customs duties paid", "how much did we pay Maersk" (where "how
  much" reads the shop's revenue, its "pay" is that revenue).

Words of things operational data seldom holds ("weather", "population") are the grammar's
`refusals`, read by compose's `unanswerable`. A word after "by" that is not ranked is a dimension
the data lacks ("shipments by incoterm"), and a word before records a filter it lacks ("purple
shipments"): both are left to not_understood, as a word written like a name is an unknown name.

    >>> missing_measure(spans("revenue by carrier"), c, meaning)  # doctest: +SKIP
    >>> meaning.refusal
    Refusal(reason='no_measure', words=['revenue'], total=False, instead=['value'])
"""

from __future__ import annotations

import re

from bosun.catalog import Catalog
from bosun.understanding.closest import closest_measures
from bosun.understanding.compose import Composer
from bosun.understanding.inflections import singular
from bosun.understanding.meaning import Meaning, Refusal
from bosun.understanding.names import normalize
from bosun.understanding.reading import mostly_unread
from bosun.understanding.tagger import Span

_WORDLIKE = re.compile(r"[^\W\d_]")  # a letter: a number is not a measure's name


def missing_measure(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """Refuse a question whose measure the data lacks (see the module); run last, once the words
    not understood are known. Where a measure of the data has no words (a drafted catalog), a
    question mostly unread is refused as such: the thing may be that measure, so no claim that the
    data does not hold it."""
    if meaning.refusal is not None or (mostly_unread(meaning) and _wordless(c.catalog)):
        return
    unread = _unread(spans, meaning)
    at = next((i for i in sorted(unread) if _in_measure_place(spans, i, c, meaning)), None)
    if at is None:
        return
    run = _run(spans, at, unread)
    for span in run:
        span.used = True
    words = " ".join(s.text for s in run)
    meaning.not_understood = [w for w in meaning.not_understood if w not in words.split()]
    instead = closest_measures(c.catalog, c.grammar, words)
    meaning.refusal = Refusal(reason="no_measure", words=[words], instead=instead)


def _wordless(catalog: Catalog) -> bool:
    """A measure field of the records named by its column name alone ("docvis"), if at all."""
    for name, field in catalog.record.fields.items():
        words = {normalize(w) for w in field.synonyms} - {normalize(name.replace("_", " "))}
        if field.role == "measure" and not words:
            return True
    return False


def offer_closest(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """A measure refused by its word ("freight rates by carrier") offers the closest the catalog
    has."""
    refusal = meaning.refusal
    if refusal is None or refusal.reason != "no_measure" or refusal.instead:
        return
    refusal.instead = closest_measures(c.catalog, c.grammar, " ".join(refusal.words))


def _unread(spans: list[Span], meaning: Meaning) -> set[int]:
    """Where a word stands that nothing read and the catalog does not know, not written as a
    name."""
    named = {w for term in meaning.unknown_terms for w in term.split()}
    return {
        i
        for i, s in enumerate(spans)
        if not (s.used or s.tags or s.text in named) and _WORDLIKE.search(s.text)
    }


def _in_measure_place(spans: list[Span], i: int, c: Composer, meaning: Meaning) -> bool:
    return (
        _aggregated(spans, i, c)
        or _grouped(spans, i, c, meaning)
        or _ranked_by(spans, i, meaning)
        or _in_a_unit(spans[i], c, meaning)
    )


def _aggregated(spans: list[Span], i: int, c: Composer) -> bool:
    """ "average speed": right after an aggregation that does not rank ("the most bicycles" may
    count records of a value the data lacks)."""
    j = c.before(spans, i, limit=2)
    return j is not None and spans[j].has("agg") and not spans[j].has("rank")


def _grouped(spans: list[Span], i: int, c: Composer, meaning: Meaning) -> bool:
    """ "revenue by carrier": just before a grouping, with nothing measured."""
    j = c.after(spans, i)
    while j is not None and not spans[j].tags:
        j = c.after(spans, j)  # "CO2 emitted per TEU"
    return j is not None and spans[j].has("group_cue") and not meaning.measures


def _ranked_by(spans: list[Span], i: int, meaning: Meaning) -> bool:
    """ "top carriers by revenue": after "by" once a ranking has its groups."""
    ranked = any(s.has("rank") and s.used for s in spans[:i])
    return i > 0 and spans[i - 1].has("group_cue") and ranked and bool(meaning.group_by)


def _in_a_unit(span: Span, c: Composer, meaning: Meaning) -> bool:
    """A word of a thing counted in a unit ("duties" in USD) when nothing measured was read ("how
    much did Contoso pay" is the shop's revenue)."""
    key = normalize(span.key)
    units = [
        unit
        for unit, words in c.grammar.measure_kinds.unit_words.items()
        if {key, singular(key)} & {normalize(w) for w in words}
    ]
    return bool(units) and not meaning.measures


def _run(spans: list[Span], at: int, unread: set[int]) -> list[Span]:
    """The unread words next to each other from `at`: "fuel consumption", "customs duties
    paid"."""
    end = at
    while end + 1 in unread:
        end += 1
    return spans[at : end + 1]
