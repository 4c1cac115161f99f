"""Squeezed column names split into words ("hospvis" → hosp, vis; "outwork" → out, work), by the
`wordsegment` library: a unigram and bigram model of a trillion-word English corpus (Peter Norvig's
segmenter, packaged with its data, so it runs offline). Chosen over `wordninja`, whose unigram
ranks split "hospvis" as hos, pv, is and "educ" as e, duc; wordsegment's bigrams keep both. The
short words of column names that `catalog init` knows (abbreviations.yaml, draft_words.yaml) are
given the weight of a common word, so a known abbreviation wins over a rarer English split."""

from __future__ import annotations

from functools import cache

import wordsegment

# The corpus count given to a known short word: that of a common English word ("about" is seen
# about a billion times), so "hhninc" splits at "hh" and "inc", not at "hhn"
_KNOWN_COUNT = 1e9
_LETTER = 1  # a piece this short is an initial ("n" of net income), not a word


@cache
def _segmenter(known: frozenset[str]) -> wordsegment.Segmenter:
    """The segmenter, its corpus loaded once (about 1 s and 90 MB, only when a name needs it)."""
    segmenter = wordsegment.Segmenter()
    segmenter.load()
    for word in known:
        segmenter.unigrams[word] = max(segmenter.unigrams.get(word, 0.0), _KNOWN_COUNT)
    return segmenter


def segmented(word: str, known: frozenset[str]) -> tuple[str, ...]:
    """The words `word` is made of, with the `known` short words as likely as common English ones;
    a lone initial among them is dropped where two words stay, since it says nothing a question
    would ("hhninc": household net income, said "household income").

    >>> segmented("hhninc", frozenset({"hh", "inc"}))
    ('hh', 'inc')
    >>> segmented("outwork", frozenset())
    ('out', 'work')
    """
    found = tuple(_segmenter(known).segment(word))
    words = tuple(piece for piece in found if not _initial(piece))
    return words if len(words) >= 2 else found


def _initial(piece: str) -> bool:
    return len(piece) <= _LETTER and piece.isalpha()
