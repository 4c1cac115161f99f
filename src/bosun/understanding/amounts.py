"""Numbers as people write them, on a question's tokens, before the tagger places its spans.

Two pure readings over the tokens' lower-case words and the lexicon:

- `quantities`: which digit numbers are quantities, never years. A number after a comparison
  ("over 2000 shipments", "heavier than 2020 kg"), with a written unit ("2024 kg", "$2025") or
  the bounds of a range of counted things ("between 1990 and 2030 arrivals") is a quantity,
  whatever its digits; the date grammar does not read it.

      >>> sorted(quantities(["with", "over", "2000", "shipments"], lexicon))  # doctest: +SKIP
      [2]

- `amounts`: numbers of several tokens, as one value: words ("twenty five", "three hundred"), a
  number with its scale ("1.5 m", "2 k", "half a million").

      >>> amounts(["over", "1.5", "m", "usd"], lexicon)  # doctest: +SKIP
      [(1, 3, 1500000.0)]
"""

from __future__ import annotations

import re
from functools import cache

from text_to_num import text2num

from bosun.understanding.grammar import Lexicon
from bosun.understanding.timewords import YEAR

# a number written with digits ("2000", "1,500", "2.5"); the tagger's tokens use the same shape
NUMBER = r"-?\d(?:[\d,]*\d)?(?:\.\d+)?"
_DIGITS = re.compile(NUMBER)
# words of a period: a number just before one is the period's year ("2025 june" is no quantity)
_PERIOD_KINDS = frozenset({"interval_unit", "interval", "part_unit", "period_shift"})
# what a range's bounds count when they are quantities ("between 10 and 20 tons", "… arrivals")
_COUNTED_KINDS = frozenset({"unit", "currency", "record", "measure"})
_YEAR_LIKE = re.compile(YEAR)  # the shape of a year as the date grammar reads it
_LONGEST_WORDS = 8  # number words of one number at most ("one hundred and twenty five thousand")


def is_digits(word: str) -> bool:
    """A number written with digits ("2000", "1,500", "2.5")."""
    return _DIGITS.fullmatch(word) is not None


def quantities(words: list[str], lexicon: Lexicon) -> set[int]:
    """The places of the digit numbers that are quantities (see the module's docstring)."""
    found = {i for i, word in enumerate(words) if is_digits(word) and _quantity(words, i, lexicon)}
    return found | _range_bounds(words, lexicon)


def _quantity(words: list[str], i: int, lexicon: Lexicon) -> bool:
    before = i - 1
    if before >= 0 and _has(lexicon, words[before], "currency"):
        return True  # "$2025", "usd 2000"
    if _unit_after(words, i + 1, lexicon):
        return True
    start = _comparison_before(words, before, lexicon)
    return start is not None and not _periods_compared(words, start, i, lexicon)


def _comparison_before(words: list[str], end: int, lexicon: Lexicon) -> int | None:
    """Where a comparison phrase ending at `end` starts: a threshold word ("at least"), or a
    comparative adjective with "than" ("heavier than"); None when there is none."""
    for size in range(1, min(lexicon.longest, end + 1) + 1):
        tags = lexicon.get(" ".join(words[end - size + 1 : end + 1]))
        if any(tag.kind == "threshold" for tag in tags):
            return end - size + 1
    if end < 1 or words[end] != "than":
        return None
    comparative = any(
        tag.kind == "adjective" and tag.value[3] == "comparative"
        for tag in lexicon.get(words[end - 1])
    )
    return end - 1 if comparative else None


def _periods_compared(words: list[str], start: int, i: int, lexicon: Lexicon) -> bool:
    """ "TEU in 2025 over 2024": a year before the comparison makes the number after it a year
    too, unless it counts something ("in 2025 over 2000 TEU")."""
    year_before = start > 0 and _YEAR_LIKE.fullmatch(words[start - 1]) is not None
    return year_before and not _counts(words, i + 1, lexicon, _COUNTED_KINDS)


def _unit_after(words: list[str], at: int, lexicon: Lexicon) -> bool:
    """A written unit follows ("2020 kg", "2000 dollars"), not a period's word ("2025 week")."""
    return _counts(words, at, lexicon, frozenset({"unit", "currency"}))


def _counts(words: list[str], at: int, lexicon: Lexicon, kinds: frozenset[str]) -> bool:
    """The longest phrase at `at` has a tag of `kinds` and none of a period."""
    for size in range(min(lexicon.longest, len(words) - at), 0, -1):
        tags = lexicon.get(" ".join(words[at : at + size]))
        if tags:
            found = {tag.kind for tag in tags}
            return bool(found & kinds) and not found & _PERIOD_KINDS
    return False


def _range_bounds(words: list[str], lexicon: Lexicon) -> set[int]:
    """ "between 1990 and 2030 arrivals": both bounds, when the range counts something; "between
    2024 and 2025" alone is a span of years, and so is a pair written high to low ("difference
    between 2025 and 2024 TEU"): no quantity lies between them."""
    found: set[int] = set()
    for i in range(len(words) - 3):
        low, join, high = i + 1, i + 2, i + 3
        written = words[i] in lexicon.range_words and words[join] in lexicon.range_joins
        numbers = is_digits(words[low]) and is_digits(words[high])
        if numbers and _figure(words[low]) > _figure(words[high]):
            continue
        if written and numbers and _counts(words, high + 1, lexicon, _COUNTED_KINDS):
            found |= {low, high}
    return found


def _figure(word: str) -> float:
    """A number written with digits, as a float ("1,500" → 1500.0)."""
    return float(word.replace(",", ""))


def amounts(words: list[str], lexicon: Lexicon) -> list[tuple[int, int, float]]:
    """Numbers of several tokens as (first, last + 1, value), left to right (see the module's
    docstring). A number of one token stays the tagger's: "one" is also a pronoun."""
    found: list[tuple[int, int, float]] = []
    i = 0
    while i < len(words):
        number = _number_at(words, i, lexicon)
        if number is None:
            i += 1
            continue
        size, value = _scaled(words, i, number, lexicon)
        unknown_word = not lexicon.get(words[i]) and not is_digits(words[i])  # "forty"
        if size > 1 or unknown_word:
            found.append((i, i + size, value))
        i += size
    return found


def _number_at(words: list[str], i: int, lexicon: Lexicon) -> tuple[int, float] | None:
    """(tokens, value) of the longest number starting at i: digits, a number phrase of the grammar
    ("a dozen", "half a"), or number words."""
    if is_digits(words[i]):
        return 1, _figure(words[i])
    return _in_words(words, i) or _grammar_number(words, i, lexicon)


def _in_words(words: list[str], i: int) -> tuple[int, float] | None:
    """Number words the library reads ("twenty five", "three hundred and ten"); text2num, because
    English number words compose (tens, hundreds, scales) beyond any list the grammar could hold.
    The longest run of number words from i that reads as one number."""
    if _word_value(words[i]) is None:
        return None
    run = i + 1
    while run < min(len(words), i + _LONGEST_WORDS) and _joins_number(words[run]):
        run += 1
    for end in range(run, i, -1):
        try:
            return end - i, float(text2num(" ".join(words[i:end]), "en"))
        except ValueError:
            continue
    return None


def _joins_number(word: str) -> bool:
    return word == "and" or _word_value(word) is not None


@cache
def _word_value(word: str) -> float | None:
    """The number one word says, if it says one: no number word is shorter than "one" or ends in
    "s" (the library also reads "o" as 0 and "thousands" as 1000, which say no number)."""
    if not word.isalpha() or len(word) < 3 or word.endswith("s"):
        return None
    try:
        return float(text2num(word, "en"))
    except ValueError:
        return None


def _grammar_number(words: list[str], i: int, lexicon: Lexicon) -> tuple[int, float] | None:
    for size in range(min(lexicon.longest, len(words) - i), 0, -1):
        tags = lexicon.get(" ".join(words[i : i + size]))
        value = next((tag.value for tag in tags if tag.kind == "number"), None)
        if value is not None:
            return size, float(value)
    return None


def _scaled(
    words: list[str], i: int, number: tuple[int, float], lexicon: Lexicon
) -> tuple[int, float]:
    """The number with the scale written after it ("1.5 m", "two million"), if any."""
    size, value = number
    after = i + size
    if after >= len(words):
        return size, value
    scale = next((tag.value for tag in lexicon.get(words[after]) if tag.kind == "scale"), None)
    return (size + 1, value * scale) if scale is not None else (size, value)


def _has(lexicon: Lexicon, phrase: str, kind: str) -> bool:
    return any(tag.kind == kind for tag in lexicon.get(phrase))
