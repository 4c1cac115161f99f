"""English inflection through lemminflect: one mechanism for every word the reader matches.

lemminflect was chosen over `inflect` (nouns only: no verb forms, no comparatives) and `simplemma`
(lemmas only: it cannot spell a form): it lemmatizes and inflects nouns, verbs and adjectives from a
dictionary of English, with rules for words it has never seen ("teu" → "teus"), and needs only
numpy, already a dependency.

    >>> sorted(forms("transit"))
    ['transited', 'transiting', 'transits']
    >>> singular("invoice lines"), is_plural("consignees"), degrees("busy")
    ('invoice line', True, (('busier',), ('busiest',)))
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any

# Noun and verb forms: a catalog word matches in the singular or plural, and as "-ing"/"-ed".
# Adjective degrees are not forms here: "heavier" means more than "heavy" (see `degrees`).
_FORMS = frozenset({"NN", "NNS", "VB", "VBD", "VBG", "VBN", "VBP", "VBZ"})
_NOUN_VERB = ("NOUN", "VERB")
_SHORTEST = 3  # "as" is not a plural of "a", nor "is" of "i"


@cache
def _breame() -> ModuleType:
    """breame's British → American spelling table (about 1,700 words: "tyre" → "tire", "harbour" →
    "harbor"), imported at the first unknown word. Chosen over `eng` (a table built for source
    code, without "tyre" or "harbour") and over fuzzy matching alone ("tyre" is one edit from
    "tire", but four letters are too few to fuzz safely); it is plain data, stable since 2021."""
    return importlib.import_module("breame.spelling")


@cache
def _lemminflect() -> ModuleType:
    """lemminflect, imported at the first word read: it brings numpy, which a command that reads
    no question (`bosun --help`, `catalog show`) need not load."""
    return importlib.import_module("lemminflect")


def _lemmas_of(word: str, upos: str | None = None) -> dict[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = _lemminflect().getAllLemmas(word, upos=upos)
    return found


def _lemmas_oov(word: str, upos: str) -> dict[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = _lemminflect().getAllLemmasOOV(word, upos)
    return found


def _inflections_of(lemma: str, upos: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = _lemminflect().getAllInflections(lemma, upos=upos)
    return found


def _inflections_oov(lemma: str, upos: str) -> dict[str, Any]:
    found: dict[str, Any] = _lemminflect().getAllInflectionsOOV(lemma, upos)
    return found


def _inflectable(word: str) -> bool:
    return word.isalpha() and len(word) >= _SHORTEST


@cache
def lemmas(word: str) -> tuple[str, ...]:
    """The noun and verb lemmas of a lower-case word ("shipping" → ship, shipping); a word the
    dictionary lacks is read by lemminflect's noun rules ("consignees" → consignee)."""
    if not _inflectable(word):
        return (word,)
    known = _lemmas_of(word)
    found = [lemma for pos in _NOUN_VERB for lemma in known.get(pos, ())]
    if not found and not known:
        found = list(_lemmas_oov(word, "NOUN").get("NOUN", ()))
    return tuple(dict.fromkeys(found or [word]))


@cache
def forms(word: str) -> frozenset[str]:
    """Every other noun or verb form of a word's lemmas: "ships" → ship, shipped, shipping…"""
    if not _inflectable(word):
        return frozenset()
    spelled: set[str] = set()
    for lemma in lemmas(word):
        spelled.add(lemma)
        inflections = _inflections_of(lemma) or _inflections_oov(lemma, "NOUN")
        spelled.update(f for tag, fs in inflections.items() if tag in _FORMS for f in fs)
    return frozenset(f.lower() for f in spelled if f.isalpha()) - {word}


# An English noun phrase with an "of" modifier inflects the noun before it: "ports of lading",
# "countries of origin". (Not other prepositions: "going to" is a verb and its particle.)
_MODIFIERS = frozenset({"of"})


def _head(phrase: str) -> tuple[str, str, str]:
    """The phrase split around its head noun: the word before its first preposition, else its last
    word ("port of lading" → "", "port", " of lading")."""
    words = phrase.split(" ")
    inner = range(1, len(words) - 1)  # "order of" and "in order of" end in theirs: no modifier
    at = next((i - 1 for i in inner if words[i] in _MODIFIERS), len(words) - 1)
    before = " ".join(words[:at])
    after = " ".join(words[at + 1 :])
    return (f"{before} " if before else ""), words[at], (f" {after}" if after else "")


def phrase_forms(phrase: str) -> list[str]:
    """The phrase with its head word in each of its other forms ("invoice line" → "invoice
    lines", "port of lading" → "ports of lading")."""
    before, head, after = _head(phrase)
    if not after:
        return [before + form for form in sorted(forms(head))]
    number = {_noun_singular(head), _noun_plural(head)} - {head}
    return [before + form + after for form in sorted(number)]


@cache
def _noun_singular(word: str) -> str:
    if not _inflectable(word):
        return word
    known = _lemmas_of(word, upos="NOUN").get("NOUN") or _lemmas_oov(word, "NOUN")["NOUN"]
    return known[0].lower() if known else word


@cache
def _noun_plural(word: str) -> str:
    if not _inflectable(word):
        return word
    lemma = _noun_singular(word)
    spelled = _inflections_of(lemma, upos="NOUN") or _inflections_oov(lemma, "NOUN")
    found: tuple[str, ...] = spelled.get("NNS", ())
    return found[0] if found else word


def singular(phrase: str) -> str:
    """The phrase with its head word as a singular noun ("yoga mats" → "yoga mat", "ports of
    lading" → "port of lading")."""
    before, head, after = _head(phrase)
    return before + _noun_singular(head) + after


def is_plural(phrase: str) -> bool:
    """Whether the phrase's head word is a plural noun ("carriers", "teus"; not "status")."""
    head = _head(phrase)[1]
    return _noun_singular(head) != head


def stem(word: str) -> str:
    """The shortest lemma of a word, for matching words of one family ("flagged" → flag)."""
    return min(lemmas(word), key=lambda lemma: (len(lemma), lemma))


@cache
def degrees(adjective: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The comparatives and superlatives of an adjective: busy → (busier,), (busiest,)."""
    comparatives = _inflections_of(adjective, upos="ADJ").get("JJR") or _oov(adjective, "JJR")
    superlatives = _inflections_of(adjective, upos="ADJ").get("JJS") or _oov(adjective, "JJS")
    return tuple(comparatives), tuple(superlatives)


def _oov(adjective: str, tag: str) -> tuple[str, ...]:
    found: tuple[str, ...] = _inflections_oov(adjective, "ADJ").get(tag, ())
    return found


def plural(phrase: str) -> str:
    """The phrase with its head word as a plural noun ("carrier" → "carriers", "port of lading" →
    "ports of lading")."""
    before, head, after = _head(phrase)
    return before + _noun_plural(head) + after


@cache
def in_dictionary(word: str) -> bool:
    """Whether lemminflect's dictionary of English knows the lower-case word: "contains" and "tile"
    are words, "contianers" and "consignes" are not."""
    return bool(_lemmas_of(word))


@cache
def american(word: str) -> str:
    """The American spelling of a British one ("tyres" → "tires"); any other word as it is."""
    spelt: str = _breame().get_american_spelling(word)
    return spelt.lower()
