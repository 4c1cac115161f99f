"""Names in a question resolved to the catalog's entities: exact and alias, then partial and fuzzy,
then vectors.

Everything comes from the catalog (names, aliases, codes, inline vocabularies); nothing here knows
a domain. A phrase that names several things equally well is an ambiguity; a capitalised phrase
that names nothing is an unknown term.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from bosun.catalog import Catalog
from bosun.understanding.meaning import Resolution

if TYPE_CHECKING:
    from bosun.understanding.vectors import NameVectors

_WORD = re.compile(r"[\w][\w.&'/]*", re.UNICODE)  # "Hapag-Lloyd" is two words that name one carrier
MAX_WORDS = 6


def normalize(text: str) -> str:
    """Lower-cased words, possessives dropped ("MSC's" → "msc")."""
    return " ".join(re.findall(r"[\w&]+", re.sub(r"['’]s\b", "", text.lower())))


@dataclass(frozen=True)
class Candidate:
    """One thing a phrase can name: an entity kind, its canonical value and its reference row."""

    entity: str
    value: str
    method: Resolution
    row: tuple[tuple[str, Any], ...] = ()

    @property
    def attributes(self) -> dict[str, Any]:
        return dict(self.row)


@dataclass(frozen=True)
class Found:
    """A phrase of the question and what it may name (one candidate, or several = ambiguous)."""

    start: int
    end: int
    text: str
    candidates: tuple[Candidate, ...]
    score: float = 100.0

    @property
    def ambiguous(self) -> bool:
        return len({(c.entity, c.value) for c in self.candidates}) > 1


@dataclass
class NameIndex:
    """Every name the catalog knows, normalised, → candidates, and how close a name must be to
    match: a typo's similarity (0-100) at least `fuzzy_min_score`; names within `ambiguity_margin`
    points of the nearest by vector are an ambiguity (the catalog's `defaults` set both)."""

    names: dict[str, list[Candidate]] = field(default_factory=dict)
    tokens: dict[str, set[str]] = field(default_factory=dict)
    fuzzy_min_score: float = 80.0
    ambiguity_margin: float = 3.0

    @cached_property
    def keys(self) -> list[str]:
        """Every name, for fuzzy matching (built once, after the index is filled)."""
        return list(self.names)

    def add(self, name: str, candidate: Candidate) -> None:
        key = normalize(name)
        if not key:
            return
        found = self.names.setdefault(key, [])
        if all((c.entity, c.value) != (candidate.entity, candidate.value) for c in found):
            found.append(candidate)
        for token in key.split():
            self.tokens.setdefault(token, set()).add(key)


def build_index(catalog: Catalog) -> NameIndex:
    defaults = catalog.spec.defaults
    index = NameIndex(
        fuzzy_min_score=defaults.fuzzy_min_score, ambiguity_margin=defaults.ambiguity_margin
    )
    for name, spec in catalog.spec.entities.items():
        for value, aliases in spec.values.items():
            index.add(value, Candidate(name, value, "code"))
            for alias in aliases:
                index.add(alias, Candidate(name, value, "alias"))
        if not (spec.object and spec.name_field):
            continue
        for row in catalog.reference_rows(spec.object):
            frozen = tuple(sorted(row.items()))
            value = row[spec.name_field]
            index.add(value, Candidate(name, value, "exact", frozen))
            for column in [*spec.code_fields]:
                index.add(row[column], Candidate(name, value, "code", frozen))
            for column in [*([spec.alias_field] if spec.alias_field else []), *spec.extra_names]:
                for alias in (row.get(column) or "").split("|"):
                    index.add(alias, Candidate(name, value, "alias", frozen))
            for alias in spec.aliases.get(value, []):  # the catalog's own words for it
                index.add(alias, Candidate(name, value, "alias", frozen))
    return index


def find_names(
    text: str,
    index: NameIndex,
    *,
    skip: set[str] | None = None,
    vectors: NameVectors | None = None,
    min_similarity: float = 0.82,
    common: frozenset[str] | None = None,
    plurals: tuple[str, ...] = ("s",),
) -> list[Found]:
    """Longest phrases first, left to right; each word belongs to at most one phrase.

    `common` holds ordinary words: a short name written in lower case is read only when it is not
    one ("zim", "msc", but not "one" or "in"); without it, short names are read only in capitals.
    """
    words = [(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text)]
    taken = [False] * len(words)
    found: list[Found] = []
    for size in range(min(MAX_WORDS, len(words)), 0, -1):
        for i in range(len(words) - size + 1):
            if any(taken[i : i + size]):
                continue
            phrase = text[words[i][0] : words[i + size - 1][1]]
            hit = _match(phrase, index, skip or set(), vectors, min_similarity, common, plurals)
            if hit is not None:
                found.append(Found(words[i][0], words[i + size - 1][1], phrase, *hit))
                taken[i : i + size] = [True] * size
    return sorted(found, key=lambda f: f.start)


Hit = tuple[tuple[Candidate, ...], float]


def _proper(phrase: str) -> bool:
    """Written like a name: every word starts with a capital letter or a digit."""
    return all(w[0].isupper() or w[0].isdigit() for w in phrase.split())


def _match(
    phrase: str,
    index: NameIndex,
    skip: set[str],
    vectors: NameVectors | None = None,
    min_similarity: float = 0.82,
    common: frozenset[str] | None = None,
    plurals: tuple[str, ...] = ("s",),
) -> Hit | None:
    key = normalize(phrase)
    if not key or key in skip:
        return None
    key = key if key in index.names else _singular(key, index, plurals)
    if key in index.names:
        ordinary = common is None or key in common
        if len(key) <= 3 and ordinary and not re.sub(r"['’]s\b", "", phrase).isupper():
            # a short name that is also a word only in capitals: "ONE", "IN", not "one", "in"
            return None
        return tuple(index.names[key]), 100.0
    # a lower-case word is fuzzy-matched only when long ("maesrk", not "times")
    if not _proper(phrase):
        return None if " " in key or len(key) < 6 else _fuzzy(key, index)
    partial = _partial(key, index)
    if partial:
        return partial, 95.0
    if len(key) < 5 or len(key.split()) > 3:
        return None
    fuzzy = _fuzzy(key, index)
    if (
        fuzzy is None
        and vectors is not None
        and not _known_words(key.split(), index)
        and not _ordinary(key, common)
    ):
        return _nearest(key, index, vectors, min_similarity)
    return fuzzy


def _singular(key: str, index: NameIndex, plurals: tuple[str, ...]) -> str:
    """ "yoga mats" names what "yoga mat" names, "chef knives" what "chef knife" does, when the
    plural names nothing itself; `plurals` are the grammar's endings ("ives>ife": the ending, then
    what replaces it)."""
    for rule in plurals:
        ending, _, single = rule.partition(">")
        if (
            key.endswith(ending)
            and len(key) > len(ending) + 2
            and key[: -len(ending)] + single in index.names
        ):
            return key[: -len(ending)] + single
    return key


def _fuzzy(key: str, index: NameIndex) -> Hit | None:
    """The closest name by Damerau-Levenshtein similarity (a swapped pair of letters costs one edit,
    as people type), scored natively by rapidfuzz."""
    best = process.extractOne(
        key,
        index.keys,
        scorer=DamerauLevenshtein.normalized_similarity,
        score_cutoff=index.fuzzy_min_score / 100.0,
    )
    if best is None:
        return None
    return tuple(
        Candidate(c.entity, c.value, "fuzzy", c.row) for c in index.names[best[0]]
    ), 100.0 * best[1]


def _nearest(key: str, index: NameIndex, vectors: NameVectors, min_similarity: float) -> Hit | None:
    """The nearest name by vector, if near enough; names within the index's ambiguity margin of the
    nearest are an ambiguity."""
    near = vectors.search(key, limit=3)
    if not near or near[0][1] < min_similarity:
        return None
    best = near[0][1]
    margin = index.ambiguity_margin / 100.0
    if any(
        c.value == near[0][0] or normalize(c.value) == near[0][0] for c in _exact_parts(key, index)
    ):
        return None  # "List Evergreen": the exact "Evergreen" inside says it better
    keys = [
        k
        for k, score in near
        if score >= min_similarity and best - score <= margin and k in index.names
    ]
    candidates: dict[tuple[str, str], Candidate] = {}
    for k in keys:
        for c in index.names[k]:
            candidates.setdefault(
                (c.entity, c.value), Candidate(c.entity, c.value, "vector", c.row)
            )
    return (tuple(candidates.values()), 100.0 * best) if candidates else None


def _exact_parts(key: str, index: NameIndex) -> list[Candidate]:
    """Candidates of every shorter run of words inside `key` that is a name as it stands."""
    words = key.split()
    runs = {
        " ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)
    } - {key}
    return [c for run in runs if run in index.names for c in index.names[run]]


def _ordinary(key: str, common: frozenset[str] | None) -> bool:
    """Only words the grammar or catalog knows, or numbers ("Which", "Top 3"): a capital, not a
    name, to look up."""
    return common is not None and all(w in common or w.isdigit() for w in key.split())


def _known_words(words: list[str], index: NameIndex) -> bool:
    """The words split into names the index knows ("rotterdam hmm"): each is meant as itself, not as
    one name."""
    known = [True] + [False] * len(words)  # known[i]: words[:i] splits into known names
    for end in range(1, len(words) + 1):
        known[end] = any(
            known[start] and " ".join(words[start:end]) in index.names for start in range(end)
        )
    return known[-1]


def _partial(key: str, index: NameIndex) -> tuple[Candidate, ...]:
    """Names that contain `key`'s words in a row and not much else ("Anna" in "MSC ANNA")."""
    words = key.split()
    if len(words) == 1 and len(words[0]) < 4:
        return ()
    names = set.intersection(*(index.tokens.get(w, set()) for w in words)) if words else set()
    close = [
        n for n in sorted(names) if len(n.split()) <= len(words) + 2 and _contains_words(n, words)
    ]
    return tuple(
        Candidate(c.entity, c.value, "partial", c.row) for n in close for c in index.names[n]
    )


def _contains_words(name: str, words: list[str]) -> bool:
    tokens = name.split()
    return any(tokens[i : i + len(words)] == words for i in range(len(tokens) - len(words) + 1))
