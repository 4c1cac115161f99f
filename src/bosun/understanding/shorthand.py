"""Analyst shorthand (issue 35): a short word read as the word it abbreviates.

Shorthand of the grammar's words is the grammar's own data (en.yaml `abbreviations`: "wk" → week,
"qtr" → quarter). Shorthand of a catalog word is found in the catalog's own words, never listed:
a short word abbreviates a catalog word when it begins that word ("rev" → revenue, "cust" →
customer) or is made of its letters in order from its first, its vowels left out ("qty" →
quantity, "amt" → amount); one written in capitals may be the initials of a catalog phrase ("POL" →
port of lading). A repair (understanding/candidates.py) tries each reading, keeps one only when it
explains more of the question, and says it in the answer.

    >>> short = Shorthand.of({"wk": "week"}, ["revenue", "quantity", "amount", "port of lading"])
    >>> short.expansions("wk"), short.expansions("qty")
    ((('week', 'abbreviation'),), (('quantity', 'short'),))
    >>> short.expansions("POL"), short.expansions("amts"), short.expansions("mnt")
    ((('port of lading', 'short'),), (('amount', 'short'),), ())
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from functools import cache

from bosun.understanding.grammar import Grammar, Lexicon
from bosun.understanding.inflections import forms
from bosun.understanding.timewords import TimeRange, find_time_ranges

SHORTEST = 2  # letters of a shorthand: "wk", "yr"
LONGEST = 4  # "cust", "wkly": a longer word is a word, or a typo of one
# a catalog word's shorthand has three letters at least ("qty", "amt"): two letters are a unit or
# the grammar's own shorthand ("mm", "kg", "wk"), and would stand for too many words ("mm": maximum)
SHORTEST_OF_CATALOG = 3
MOST_READINGS = 3  # a shorthand of more catalog words than this says nothing
VOWELS = frozenset("aeiou")
# the lexicon's tags that hold a catalog's words: what its shorthand may stand for
CATALOG_KINDS = frozenset(
    {"record", "object", "field", "value", "measure", "date_word", "entity_word"}
)


@dataclass(frozen=True)
class Shorthand:
    """The grammar's shorthand, and the catalog's single words and phrases of several words."""

    grammar: Mapping[str, str]
    words: tuple[str, ...]
    phrases: tuple[str, ...]

    @classmethod
    def none(cls) -> Shorthand:
        """No shorthand at all."""
        return cls({}, (), ())

    @classmethod
    def of(cls, grammar: Mapping[str, str], catalog_phrases: Iterable[str]) -> Shorthand:
        """From the grammar's table and every phrase the catalog names things with."""
        phrases = {p.lower() for p in catalog_phrases}
        words = {w for p in phrases for w in p.split() if w.isalpha()}
        several = {p for p in phrases if len(p.split()) > 1}
        return cls(dict(grammar), tuple(sorted(words)), tuple(sorted(several)))

    def expansions(self, said: str) -> tuple[tuple[str, str], ...]:
        """What the word `said` may be shorthand of, each with its kind: the grammar's reading
        ("abbreviation"), else the catalog words it abbreviates ("short"; none when too many)."""
        word = said.lower()
        if word in self.grammar:
            return ((self.grammar[word], "abbreviation"),)
        found = self._catalog(word) or self._catalog(_without_plural(word)) or self._initials(said)
        few = found if len(found) <= MOST_READINGS else []
        return tuple((read, "short") for read in few)

    def _initials(self, said: str) -> list[str]:
        """The catalog phrases a word in capitals has the initials of: "POL", "POLs"."""
        letters = _without_plural(said)
        if not letters.isupper():
            return []
        return [p for p in self.phrases if initials(p) == letters.lower()]

    def _catalog(self, word: str) -> list[str]:
        """The catalog words `word` abbreviates; of several, those it is the whole skeleton of
        ("cnt" is count, not container)."""
        if not SHORTEST_OF_CATALOG <= len(word) <= LONGEST or not word.isalpha():
            return []
        found = _one_form_each([w for w in self.words if abbreviates(word, w)])
        exact = [w for w in found if skeleton(w) == word]
        return exact or found


def of_catalog(lexicon: Lexicon, grammar: Grammar) -> Shorthand:
    """The grammar's shorthand and the catalog's words, as the lexicon holds them."""
    named = [p for p, tags in lexicon.phrases.items() if any(t.kind in CATALOG_KINDS for t in tags)]
    return Shorthand.of(grammar.abbreviations, named)


@dataclass
class Spelt:
    """A text with the grammar's shorthand spelt out, and for each of its places the place in the
    text as written where a phrase starting (`starts`) or ending (`ends`) there does: a phrase
    that starts or ends inside a word spelt out takes the whole word."""

    text: str
    starts: list[int]
    ends: list[int]


def time_ranges(text: str, today: date, grammar: Mapping[str, str]) -> list[TimeRange]:
    """The time expressions of `text` read with the grammar's shorthand spelt out, each placed on
    the words as written: "this qtr" is this quarter, at "this qtr".

    >>> [(t.text, t.start) for t in time_ranges("TEU last mo", date(2026, 6, 15), {"mo": "month"})]
    [('last mo', datetime.date(2026, 5, 1))]
    """
    spelt = spelt_out(text, grammar)
    placed = []
    for found in find_time_ranges(spelt.text, today):
        start = spelt.starts[found.at]
        end = spelt.ends[found.at + len(found.text)]
        placed.append(replace(found, at=start, text=text[start:end]))
    return placed


def spelt_out(text: str, grammar: Mapping[str, str]) -> Spelt:
    """The text with each word of the grammar's shorthand written out.

    >>> spelt_out("by wk", {"wk": "week"})
    Spelt(text='by week', starts=[0, 1, 2, 3, 3, 3, 3, 5], ends=[0, 1, 2, 3, 5, 5, 5, 5])
    """
    spelt = Spelt("", [], [])
    written = 0
    for match in _shorthand_pattern(tuple(grammar)).finditer(text):
        _keep(spelt, text, written, match.start())
        _spell(spelt, grammar[match.group(0).lower()], match.start(), match.end())
        written = match.end()
    _keep(spelt, text, written, len(text))
    spelt.starts.append(len(text))
    spelt.ends.append(len(text))
    return spelt


@cache
def _shorthand_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """The grammar's shorthand words, standing alone (not the "#" of a symbol)."""
    alone = sorted((re.escape(w) for w in words if w.isalpha()), key=len, reverse=True)
    return re.compile(rf"(?<![\w'’])(?:{'|'.join(alone) or '(?!)'})(?![\w'’])", re.I)


def _keep(spelt: Spelt, text: str, start: int, end: int) -> None:
    spelt.text += text[start:end]
    spelt.starts.extend(range(start, end))
    spelt.ends.extend(range(start, end))


def _spell(spelt: Spelt, word: str, start: int, end: int) -> None:
    spelt.text += word
    spelt.starts.extend([start] * len(word))
    spelt.ends.extend([start] + [end] * (len(word) - 1))


def abbreviates(short: str, word: str) -> bool:
    """Whether `short` begins `word` (three letters at least) or is its letters in order from its
    first, the vowels after the first left out.

    >>> abbreviates("cust", "customer"), abbreviates("qty", "quantity"), abbreviates("qa", "quay")
    (True, True, False)
    """
    if len(short) >= len(word) or short[0] != word[0]:
        return False
    if len(short) >= 3 and word.startswith(short):
        return True
    return not VOWELS & set(short[1:]) and _in_order(short[1:], word[1:])


def skeleton(word: str) -> str:
    """The word's first letter and its consonants after it: "count" → "cnt", "week" → "wk"."""
    return word[0] + "".join(c for c in word[1:] if c not in VOWELS)


def _in_order(letters: str, word: str) -> bool:
    rest = iter(word)
    return all(letter in rest for letter in letters)


def initials(phrase: str) -> str:
    """ "port of lading" → "pol"."""
    return "".join(w[0] for w in phrase.split())


def _without_plural(word: str) -> str:
    """ "SKUs" → "SKU", "qtys" → "qty": shorthand is made plural with an s."""
    return word[:-1] if len(word) > SHORTEST and word[-1] in "sS" else word


def _one_form_each(words: list[str]) -> list[str]:
    """Forms of one word are one reading, in the shortest form: "cust" is customer, not also
    customers."""
    kept: list[str] = []
    for word in sorted(words, key=len):
        if not any(word in forms(other) or other in forms(word) for other in kept):
            kept.append(word)
    return kept
