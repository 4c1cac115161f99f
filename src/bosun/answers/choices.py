"""The readings an answer chose where the question allowed several, each with the others it could
have taken and the question that asks for one of them, so a person can change a reading with a
click (the page) or a command (the CLI).

"TEU by carrier last month" read “last month” as arrival date; it offers departure date and eta,
each re-asked in the thread as "last month by departure date". A word naming several fields or
measures ("origin country") offers the others as the question with the word replaced by their
names. Every label is the catalog's; the English of a re-asked question is en.yaml's `choices`.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from bosun.answers.grammar import ChoiceWords, writing
from bosun.catalog import Catalog
from bosun.understanding import Ambiguity, Meaning
from bosun.understanding.phrases import field_name
from bosun.understanding.picks import replace_term


class Alternative(BaseModel):
    """Another reading of the word, and the question that asks for it."""

    label: str
    question: str


class Choice(BaseModel):
    """A word of the question read one way of several: what it was read as, and the others."""

    said: str = Field(description="the question's words")
    chosen: str = Field(description="what they were read as, in the catalog's words")
    others: list[Alternative]


def choices(meaning: Meaning, unsure: list[Ambiguity], catalog: Catalog) -> list[Choice]:
    """The choices of a reading (`unsure`: its doubts the answer went on with)."""
    made = [_choice(doubt, meaning, catalog) for doubt in unsure if doubt.default is not None]
    return [choice for choice in made if choice is not None and choice.others]


def _choice(doubt: Ambiguity, meaning: Meaning, catalog: Catalog) -> Choice | None:
    assert doubt.default is not None
    others = [option for option in doubt.options if option != doubt.default]
    if _dated(doubt, meaning):
        return _date_choice(doubt, others, catalog)
    if doubt.said_before or doubt.term.lower() not in meaning.text.lower():
        # a follow-up's reading of an earlier question's word: offered by that answer
        return None
    alternatives = [
        Alternative(label=label, question=replace_term(meaning.text, doubt.term, label))
        for label in (option_words(doubt, option, catalog) for option in others)
    ]
    return Choice(
        said=doubt.term, chosen=option_words(doubt, doubt.default, catalog), others=alternatives
    )


def _date_choice(doubt: Ambiguity, others: list[str], catalog: Catalog) -> Choice:
    """Which date field the dates are on, re-asked as a follow-up naming the field: it keeps
    whatever else the thread's question asked."""
    assert doubt.default is not None
    alternatives = [
        Alternative(
            label=field_name(option, catalog),
            question=_words().date_field.format(term=doubt.term, field=field_name(option, catalog)),
        )
        for option in others
    ]
    return Choice(said=doubt.term, chosen=field_name(doubt.default, catalog), others=alternatives)


def _dated(doubt: Ambiguity, meaning: Meaning) -> bool:
    return (
        doubt.kind == "field"
        and meaning.time is not None
        and bool(doubt.term)
        and doubt.term == meaning.time.text
    )


def option_words(doubt: Ambiguity, option: str, catalog: Catalog) -> str:
    """A field by the name people call it; a measure by its catalog label."""
    if doubt.kind == "measure" and option in catalog.spec.measures:
        return catalog.spec.measures[option].label
    return field_name(option, catalog)


def _words() -> ChoiceWords:
    return writing().choices
