"""Taught words in the deployment's store, and the session's catalog and readers kept up to date
with them.

The words live in a table beside the conversation store's turns (SQLite under the data directory, or
the Postgres of `checkpoint_url`), so every thread and every process reads the same ones. A session
checks the table's revision before each turn (one small query) and, when it moved, lays the words
over its catalog and builds its readers again: the rules backend then reads them through the lexicon
and name index the catalog's own words go through, and the LLM backend sees them in the catalog it
is shown.

Who may teach what (issue #39): no one teaches a word the readers keep to themselves (a word of the
grammar, a date or number word, a phrase holding a date or a number: `ReadersWords`), and a word
stored before that rule is not laid over the catalog; teaching anew a word that already means
something (a catalog word, a name, a taught word) is an administrator's, and confirmed; narrowing a
name that names several to one of them (a pick remembered) needs only the confirmation.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime

from rapidfuzz import fuzz

from bosun.catalog import Catalog
from bosun.catalog.taught import (
    TaughtWord,
    phrases,
    shape_problems,
    target_problems,
    targets,
    value_set,
    with_taught,
)
from bosun.conversation.goals import goals_for
from bosun.conversation.store import TurnStore
from bosun.errors import StoreError, TeachingRefused, UserError
from bosun.planner.context import RunContext, Taught
from bosun.understanding import PastTurn, Understanding
from bosun.understanding.grammar import Tag, english
from bosun.understanding.llm import LLMUnderstanding
from bosun.understanding.names import normalize
from bosun.understanding.rules import RulesUnderstanding
from bosun.understanding.tagger import Span
from bosun.understanding.teaching import ReadersWords

_WORDS = "CREATE TABLE IF NOT EXISTS bosun_vocabulary (word TEXT PRIMARY KEY, entry TEXT NOT NULL)"
_REVISION = (
    "CREATE TABLE IF NOT EXISTS bosun_vocabulary_revision (id INTEGER PRIMARY KEY, revision "
    "INTEGER NOT NULL)"
)
_BUMP = (
    "INSERT INTO bosun_vocabulary_revision VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET "
    "revision = bosun_vocabulary_revision.revision + 1"
)
_PICKS = (
    "CREATE TABLE IF NOT EXISTS bosun_picks (term TEXT NOT NULL, pick TEXT NOT NULL, times INTEGER "
    "NOT NULL, "
    "PRIMARY KEY (term, pick))"
)
REMEMBER_AFTER = 2  # a question back answered the same way this often is offered as a taught alias


class VocabularyStore:
    """The taught words and the picks made at questions back, in the conversation store's
    database."""

    def __init__(self, turns: TurnStore) -> None:
        self.turns = turns
        if turns.unwritable is None:
            turns.transaction([(_WORDS, ()), (_REVISION, ()), (_PICKS, ())])

    def revision(self) -> int:
        rows = self._read("SELECT revision FROM bosun_vocabulary_revision WHERE id = 1")
        return int(str(rows[0][0])) if rows else 0

    def words(self) -> list[TaughtWord]:
        rows = self._read("SELECT entry FROM bosun_vocabulary ORDER BY word")
        return [TaughtWord.model_validate_json(str(r[0])) for r in rows]

    def keep(self, taught: TaughtWord) -> None:
        """Store the word (again: its new meaning replaces the old one) and move the revision."""
        self.turns.transaction(
            [
                ("DELETE FROM bosun_vocabulary WHERE word = ?", (normalize(taught.word),)),
                (
                    "INSERT INTO bosun_vocabulary VALUES (?, ?)",
                    (normalize(taught.word), taught.model_dump_json()),
                ),
                (_BUMP, ()),
            ]
        )

    def remove(self, word: str) -> bool:
        found = self._read("SELECT 1 FROM bosun_vocabulary WHERE word = ?", (normalize(word),))
        if found:
            self.turns.transaction(
                [("DELETE FROM bosun_vocabulary WHERE word = ?", (normalize(word),)), (_BUMP, ())]
            )
        return bool(found)

    def picked(self, term: str, pick: str) -> int:
        """Count one more answer `pick` to a question back about `term`; how often it has been
        given."""
        key = normalize(term)
        (_, rows) = self.turns.transaction(
            [
                (
                    "INSERT INTO bosun_picks VALUES (?, ?, 1) ON CONFLICT (term, pick) DO UPDATE "
                    "SET "
                    "times = bosun_picks.times + 1",
                    (key, pick),
                ),
                ("SELECT times FROM bosun_picks WHERE term = ? AND pick = ?", (key, pick)),
            ]
        )
        return int(str(rows[0][0]))

    def _read(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        try:
            (rows,) = self.turns.transaction([(sql, args)])
        except StoreError:
            if self.turns.unwritable is None:
                raise
            return []  # a read-only store made before taught words existed holds none
        return rows


@dataclass
class Teacher:
    """The session's taught words: checked, stored, and laid over the catalog the session started
    with."""

    store: VocabularyStore
    catalog: Catalog  # the catalog file's own words
    understanding: Understanding  # read with the catalog's own words
    words: list[TaughtWord] = field(default_factory=list)  # laid over the catalog
    reader: Understanding | None = None  # read with them
    _revision: int = -1
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.readers = ReadersWords(_rules(self.understanding).grammar)

    def current(self, context: RunContext) -> RunContext:
        """`context` with the taught words as the store now holds them (rebuilt only when they
        changed); a stored word the readers keep to themselves is left out."""
        with self._lock:
            revision = self.store.revision()
            if revision == self._revision:
                return context
            self.words = [w for w in self.store.words() if self._readers_refusal(w) is None]
            self._revision = revision
        catalog = with_taught(self.catalog, self.words)
        understanding = _reader(self.understanding, catalog, self.words)
        self.reader = understanding
        return replace(
            context,
            catalog=catalog,
            understanding=understanding,
            goals_of=goals_for(understanding, context.today()),
            audit=_rules(understanding).audit,
        )

    def proposed(
        self, word: str, means: str, kind: str | None = None, by: str = "local"
    ) -> TaughtWord:
        """The taught word that `word` means `means` (the name, field, measure, object or value it
        names)."""
        problems = shape_problems(word)
        found = [t for t in targets(self.catalog, means) if kind is None or t.kind == kind]
        several = (
            value_set(self.catalog, means, english().teaching_joiners)
            if kind in (None, "value")
            else None
        )
        found = found or ([several] if several else [])
        if not found:
            problems.append(
                f"“{means}” names nothing in the catalog: no field, measure, object, value or name"
            )
        if problems:
            raise TeachingRefused(problems)
        return self.stamped(found[0].model_copy(update={"word": word.strip()}), by)

    @staticmethod
    def stamped(taught: TaughtWord, by: str) -> TaughtWord:
        """The word with who teaches it, now."""
        return taught.model_copy(
            update={"by": by, "on": datetime.now(UTC).isoformat(timespec="seconds")}
        )

    def teach(self, taught: TaughtWord, confirmed: bool = False, admin: bool = False) -> TaughtWord:
        """Check the word as a catalog entry and store it; TeachingRefused says why not. A word that
        already means something is taught anew only by an administrator (`admin`), confirmed."""
        problems = self.check(taught)
        if problems:
            raise TeachingRefused(problems)
        meant = self.meanings(taught)
        if meant and not admin and not self.narrows(taught):
            raise TeachingRefused([_admin_only(taught, meant)], admin_only=True)
        if meant and not confirmed:
            raise TeachingRefused([_shadowing(taught, meant)], shadowing=True)
        self.store.keep(taught)
        return taught

    def check(self, taught: TaughtWord) -> list[str]:
        """What makes the word no catalog entry: its shape, its target, the readers' own words, the
        catalog it would make."""
        problems = shape_problems(taught.word) + target_problems(self.catalog, taught)
        if problems:
            return problems
        refusal = self._readers_refusal(taught)
        if refusal is not None:
            return [f"{refusal}: it cannot be taught"]
        others = [w for w in self.store.words() if normalize(w.word) != normalize(taught.word)]
        try:
            with_taught(self.catalog, [*others, taught])
        except ValueError as exc:
            return [str(exc)]
        return []

    def _readers_refusal(self, taught: TaughtWord) -> str | None:
        return self.readers.refusal(taught.word, date.today())

    def meanings(self, taught: TaughtWord) -> list[str]:
        """What the word already means, in the catalog's words and names and the taught words,
        other than what it is taught to mean."""
        rules = _rules(self.understanding)
        key = normalize(taught.word)
        meanings = [
            f"{t.kind} {t.value}" if isinstance(t.value, str) else t.kind
            for t in rules.lexicon.get(key)
        ]
        meanings += [f"the name {c.value}" for c in rules.index.names.get(key, [])]
        meanings += [
            f"{w.means()} (taught by {w.by})"
            for w in self.store.words()
            if normalize(w.word) == key and w.means() != taught.means()
        ]
        return list(dict.fromkeys(meanings))

    def narrows(self, taught: TaughtWord) -> bool:
        """Whether the word, an alias, only picks one of the several names it already names (and
        means nothing else): no meaning it had is taken from it."""
        rules = _rules(self.understanding)
        key = normalize(taught.word)
        named = {(c.entity, c.value) for c in rules.index.names.get(key, [])}
        taught_before = [w for w in self.store.words() if normalize(w.word) == key]
        return (
            taught.kind == "alias"
            and (taught.of, taught.target) in named
            and len(named) > 1
            and not rules.lexicon.get(key)
            and not taught_before
        )

    def candidates(self, word: str, limit: int = 8) -> list[TaughtWord]:
        """What a not-understood word may mean: the catalog's measures, fields, objects and values,
        the most alike first (the page offers them next to the word)."""
        best: dict[tuple[str, str | None, str], float] = {}
        for phrase, template in phrases(self.catalog):
            key = (template.kind, template.of, template.target)
            best[key] = max(best.get(key, 0.0), fuzz.WRatio(normalize(word), normalize(phrase)))
        ranked = sorted(best, key=lambda k: -best[k])[:limit]
        return [
            TaughtWord(kind=kind, word=word, target=target, of=of) for kind, of, target in ranked
        ]

    def for_turn(self, history: list[PastTurn]) -> Taught:
        """The taught words as a turn on a thread with this history reads them: F14 names those the
        question uses, and offers a pick among the options the last turn asked back about as an
        alias once it has been made often enough (never counted in an unwritable store)."""
        asked = history[-1].clarification if history else None
        if asked is not None and (not asked.term or self.store.turns.unwritable):
            asked = None
        return Taught(list(self.words), asked, self.remembered, self.read_through)

    def read_through(self, question: str, today: date) -> list[TaughtWord]:
        """The taught words the question is read through, as what they were taught to mean: a word
        inside a longer name, or a date the date reader reads, is none of them."""
        if not self.words or self.reader is None:
            return []
        try:
            spans = _rules(self.reader).spans(question, today)
        except UserError:  # a date that is none: the turn says so itself
            return []
        record = self.catalog.spec.record
        return [
            word for word in self.words if any(_read_through(span, word, record) for span in spans)
        ]

    def remembered(self, term: str, pick: str) -> TaughtWord | None:
        """The alias to offer when a question back about `term` has been answered `pick` often
        enough."""
        if self.store.picked(term, pick) < REMEMBER_AFTER:
            return None
        if any(normalize(w.word) == normalize(term) for w in self.store.words()):
            return None
        found = [t for t in targets(self.catalog, pick) if t.kind == "alias"]
        return found[0].model_copy(update={"word": term}) if found else None


def _admin_only(taught: TaughtWord, meant: list[str]) -> str:
    return (
        f"“{taught.word}” already means {', '.join(meant)}: only an administrator may teach it "
        f"anew as {taught.means()} (BOSUN_ADMIN_TOKEN over the API and MCP, or `bosun teach` on "
        "the command line)"
    )


def _shadowing(taught: TaughtWord, meant: list[str]) -> str:
    return (
        f"“{taught.word}” already means {', '.join(meant)}: teaching it as {taught.means()} would "
        "shadow that; confirm to teach it anyway"
    )


def _read_through(span: Span, word: TaughtWord, record: str) -> bool:
    """Whether the span is the taught word, read as what it was taught to mean."""
    if span.key != normalize(word.word):
        return False
    means = _TAUGHT_TAGS[word.kind]
    return any(means(tag, word, record) for tag in span.tags)


def _named(tag: Tag, word: TaughtWord) -> bool:
    candidates = tag.value.candidates if tag.kind == "name" else ()
    return any((c.entity, c.value) == (word.of, word.target) for c in candidates)


def _valued(tag: Tag, word: TaughtWord) -> bool:
    if tag.kind != "value" or tag.value[0] != word.of:
        return False
    return str(tag.value[1]).lower() in {value.lower() for value in word.values}


# per kind of taught word: whether a span's tag reads it as taught (the record's nouns are "record")
_TAUGHT_TAGS: dict[str, Callable[[Tag, TaughtWord, str], bool]] = {
    "field": lambda tag, word, _: (tag.kind, tag.value) == ("field", word.target),
    "measure": lambda tag, word, _: (tag.kind, tag.value) == ("measure", word.target),
    "object": lambda tag, word, record: (
        (tag.kind, tag.value) == ("object", word.target)
        or (tag.kind == "record" and word.target == record)
    ),
    "value": lambda tag, word, _: _valued(tag, word),
    "alias": lambda tag, word, _: _named(tag, word),
}


def _rules(understanding: Understanding) -> RulesUnderstanding:
    if isinstance(understanding, LLMUnderstanding):
        return understanding.rules
    assert isinstance(understanding, RulesUnderstanding)
    return understanding


def _reader(
    understanding: Understanding, catalog: Catalog, words: list[TaughtWord]
) -> Understanding:
    """The same backend over the catalog with taught words; the name vectors stay (taught aliases
    match exactly)."""
    rules = RulesUnderstanding(
        catalog, vectors=_rules(understanding).vectors, grammar=_rules(understanding).grammar
    )
    _taught_names_first(rules, words)
    if isinstance(understanding, LLMUnderstanding):
        return LLMUnderstanding(
            understanding.client,
            rules,
            examples=understanding.examples,
            taught={w.word: _meant(w) for w in words},
        )
    return rules


def _meant(word: TaughtWord) -> str:
    """What the word means, as a model is told: the kind and the catalog's own name."""
    if word.kind == "value":
        return f"{word.of}={' or '.join(word.values)}"
    if word.kind == "alias":
        return f"{word.of}={word.target}"
    return f"the {word.kind} {word.target}"


def _taught_names_first(rules: RulesUnderstanding, words: list[TaughtWord]) -> None:
    """A taught alias names its one name, even where the word also named others (the pick it was
    taught from)."""
    for word in words:
        key = normalize(word.word)
        named = [
            c
            for c in rules.index.names.get(key, [])
            if (c.entity, c.value) == (word.of, word.target)
        ]
        if word.kind == "alias" and named:
            rules.index.names[key] = named[:1]
