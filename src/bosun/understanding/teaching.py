"""Teaching words: a chat line that teaches one ("by trainers I mean footwear", "“Big Apple” = New
York"), and the words no one may teach.

Only the explicit forms of the grammar file's `teaching` list are read; a question is never one.

A taught word is read before the grammar's own and before numbers (issue #39): taught, "5" would
turn "top 5" into a measure. So the words the readers live by are the readers' own: a word of the
grammar, a word the date and number readers read, and a phrase in which the tagger itself reads a
date ("Q1", "2025", "2025-03-01", "next day air") or a number ("5", "three", "7-Eleven") are never
taught. The lists are theirs, not a copy: the date reader's month names (`timewords.MONTHS`) and the
words its rules are written with (`timewords.RULES`: today, last, next, since…), and en.yaml's
numbers, ordinals, scales, calendar units, date parts, period names and relative periods ("ago" of
"a year ago").
"""

from __future__ import annotations

import re
from datetime import date
from functools import cache

from bosun.errors import UserError
from bosun.understanding.grammar import Grammar, english, english_lexicon
from bosun.understanding.names import normalize
from bosun.understanding.tagger import tag
from bosun.understanding.timewords import MONTHS, RULES

_QUOTES = "\"'“”‘’«»"
_PART = r"(?P<{}>[^?=]+?)"


@cache
def _forms(forms: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """Each form as a pattern over the whole line: its words as written, {word} and {target} any
    text."""
    patterns = []
    for form in forms:
        pieces = re.split(r"(\{word\}|\{target\})", form)
        body = "".join(
            _PART.format(p[1:-1]) if p in ("{word}", "{target}") else _words(p) for p in pieces
        )
        patterns.append(re.compile(rf"\s*{body}\s*[.!]?\s*", re.IGNORECASE))
    return tuple(patterns)


def _words(text: str) -> str:
    """The form's own words, any spacing around and between them."""
    if not text:
        return ""
    if not text.strip():
        return r"\s+"
    return r"\s*" + r"\s+".join(re.escape(w) for w in text.split()) + r"\s*"


def taught_line(line: str, grammar: Grammar | None = None) -> tuple[str, str] | None:
    """(word, what it means) when the line is one of the teaching forms, else None."""
    for pattern in _forms(tuple((grammar or english()).teaching)):
        found = pattern.fullmatch(line)
        if found is not None:
            word, target = _bare(found.group("word")), _bare(found.group("target"))
            if word and target:
                return word, target
    return None


def _bare(text: str) -> str:
    return text.strip().strip(_QUOTES).strip()


class ReadersWords:
    """What the readers keep to themselves: `refusal` says why a word cannot be taught, or None."""

    def __init__(self, grammar: Grammar) -> None:
        self.grammar = grammar
        self.lexicon = english_lexicon(grammar)
        self.dated = _date_and_number_words(grammar)

    def refusal(self, word: str, today: date) -> str | None:
        """Why `word` is the readers' own: a date or a number in it, a word of the grammar, or a
        date or number word; None when it may be taught."""
        try:
            spans = tag(word, today, self.lexicon, [])
        except UserError:  # "2025-02-30": no day of the calendar, yet written as a date
            return f"“{word}” is written as a date, which the date reader reads"
        dated = [span.text for span in spans if span.has("time")]
        if dated:
            return f"“{word}” holds a date (“{dated[0]}”), which the date reader reads"
        numbers = [span.text for span in spans if span.has("number")]
        if numbers:
            return f"“{word}” holds a number (“{numbers[0]}”), which the number reader reads"
        if len(spans) == 1 and spans[0].tags:  # the whole word, in any inflection
            kinds = ", ".join(dict.fromkeys(tag.kind for tag in spans[0].tags))
            return f"“{word}” is a word of the grammar ({kinds})"
        if normalize(word) in self.dated:
            return f"“{word}” is a word the date and number readers read"
        return None


def _date_and_number_words(grammar: Grammar) -> frozenset[str]:
    """Each word the date and number readers read: one-word entries of their lists, and every word
    of a relative period ("ago" of "a year ago")."""
    date_parts = grammar.date_parts
    listed = [
        *MONTHS,
        *_rule_words(),
        *grammar.numbers,
        *grammar.ordinals,
        *grammar.scales,
        *grammar.interval_units,
        *grammar.interval_words,
        *date_parts.units,
        *(phrase for values in date_parts.values.values() for phrase in values),
        *(name for names in date_parts.names.values() for name in names.values()),
        *date_parts.clock.named,
        *grammar.period_names.short_months.values(),
    ]
    words = {normalize(phrase) for phrase in listed}
    words |= {word for phrase in grammar.periods.shifts for word in normalize(phrase).split()}
    return frozenset(word for word in words if word and " " not in word)


def _rule_words() -> set[str]:
    """The words the date reader's rules are written with: each pattern's letters of three and more,
    its escapes (\\b, \\s) and group names left out."""
    words: set[str] = set()
    for pattern, _ in RULES:
        plain = re.sub(r"\\[a-zA-Z]", " ", pattern)
        words |= set(re.findall(r"(?<![\w<])[a-z]{3,}(?![\w>])", plain))
    return words
