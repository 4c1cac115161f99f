"""Names in a question resolved to the catalog's entities: exact and alias, then partial and fuzzy,
then vectors.

Everything comes from the catalog (names, aliases, codes, inline vocabularies); nothing here knows
a domain. A phrase that names several things equally well is an ambiguity; a capitalised phrase
that names nothing is an unknown term.

With each caller's own cluster credentials (BOSUN_ENGINE_AUTH=caller), a caller resolves only the
names of the reference rows the cluster lets them read (`CallerNames`): read again with their
credential, so an index they are denied gives them no names and a row hidden from them (document-
level security) none either, in a reading, a question back or a suggestion. The catalog file's own
words (inline vocabularies, aliases of a name they may read) are everyone's.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from bosun.catalog import Catalog
from bosun.catalog.loader import index_rows
from bosun.engines.base import Engine
from bosun.engines.caller import caller
from bosun.errors import CatalogError, Forbidden
from bosun.understanding.inflections import singular
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
    # how alike a name must be to be offered in a question back, never read without asking
    offer_min_score: float = 70.0
    # entity → the words that say its kind ("port"): not missing from "Newark" of "Port Newark"
    kind_words: dict[str, frozenset[str]] = field(default_factory=dict)
    # the names each caller may read, when the reference rows live in a cluster
    callers: CallerNames | None = field(default=None, repr=False, compare=False)

    @cached_property
    def keys(self) -> list[str]:
        """Every name, for fuzzy matching (built once, after the index is filled)."""
        return list(self.names)

    @cached_property
    def by_lemma(self) -> dict[str, list[str]]:
        """Each name with its last word as a singular noun → the names so spelt: "tires" and "yoga
        mat" are found as "tire" and "yoga mat" (built once, after the index is filled)."""
        lemmas: dict[str, list[str]] = {}
        for key in self.names:
            lemmas.setdefault(singular(key), []).append(key)
        return lemmas

    def seen(self) -> NameIndex:
        """The names the current caller may read: this index itself outside a caller's request,
        else its copy without the names the cluster hides from them (kept per caller)."""
        if self.callers is None:
            return self
        hidden = self.callers.hidden()
        if not hidden:
            return self
        return self.callers.view(hidden, lambda: self._without(hidden))

    def _without(self, hidden: frozenset[tuple[str, str]]) -> NameIndex:
        view = NameIndex(
            fuzzy_min_score=self.fuzzy_min_score,
            ambiguity_margin=self.ambiguity_margin,
            offer_min_score=self.offer_min_score,
            kind_words=self.kind_words,
        )
        for key, candidates in self.names.items():
            for candidate in candidates:
                if (candidate.entity, candidate.value) not in hidden:
                    view.add_key(key, candidate)
        return view

    def add_key(self, key: str, candidate: Candidate) -> None:
        """Add a candidate under a name already normalised."""
        found = self.names.setdefault(key, [])
        if all((c.entity, c.value) != (candidate.entity, candidate.value) for c in found):
            found.append(candidate)
        for token in key.split():
            self.tokens.setdefault(token, set()).add(key)

    def add(self, name: str, candidate: Candidate) -> None:
        key = normalize(name)
        if key:
            self.add_key(key, candidate)


class CallerNames:
    """The names of reference rows each caller of a cluster may not read, found by reading the rows
    again with the caller's credential (kept per caller for `KEEP_S`, at most `MOST` callers)."""

    KEEP_S = 300.0  # how long what the cluster let a caller read is kept before it is asked again
    MOST = 256

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._hidden: OrderedDict[str, tuple[float, frozenset[tuple[str, str]]]] = OrderedDict()
        self._views: dict[frozenset[tuple[str, str]], NameIndex] = {}
        self._lock = threading.Lock()

    def hidden(self) -> frozenset[tuple[str, str]]:
        """(entity, name) of every name whose rows the current caller may not read; none outside a
        caller's request."""
        secret, engine = caller(), self.catalog.engine
        if secret is None or engine is None:
            return frozenset()
        key = hashlib.sha256(secret.get_secret_value().encode()).hexdigest()
        with self._lock:
            kept = self._hidden.get(key)
        if kept is not None and time.monotonic() - kept[0] < self.KEEP_S:
            return kept[1]
        rows: dict[str, list[dict[str, Any]] | None] = {}  # object → the caller's rows of it
        hidden = frozenset(
            pair for name in self._named() for pair in self._unread(name, engine, rows)
        )
        with self._lock:
            self._hidden[key] = (time.monotonic(), hidden)
            self._hidden.move_to_end(key)
            while len(self._hidden) > self.MOST:
                self._hidden.popitem(last=False)
        return hidden

    def view(self, hidden: frozenset[tuple[str, str]], build: Callable[[], NameIndex]) -> NameIndex:
        """The index without `hidden`, built once for every caller who may not read the same."""
        with self._lock:
            if hidden not in self._views:
                if len(self._views) >= self.MOST:
                    self._views.clear()
                self._views[hidden] = build()
            return self._views[hidden]

    def _named(self) -> list[str]:
        entities = self.catalog.spec.entities.items()
        return [name for name, spec in entities if spec.object and spec.name_field]

    def _unread(
        self, entity: str, engine: Engine, rows: dict[str, list[dict[str, Any]] | None]
    ) -> set[tuple[str, str]]:
        """The entity's names the caller may not read: all of them when the cluster denies the
        index, none when the cluster has no such index (the catalog file's rows are everyone's)."""
        spec = self.catalog.spec.entities[entity]
        assert spec.object is not None and spec.name_field is not None
        if spec.object not in rows:
            rows[spec.object] = self._readable(spec.object, engine)
        readable = rows[spec.object]
        if readable is None:
            return set()
        names = {str(row.get(spec.name_field)) for row in readable}
        every = {str(row[spec.name_field]) for row in self.catalog.reference_rows(spec.object)}
        return {(entity, name) for name in every - names}

    def _readable(self, name: str, engine: Engine) -> list[dict[str, Any]] | None:
        """The object's rows as the caller reads them: none when denied, None when the cluster has
        no such index (its names then come from the catalog's own file, everyone's)."""
        obj = self.catalog.object(name)
        try:
            return index_rows(engine, obj.index, obj.id_field)
        except Forbidden:
            return []
        except CatalogError:
            return None


def build_index(catalog: Catalog) -> NameIndex:
    defaults = catalog.spec.defaults
    index = NameIndex(
        fuzzy_min_score=defaults.fuzzy_min_score,
        ambiguity_margin=defaults.ambiguity_margin,
        offer_min_score=defaults.offer_min_score,
        kind_words=_kind_words(catalog),
        callers=CallerNames(catalog),
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


def _kind_words(catalog: Catalog) -> dict[str, frozenset[str]]:
    """entity → the single words of its nouns and of its object's synonyms ("port", "harbor")."""
    kinds: dict[str, frozenset[str]] = {}
    for name, spec in catalog.spec.entities.items():
        said = [*spec.words, *(catalog.object(spec.object).synonyms if spec.object else [])]
        kinds[name] = frozenset(w for phrase in said for w in normalize(phrase).split())
    return kinds


def find_names(
    text: str,
    index: NameIndex,
    *,
    skip: set[str] | None = None,
    vectors: NameVectors | None = None,
    min_similarity: float = 0.82,
    common: frozenset[str] | None = None,
) -> list[Found]:
    """Longest phrases first, left to right; each word belongs to at most one phrase.

    `common` holds ordinary words: a short name written in lower case is read only when it is not
    one ("zim", "msc", but not "one" or "in"); without it, short names are read only in capitals.
    """
    index = index.seen()
    words = [(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text)]
    taken = [False] * len(words)
    found: list[Found] = []
    matched: dict[str, Hit | None] = {}  # a phrase said again is matched once
    firsts = [next(iter(normalize(word).split()), "") for _, _, word in words]
    for size in range(min(MAX_WORDS, len(words)), 0, -1):
        for i in range(len(words) - size + 1):
            if any(taken[i : i + size]):
                continue
            phrase = text[words[i][0] : words[i + size - 1][1]]
            if size > 1 and firsts[i] not in index.tokens and not _proper(phrase):
                continue  # a phrase in lower case is only ever a name exactly: none starts so
            if phrase not in matched:
                matched[phrase] = _match(
                    phrase, index, skip or set(), vectors, min_similarity, common
                )
            hit = matched[phrase]
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
) -> Hit | None:
    key = normalize(phrase)
    if not key or key in skip:
        return None
    key = key if key in index.names else _inflected(key, index)
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
        return partial
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


def _inflected(key: str, index: NameIndex) -> str:
    """The name `key` says in another inflection of its last word, when it names nothing as said:
    "yoga mats" names what "yoga mat" names, "tire" what "tires" does (one name only)."""
    named = index.by_lemma.get(singular(key), [])
    return named[0] if len(named) == 1 else key


def _fuzzy(key: str, index: NameIndex) -> Hit | None:
    """The closest names by Damerau-Levenshtein similarity (a swapped pair of letters costs one
    edit, as people type), scored natively by rapidfuzz: the nearest, and those within the index's
    ambiguity margin of it."""
    return closest(key, index, index.fuzzy_min_score)


def closest(
    key: str, index: NameIndex, min_score: float, entities: frozenset[str] | None = None
) -> Hit | None:
    """The names at least `min_score` like `key` (of `entities` only, when given): the nearest and
    those within the ambiguity margin of it, as fuzzy candidates.

        closest("maersc", index, 70.0)  →  ((carrier MAERSK),), 83.3
    """
    keys = index.keys
    if entities is not None:
        keys = [k for k in keys if any(c.entity in entities for c in index.names[k])]
    near = process.extract(
        key,
        keys,
        scorer=DamerauLevenshtein.normalized_similarity,
        score_cutoff=min_score / 100.0 - 1e-9,  # 4 of 5 letters right is 80 %, not 79.99…
        limit=5,
    )
    if not near:
        return None
    best = near[0][1]
    margin = index.ambiguity_margin / 100.0
    candidates: dict[tuple[str, str], Candidate] = {}
    for name, score, _ in near:
        for c in index.names[name]:
            if best - score <= margin and (entities is None or c.entity in entities):
                candidates.setdefault(
                    (c.entity, c.value), Candidate(c.entity, c.value, "fuzzy", c.row)
                )
    return tuple(candidates.values()), 100.0 * best


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


def _partial(key: str, index: NameIndex) -> Hit | None:
    """Names that contain `key`'s words in a row and not much else ("Anna" in "MSC ANNA"), scored by
    the share of the words of the closest of them that `key` says ("Bangkok" says 50 % of "bangkok
    auto", "Santos Coffee Exporters" 75 % of "santos coffee exporters sa"); the words that say the
    name's kind are not missing ("Newark" says all of "port newark")."""
    words = key.split()
    if len(words) == 1 and len(words[0]) < 4:
        return None
    names = set.intersection(*(index.tokens.get(w, set()) for w in words)) if words else set()
    close = [
        n for n in sorted(names) if len(n.split()) <= len(words) + 2 and _contains_words(n, words)
    ]
    candidates = [(n, c) for n in close for c in index.names[n]]
    if not candidates:
        return None
    score = max(len(words) / len(_unkinded(n, c.entity, index).split()) for n, c in candidates)
    return tuple(Candidate(c.entity, c.value, "partial", c.row) for _, c in candidates), 100 * score


def _unkinded(name: str, entity: str, index: NameIndex) -> str:
    """The name without the words that say its kind ("port newark" → "newark"), if any are
    left."""
    kinds = index.kind_words.get(entity, frozenset())
    rest = [w for w in name.split() if w not in kinds]
    return " ".join(rest) if rest else name


def _contains_words(name: str, words: list[str]) -> bool:
    tokens = name.split()
    return any(tokens[i : i + len(words)] == words for i in range(len(tokens) - len(words) + 1))
