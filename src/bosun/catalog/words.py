"""The words `catalog init` reads in column and index names: data files beside this module, and the
small helpers that split, write out and inflect names ("dep_delay" → "departure delay", "order" →
"orders")."""

from __future__ import annotations

from collections.abc import Collection
from functools import cache
from importlib import resources
from typing import Any

import yaml

from bosun.catalog.segments import segmented


@cache
def _words() -> dict[str, Any]:
    return _data("draft_words.yaml")


@cache
def _abbreviations() -> dict[str, str]:
    found: dict[str, Any] = _data("abbreviations.yaml")["abbreviations"]
    return {str(short): str(long) for short, long in found.items()}


@cache
def _quantity_abbreviations() -> dict[str, str]:
    found: dict[str, Any] = _data("abbreviations.yaml")["quantity_abbreviations"]
    return {str(short): str(long) for short, long in found.items()}


@cache
def _known_words() -> frozenset[str]:
    """The words a squeezed name may be made of: the abbreviations and the words of
    draft_words.yaml's lists."""
    lists = [v for v in _words().values() if isinstance(v, list)]
    listed = {str(w) for words in lists for w in words if " " not in str(w)}
    return frozenset(listed | set(_abbreviations()) | set(_quantity_abbreviations()))


_SHORTEST_SQUEEZED = 4  # a shorter name is one word or an abbreviation ("educ", "hh")


@cache
def pieces(word: str) -> tuple[str, ...]:
    """A squeezed name split into words, the known abbreviations among them ("docvis" → doc,
    vis; "hhninc" → hh, inc; "outwork" → out, work); the word itself where it is known or short.

    >>> pieces("hospvis")
    ('hosp', 'vis')
    """
    known = _known_words()
    if word in known or len(word) < _SHORTEST_SQUEEZED:
        return (word,)
    return segmented(word, known)


def paired_extreme(name: str, names: Collection[str]) -> bool:
    """ "temp_min" where "temp_max" is a column too (or the other way round): a minimum or maximum
    of a pair, whatever else its last word could mean ("min" is also minutes)."""
    words = words_of(name)
    extreme = _extremes().get(words[-1]) if words else None
    return extreme is not None and "_".join([*words[:-1], extreme["other"]]) in names


@cache
def _extremes() -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = _data("abbreviations.yaml")["extremes"]
    return found


@cache
def _qualifiers() -> frozenset[str]:
    return frozenset(_data("abbreviations.yaml")["leading_qualifiers"])


class _WordsLoader(yaml.SafeLoader):
    """YAML without booleans: the words files hold English, where "no", "yes", "on" and "off" are
    words (YAML 1.1 reads `no` in a list of id words as false, so "order_no" was no id)."""


_WordsLoader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in found if tag != "tag:yaml.org,2002:bool"]
    for first, found in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


@cache
def _data(file: str) -> dict[str, Any]:
    """A words file, parsed once (`catalog init` asks for one per column: 24 s of 1,000 columns);
    read only.

    >>> "no" in _data("draft_words.yaml")["id_words"]
    True
    """
    text = resources.files("bosun.catalog").joinpath(file).read_text(encoding="utf-8")
    found: dict[str, Any] = yaml.load(text, Loader=_WordsLoader)  # a safe loader
    return found


def words_of(name: str) -> list[str]:
    return [w for w in name.lower().split("_") if w]


def row_name(index: str) -> str:
    """The index's name as its rows' name: without the words that say what the file is
    ("loans_full_schema" → "loans"; row_words.yaml file_words), unless that leaves nothing."""
    about_file = {str(w) for w in _data("row_words.yaml")["file_words"]}
    words = words_of(index)
    while len(words) > 1 and words[-1] in about_file:
        words = words[:-1]
    while len(words) > 1 and words[0] in about_file:
        words = words[1:]
    return "_".join(words)


def phrase(name: str) -> str:
    return " ".join(words_of(name))


def spoken(name: str, names: Collection[str] = (), quantity: bool = False) -> str:
    """The name's words with abbreviations written out (abbreviations.yaml), a trailing qualifier
    said first as English does: "dep_delay" → "departure delay", "temp_max" → "maximum temperature";
    "temp_min" beside a "temp_max" among the other columns' `names` is the minimum temperature, not
    minutes. A `quantity` (a measure) says its own abbreviations first ("emp" is employment)."""
    short = {**_abbreviations(), **(_quantity_abbreviations() if quantity else {})}
    words = [_said_pieces(pieces(word), short) for word in words_of(name)]
    if paired_extreme(name, names):
        words[-1] = _extremes()[words_of(name)[-1]]["said"]
    if len(words) > 1 and words[-1] in _qualifiers():
        words = [words[-1], *words[:-1]]
    return " ".join(words)


def _said_pieces(found: tuple[str, ...], short: dict[str, str]) -> str:
    """A squeezed name's pieces said as English says them: abbreviations written out, "of" after
    a particle squeezed against its noun ("outwork" → "out of work").

    >>> _said_pieces(("out", "work"), {})
    'out of work'
    """
    with_of = {str(w) for w in _data("abbreviations.yaml")["said_with_of"]}
    said = [short.get(piece, piece) for piece in found]
    joined = [f"{word} of" if word in with_of else word for word in said[:-1]]
    return " ".join([*joined, *said[-1:]])


def plural(word: str) -> str:
    if word.endswith("s"):
        return word
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + ("es" if word.endswith(("x", "ch", "sh")) else "s")


def singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _has(name: str, key: str) -> bool:
    """The column's name holds one of the words of list `key` (as a word, or the whole squeezed
    name)."""
    listed = {str(w) for w in _words()[key]}
    said = {piece for word in words_of(name) for piece in [word, *pieces(word)]}
    return bool(listed & said) or name.replace("_", "") in listed
