"""The filler audit (issue 22 item 2): a word of en.yaml's `filler`, `function_words` or
`neutral_verbs` lists is there only if it changes no reading. For every corpus question that holds
it as a word (or phrase), the rules backend reads the question without it exactly as it reads the
question with it (the same goals and the same Meaning, its text aside). A word that changes a
reading carries meaning: a rule reads it, or it is reported.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache
from typing import Any

import pytest

from bosun.understanding.grammar import english
from bosun.understanding.names import normalize
from bosun.understanding.reading import PastTurn, Reading
from tests.understanding.test_corpus import CORPUS, backend, past

LISTS = ("filler", "function_words", "neutral_verbs")
# Quiet words the trust corpus (corpus/trust.yaml, issue 34) shows carrying meaning: a rule reads
# them ("no shipments" and "without hazmat" negate) while en.yaml lists them as function words.
# Strict xfails until the grammar data says what they are.
CARRY_MEANING = {
    ("function_words", "an"),  # "with an eta" (presence.py)
    ("function_words", "no"),
    ("function_words", "without"),
    # "shippers from Japan" (the lading country) is not "shippers Japan" (shippers based in Japan):
    # shown once the typo of para-m-typo-14 ("shipers") is read (understanding/candidates.py)
    ("function_words", "from"),
}


def _words() -> list[tuple[str, str]]:
    grammar = english()
    return sorted({(name, phrase) for name in LISTS for phrase in getattr(grammar, name)})


def _audited() -> list[Any]:
    params = []
    for name, phrase in _words():
        known = (name, phrase) in CARRY_MEANING
        marks = [pytest.mark.xfail(strict=True, reason="carries meaning")] if known else []
        params.append(pytest.param(name, phrase, id=f"{name}:{phrase}", marks=marks))
    return params


def _today(item: dict[str, Any]) -> dt.date:
    today = item.get("today", CORPUS["defaults"]["today"])
    return today if isinstance(today, dt.date) else dt.date.fromisoformat(str(today))


@cache
def _history(index: int) -> list[PastTurn]:
    item = CORPUS["items"][index]
    rules = backend("rules", item.get("domain", CORPUS["defaults"]["domain"]))
    history: list[PastTurn] = []
    for turn in item.get("turns", []):
        history.append(past(turn, rules.read(turn, history, _today(item))))
    return history


@cache
def _quiet_spans(index: int) -> list[tuple[str, int, int]]:
    """The question's quiet spans as the tagger reads them: (phrase, start, end)."""
    item = CORPUS["items"][index]
    rules = backend("rules", item.get("domain", CORPUS["defaults"]["domain"]))
    return [(s.key, s.start, s.end) for s in rules.spans(item["q"], _today(item)) if s.quiet]


def _without(index: int, phrase: str) -> str | None:
    """The question with the places the tagger reads as `phrase` taken out (None when it reads it
    nowhere).

    Only the phrase as the tagger takes it: "about" in "tell me about X" is part of another phrase,
    not filler.
    """
    question, key = CORPUS["items"][index]["q"], normalize(phrase)
    places = [(start, end) for k, start, end in _quiet_spans(index) if k == key]
    if not places:
        return None
    for start, end in reversed(places):
        question = question[:start] + " " + question[end:]
    return re.sub(r"\s{2,}", " ", question).strip(" ,")


@cache
def _reading(index: int, question: str) -> Any:
    """What a reading says, its question's text aside: goal kinds and terms, and each Meaning's
    content."""
    item = CORPUS["items"][index]
    rules = backend("rules", item.get("domain", CORPUS["defaults"]["domain"]))
    reading: Reading = rules.read(question, _history(index), _today(item))
    goals = []
    for goal in reading.goals:
        meaning = None
        if goal.meaning is not None:
            text_aside = {
                "text": True,
                "time": {"text"},
                "conditions": {"__all__": {"source"}},
                "links": {"__all__": {"words": True, "condition": {"source"}}},
            }
            meaning = goal.meaning.model_dump(exclude=text_aside)
            meaning["not_understood"] = sorted(
                {w for p in goal.meaning.not_understood for w in normalize(p).split()}
            )
        goals.append((goal.kind, [normalize(t) for t in goal.terms], meaning))
    return goals, reading.continuation


def _changes(phrase: str) -> list[str]:
    """The corpus questions whose reading changes when `phrase` is taken out of them."""
    changed = []
    for index, item in enumerate(CORPUS["items"]):
        question, without = item["q"], _without(index, phrase)
        if without is None:
            continue
        if not without or _reading(index, question) != _reading(index, without):
            changed.append(f"{item['id']}: {question!r} → {without!r}")
    return changed


@pytest.mark.parametrize(("name", "phrase"), _audited())
def test_quiet_word_changes_no_reading(name: str, phrase: str) -> None:
    assert _changes(phrase) == [], f"{phrase!r} of {name} changes readings: it carries meaning"


@pytest.mark.parametrize("phrase", sorted(english().structure_words))
def test_structure_word_is_read_by_a_rule(phrase: str) -> None:
    """A structure word is out of the quiet lists because a rule reads it: taking it out changes
    some reading (otherwise it is a function word, and belongs to that list, held to the audit
    above)."""
    assert _changes(phrase) != [], (
        f"{phrase!r} changes no reading of the corpus: it is no structure word"
    )
