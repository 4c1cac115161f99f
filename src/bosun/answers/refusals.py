"""Why the data cannot answer, and what it can tell instead: a question about the future, a cause,
a measure or a judgement the data does not hold; a question that says nothing about the data, or
too little of it read; a name nothing is called; a page past the last; a link no object has.
"""

from __future__ import annotations

from datetime import date

from bosun.answers.grammar import Refusals, writing
from bosun.catalog import Catalog
from bosun.understanding import Refusal
from bosun.understanding.meaning import Link
from bosun.understanding.periodnames import day_name
from bosun.understanding.phrases import condition_words


def refused(refusal: Refusal, catalog: Catalog, today: date) -> str:
    """Why the data cannot answer, the measures closest to what was asked, and what it can tell
    instead (the catalog's measures)."""
    words = _words()
    asked = " ".join(f"“{w}”" for w in refusal.words) or words.this
    template = words.level_total if refusal.total else words.reasons[refusal.reason]
    reason = " ".join(
        [template.format(today=day_name(today), words=asked), *_closest(refusal, catalog)]
    )
    measures = [spec.label for spec in catalog.spec.measures.values()][:6]
    return words.instead.format(
        reason=reason, records=catalog.record.index, measures=", ".join(measures)
    )


def _closest(refusal: Refusal, catalog: Catalog) -> list[str]:
    """ "Did you mean declared value (USD)?": the closest measures the reading found, if any."""
    labels = [catalog.spec.measures[n].label for n in refusal.instead if n in catalog.spec.measures]
    if not labels:
        return []
    words = _words()
    template = words.closest_level if refusal.total else words.closest
    return [template.format(measures=words.either.join(labels))]


def nothing_asked(text: str, catalog: Catalog) -> str:
    """A text that asks nothing of the data (empty, noise, another language), and what to ask."""
    return _words().nothing_asked.format(
        text=text[:80],
        records=catalog.record.index,
        examples=", ".join(_examples(catalog)),
        measures=", ".join(list(catalog.spec.measures)[:3]),
    )


def mostly_unread(text: str, unread: list[str], catalog: Catalog) -> str:
    """A question of which more words were not understood than read."""
    return _words().mostly_unread.format(
        text=text[:80],
        words=", ".join(f"“{w}”" for w in unread),
        records=catalog.record.index,
        examples=_asked_by(catalog),
    )


def _asked_by(catalog: Catalog) -> str:
    """ "for example by genre, media type", or, with no word to offer, a clause that stays true."""
    examples = _examples(catalog)
    if not examples:
        return _words().by_any_field
    return _words().by_examples.format(examples=", ".join(examples))


def _examples(catalog: Catalog) -> list[str]:
    """Up to three words to ask by: the names' entities, else the record's dimensions, else its
    measures, else any of its fields, so a catalog without names (a file of numbers and codes) still
    offers some; never an empty word."""
    entities = [spec.words[0] for spec in catalog.spec.entities.values() if spec.words]
    dimensions = [
        (field.synonyms or [name.replace("_", " ")])[0]
        for name, field in catalog.record.fields.items()
        if field.role == "dimension"
    ]
    measures = [spec.words[0] for spec in catalog.spec.measures.values() if spec.words]
    fields = [
        (field.synonyms or [name.replace("_", " ")])[0]
        for name, field in catalog.record.fields.items()
    ]
    found = [[w for w in words if w.strip()] for words in (entities, dimensions, measures, fields)]
    return next((words for words in found if words), [])[:3]


def unknown_term(term: str, catalog: Catalog) -> str:
    """A name nothing in the data is called, and the kinds of names looked among."""
    return _words().unknown_term.format(term=term, kinds=", ".join(catalog.spec.entities))


def unknown_object(noun: str, term: str, index: str) -> str:
    """ "No vessel “9999999” was found in vessels."."""
    return _words().unknown_object.format(noun=noun, term=term, index=index)


def not_in_glossary(asked: str) -> str:
    return _words().not_in_glossary.format(term=asked)


def past_the_pages(page: int, most: int) -> str:
    """A page beyond the records Bosun reads for one question."""
    return _words().past_the_pages.format(page=page, most=f"{most:,}")


def no_linked(link: Link, catalog: Catalog) -> str:
    """ "No vessels have flag FR, so no shipments are on them (“French-flagged”)."""
    return _words().no_linked.format(
        objects=catalog.object(link.object).index,
        condition=condition_words(link.condition, catalog),
        records=catalog.record.index,
        words=link.words,
    )


def _words() -> Refusals:
    return writing().refusals
