"""The role a question gives a name ("the supplier Hapag Loyd", "consigned to Evergrene", "the Chef
Knive store"), and whether a name read loosely may be taken in it without asking.

A role is a phrase of the catalog next to a name that says what kind of thing the name is: an
entity's own words ("carrier", "store"), the synonyms of the record fields its targets filter
("supplier" and "importer" name companies, whose targets are shipper_name and consignee_name), and
the cues of its targets that no other entity's targets share and that mean nothing else ("consigned
to"; not "by", nor "shipped by", "shipped" being a date verb too). A name matched loosely (a part of
a name, a misspelling, a vector) is taken without asking only as a kind its role names and only
when it is close enough; else it is asked back. Nothing here knows a domain: the phrases are the
catalog's.

    >>> roles = Roles.of(catalog, {"to": True}, inflections.singular)  # doctest: +SKIP
    >>> roles.nouns["supplier"], roles.cues["consigned to"]  # doctest: +SKIP
    (frozenset({'company'}), frozenset({'company'}))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from bosun.catalog import Catalog
from bosun.understanding.names import Found, normalize
from bosun.understanding.tagger import Span

LOOSE = frozenset({"partial", "fuzzy", "vector"})  # the ways a name is matched but not as written
_MOST_WORDS = 3  # the longest role phrase looked for before a name, in spans


@dataclass(frozen=True)
class Role:
    """The entity kinds a role phrase names, and the spans that say it."""

    entities: frozenset[str]
    spans: tuple[int, ...]


@dataclass(frozen=True)
class Roles:
    """Every role phrase of the catalog, normalised → the entity kinds it names: nouns, said in
    one with the name ("the supplier X", "the X store"), and cues, said right before it
    ("consigned to X")."""

    nouns: dict[str, frozenset[str]]
    cues: dict[str, frozenset[str]]
    verbs: frozenset[str] = frozenset()  # nouns that are verbs too: not a role after a name

    @classmethod
    def of(
        cls,
        catalog: Catalog,
        words: Mapping[str, bool],
        singular: Callable[[str], str],
    ) -> Roles:
        """The catalog's role phrases. `words` holds each word the grammar and the catalog know,
        True when it carries no content (quiet); `singular` makes a phrase singular.

        A name's role is said in the singular ("the supplier X"); a plural beside a name says
        something else ("value of goods Santos Coffee sent", "Evergreen vessels"); after a name,
        a noun that is a date verb too is the verb ("did Maersk ship"). A cue is a role only when
        it means nothing else: "consigned to", not "shipped by" (a date verb as well) nor "by"
        alone (grammar)."""
        nouns: dict[str, set[str]] = {}
        for entity, said in _kind_words(catalog).items():
            for word in (normalize(w) for w in said):
                if word and singular(word) == word:
                    nouns.setdefault(word, set()).add(entity)
        cues = {
            cue: frozenset(entities)
            for cue, entities in _cues(catalog).items()
            if len(entities) == 1 and _only_a_cue(cue, words)
        }
        time = catalog.spec.time.fields.values()
        verbs = frozenset(normalize(w) for said in time for w in said)
        return cls({phrase: frozenset(kinds) for phrase, kinds in nouns.items()}, cues, verbs)

    def named(self, spans: list[Span], i: int) -> Role | None:
        """The role said of the name at `spans[i]`: a cue or a noun right before it ("consigned
        to", "by the supplier", longest first), or a noun, not a verb, right after it ("the Chef
        Knive store")."""
        for first in range(max(0, i - _MOST_WORDS), i):
            phrase = " ".join(s.key for s in spans[first:i])
            kinds = self.cues.get(phrase) or self.nouns.get(phrase)
            if kinds:
                return Role(kinds, tuple(range(first, i)))
        after = spans[i + 1].key if i + 1 < len(spans) else ""
        if after in self.nouns and after not in self.verbs:
            return Role(self.nouns[after], (i + 1,))
        return None


def _only_a_cue(cue: str, words: Mapping[str, bool]) -> bool:
    """A cue with a word that nothing else reads, and no word read as content: "consigned to"."""
    said = cue.split()
    unknown = [w for w in said if w not in words]
    return bool(unknown) and all(w in unknown or words[w] for w in said)


def _kind_words(catalog: Catalog) -> dict[str, list[str]]:
    """entity → its own words and the synonyms of the record fields its targets filter."""
    fields = catalog.record.fields
    words: dict[str, list[str]] = {}
    for entity, spec in catalog.spec.entities.items():
        own = words.setdefault(entity, [*spec.words])
        for target in spec.targets:
            if target.field in fields:
                own += fields[target.field].synonyms
    return words


def _cues(catalog: Catalog) -> dict[str, set[str]]:
    """cue → the entities whose targets it cues."""
    cues: dict[str, set[str]] = {}
    for entity, spec in catalog.spec.entities.items():
        for target in spec.targets:
            for cue in target.cues:
                cues.setdefault(normalize(cue), set()).add(entity)
    return cues


def loose(found: Found) -> bool:
    """Matched but not as written: a part of a name, a misspelling, a vector's neighbour."""
    return any(c.method in LOOSE for c in found.candidates)


def asked(found: Found, role: Role | None, min_score: float) -> bool:
    """A name matched loosely is asked back when none of its names is of a kind its role names
    ("the supplier Hapag Loyd": a carrier's name), or, said with no role, when it is too little like
    them to be taken on its own."""
    if not loose(found):
        return False
    if role is not None:
        return not any(c.entity in role.entities for c in found.candidates)
    return weak(found, min_score)


def weak(found: Found, min_score: float) -> bool:
    """Less alike than `min_score` (the catalog's fuzzy_min_score), or one word of a longer name
    ("Bangkok" of BANGKOK AUTO COMPONENTS CO; "Hamburg Feinkost" says enough of its name)."""
    if any(c.method == "partial" for c in found.candidates):
        return found.score < 100.0 and len(found.text.split()) == 1
    return found.score < min_score


def in_role(found: Found, role: Role | None) -> Found:
    """A loose match narrowed to the candidates of the role's kinds (the role says which)."""
    if role is None or not loose(found):
        return found
    kept = tuple(c for c in found.candidates if c.entity in role.entities)
    return replace(found, candidates=kept or found.candidates)
