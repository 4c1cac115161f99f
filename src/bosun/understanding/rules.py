"""The rules backend: a data question's meaning, read with the grammar file and the catalog's words
only.

The tagger reads the question once into spans (dates, names, grammar and catalog phrases); names
become filters on the fields their entity targets; the composition rules (compose.py) build the
rest. A question about one business object becomes a lookup. Nothing here knows a domain or a
wording.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace
from datetime import date
from functools import cached_property

from bosun.catalog import Catalog
from bosun.catalog.schema import EntitySpec
from bosun.understanding.audit import Audit
from bosun.understanding.candidates import Reader, Words, best_reading
from bosun.understanding.compose import Composer, add_value, compose, unanswerable, unused
from bosun.understanding.continuation import Continuation
from bosun.understanding.goals import Part, definition, fields_asked, split
from bosun.understanding.grammar import QUIET, Grammar, Lexicon, build_lexicon, english
from bosun.understanding.inflections import is_plural, singular, stem
from bosun.understanding.link_groups import read_link_groups
from bosun.understanding.links import LinkWords, as_listing, marks, read_links
from bosun.understanding.meaning import Ambiguity, Meaning, ObjectLookup, ResolvedEntity
from bosun.understanding.missing import missing_measure, offer_closest
from bosun.understanding.names import (
    Candidate,
    Found,
    NameIndex,
    build_index,
    closest,
    find_names,
    normalize,
)
from bosun.understanding.picks import pick
from bosun.understanding.reading import GoalReading, PastTurn, Reading
from bosun.understanding.roles import Role, Roles, asked, in_role
from bosun.understanding.scope import opening_among
from bosun.understanding.shorthand import of_catalog
from bosun.understanding.tagger import Span, kind_at, tag
from bosun.understanding.twolists import two_lists
from bosun.understanding.vectors import NameVectors
from bosun.understanding.verbs import verbs_in_place


@dataclass
class RulesUnderstanding:
    catalog: Catalog
    # the third stage of name resolution, after exact/alias and fuzzy
    vectors: NameVectors | None = None
    grammar: Grammar = dataclasses.field(default_factory=english)
    _seen: dict[tuple[str, date, frozenset[tuple[str, str]]], Meaning] = dataclasses.field(
        default_factory=dict, repr=False, compare=False
    )
    # the last text tagged, and its spans as tagged (each reader is handed copies to mark)
    _tagged: tuple[tuple[str, date, frozenset[tuple[str, str]]], list[Span]] | None = (
        dataclasses.field(default=None, repr=False, compare=False)
    )

    @cached_property
    def index(self) -> NameIndex:
        return build_index(self.catalog)

    @cached_property
    def lexicon(self) -> Lexicon:
        return build_lexicon(self.catalog, self.grammar)

    @cached_property
    def vocabulary(self) -> set[str]:
        """Words the catalog uses for fields, measures and time: never read as names."""
        spec = self.catalog.spec
        words = {normalize(w) for f in self.catalog.record.fields.values() for w in f.synonyms}
        words |= {normalize(w) for m in spec.measures.values() for w in m.words}
        words |= {normalize(w) for ws in spec.time.fields.values() for w in ws}
        words |= {normalize(w) for e in spec.entities.values() for w in e.words}
        return words

    @cached_property
    def common_words(self) -> frozenset[str]:
        """Every single word the grammar or the catalog knows: never a short name unless in
        capitals."""
        return frozenset(p for p in self.lexicon.phrases if " " not in p)

    @cached_property
    def quiet_words(self) -> set[str]:
        """Single words that carry no content (filler, function words, neutral verbs)."""
        return {
            p
            for p, tags in self.lexicon.phrases.items()
            if " " not in p and any(t.kind in QUIET for t in tags)
        }

    # -- the contract
    # --------------------------------------------------------------------------------
    def read(self, text: str, history: list[PastTurn], today: date) -> Reading:
        """The turn's goals, read against the thread's last turns (a reply, a refinement, a
        follow-up)."""
        continued = Continuation(self).read(text, history, today)
        if continued.meaning is not None:
            goal = GoalReading(kind="data", text=continued.question, meaning=continued.meaning)
            return Reading(goals=[goal], continuation=continued.kind, note=continued.note)
        return Reading(
            goals=self.goals(continued.question, today),
            continuation=continued.kind,
            note=continued.note,
        )

    def pick(self, reply: str, options: list[str], today: date) -> tuple[str | None, str]:
        """The option a reply to a question back picks, and the rest of the reply."""
        return pick(reply, options, self, today)

    def goals(self, text: str, today: date) -> list[GoalReading]:
        """ "what's a reefer and how many reefer shipments went to Oakland?": a definition, then a
        data goal.

        A later data goal shares the constraints of the one before on the fields it does not name
        itself ("How many boxes reached Mobile in May and what was their weight?": both Mobile,
        May).
        """
        readings: list[GoalReading] = []
        previous: Meaning | None = None
        for part in self._parts(text, today):
            fields = fields_asked(part, self.grammar, self.catalog)
            terms = definition(part, self.grammar, self.quiet_words) if fields is None else None
            if fields is not None:
                readings.append(GoalReading(kind="fields", text=part.text, terms=fields))
            elif terms is not None:
                readings.append(GoalReading(kind="definition", text=part.text, terms=terms))
            else:
                pointing = any(s.has("backref") for s in part.spans)
                meaning = _shared(previous, self.analyze(part.text, today), pointing)
                readings += [
                    GoalReading(kind="data", text=part.text, meaning=m) for m in _apart(meaning)
                ]
                previous = meaning
        return readings or [GoalReading(kind="data", text=text, meaning=self.analyze(text, today))]

    def analyze(self, text: str, today: date) -> Meaning:
        """The meaning of `text`; F01 and metadata_lookup both ask, so the last few are
        remembered, each for the names it was read with (a caller's own, BOSUN_ENGINE_AUTH=caller).
        """
        callers = self.index.callers
        key = (text, today, callers.hidden() if callers else frozenset())
        if key not in self._seen:
            if len(self._seen) >= 64:
                self._seen.clear()
            spans = self.spans(text, today)
            reader = Reader(
                read=lambda variant: self._analyze(variant, today),
                judge=lambda meaning: self.audit.verdict(meaning, today),
                tag=lambda variant: self.spans(variant, today),
                said=self.grammar.phrases.repaired,
            )
            self._seen[key] = best_reading(text, spans, self.repairs, reader)
        return self._seen[key].model_copy(deep=True)

    @cached_property
    def repairs(self) -> Words:
        """The words an unknown word may be a typo of: the grammar's, the catalog's, the names'."""
        index = self.index
        known = [*self.lexicon.phrases, *index.tokens]
        short = of_catalog(self.lexicon, self.grammar)
        return Words.of(known, index.fuzzy_min_score, index.ambiguity_margin, short)

    @cached_property
    def audit(self) -> Audit:
        """The coverage audit of any reading over this catalog, tagging as this backend tags."""
        return Audit(self.catalog, self.grammar, self.spans)

    @cached_property
    def roles(self) -> Roles:
        said = {p: p in self.quiet_words for p in self.common_words}
        return Roles.of(self.catalog, said, singular)

    @cached_property
    def link_words(self) -> LinkWords:
        return LinkWords(self.catalog)

    def spans(self, text: str, today: date) -> list[Span]:
        """The text's spans, fresh to mark as used. A one-goal question is tagged once, though
        both the split into goals and the goal's reading ask for it."""
        callers = self.index.callers
        key = (text, today, callers.hidden() if callers else frozenset())
        tagged = self._tagged
        if tagged is None or tagged[0] != key:
            tagged = (key, self._tag(text, today))
            self._tagged = tagged
        return [dataclasses.replace(span) for span in tagged[1]]

    def _tag(self, text: str, today: date) -> list[Span]:
        found = find_names(
            text,
            self.index,
            skip=self.vocabulary,
            vectors=self.vectors,
            common=self.common_words,
        )
        linked = marks(text, self.link_words, found)
        return verbs_in_place(
            tag(text, today, self.lexicon, found, linked), self.grammar.verb_place
        )

    def _analyze(self, text: str, today: date) -> Meaning:
        meaning = Meaning(text=text, index=self.catalog.record.index)
        spans = self.spans(text, today)
        opening_among(spans, self.grammar.scope.opening)
        composer = Composer(self.catalog, self.grammar, today)
        read_links(spans, composer, meaning, self.link_words)
        read_link_groups(spans, composer, meaning, self.link_words)
        self._names(spans, composer, meaning)
        self._unknown_in_role(spans, meaning)
        compose(spans, meaning, composer)
        as_listing(spans, meaning, self.link_words)
        self._lookup(spans, meaning)
        unanswerable(spans, composer, meaning)
        meaning.unknown_terms = self._unknown(spans)
        unknown_words = {w for term in meaning.unknown_terms for w in term.split()}
        meaning.not_understood = [
            w for w in [*composer.said, *unused(spans)] if w not in unknown_words
        ]
        missing_measure(spans, composer, meaning)
        offer_closest(spans, composer, meaning)
        return meaning

    def _parts(self, text: str, today: date) -> list[Part]:
        """The words of each goal: two lists asked at once, else the goals `split` finds."""
        lists = two_lists(self.spans(text, today), text, self._listed_thing)
        if lists is None:
            return split(self.spans(text, today), text, self.grammar)
        return [Part(self.spans(part, today), part) for part in lists]

    def _listed_thing(self, span: Span) -> bool:
        """Things a list names: a record dimension in the plural ("carriers")."""
        fields = self.catalog.record.fields
        named = [f for f in span.values("field") if f in fields and fields[f].role == "dimension"]
        return bool(named) and is_plural(span.text.lower())

    # -- names -----------------------------------------------------------------------------------
    def _names(self, spans: list[Span], composer: Composer, meaning: Meaning) -> None:
        """ "Maersk shipments to LA": each name filters the field its entity targets (chosen by the
        cue)."""
        for i, span in enumerate(spans):
            found: Found | None = span.value("name")
            # used: read as a linked object's attribute ("ports in Korea")
            if found is None or span.used:
                continue
            span.used = True
            role = self.roles.named(spans, i)
            longer = self._said_with(spans, i)
            if longer or asked(found, role, self.index.fuzzy_min_score):
                self._ask_back(spans, _in_a_row(i, longer, role), found, role, meaning)
                continue
            found = in_role(found, role)
            if found.ambiguous and self._same_objects(found.candidates):
                # "toys": the HS heading = the category
                found = replace(found, candidates=found.candidates[:1])
            if found.ambiguous:
                options = sorted({c.value for c in found.candidates})
                meaning.ambiguities.append(
                    Ambiguity(term=found.text, kind="entity", options=options)
                )
                continue
            self._resolved(spans, i, found, composer, meaning)

    @staticmethod
    def _said_with(spans: list[Span], i: int) -> list[int]:
        """The words right after a name that are written like a name and name nothing ("Matsons
        Market"): the name said is longer than the name found."""
        after = i + 1
        while after < len(spans) and _unread_name(spans[after]):
            after += 1
        return list(range(i + 1, after))

    def _ask_back(
        self, spans: list[Span], said: list[int], found: Found, role: Role | None, meaning: Meaning
    ) -> None:
        """ "the supplier Hapag Loyd", "Matsons Market": a name only loosely like the names it
        matched, like names of another kind than its role, or longer than its name, is asked back
        with those names and the role's own closest. The term asked about holds the role's words,
        so that the option picked replaces them too ("TEU by the HAPAG-LLOYD")."""
        name = [j for j in said if role is None or j not in role.spans]
        options = {c.value for c in found.candidates}
        options |= self._offered(_said(spans, name, meaning.text), role)
        self._asked(spans, said, options, meaning)

    @staticmethod
    def _asked(spans: list[Span], said: list[int], options: set[str], meaning: Meaning) -> None:
        """The words `said` asked back with `options`: an entity ambiguity, the words read."""
        for j in said:
            spans[j].used = True
        term = _said(spans, said, meaning.text)
        meaning.ambiguities.append(Ambiguity(term=term, kind="entity", options=sorted(options)))

    def _offered(self, term: str, role: Role | None, everyone: bool = False) -> set[str]:
        """The names close enough to `term` to offer (the catalog's offer_min_score): of the role's
        kinds, and of every kind when `everyone`."""
        index = self.index.seen()
        kinds: list[frozenset[str] | None] = [role.entities] if role else []
        if everyone:
            kinds.append(None)  # every kind
        hits = [closest(normalize(term), index, index.offer_min_score, kind) for kind in kinds]
        return {c.value for hit in hits if hit for c in hit[0]}

    def _unknown_in_role(self, spans: list[Span], meaning: Meaning) -> None:
        """ "the shipper Cosko's TEU": words written like a name where a role says a name stands,
        that match no name, are asked back with the names closest to them of any kind, and of the
        role's own kinds (at least the catalog's offer_min_score alike); else they stay unknown."""
        for i, span in enumerate(spans):
            if not _unread_name(span) or (i > 0 and _unread_name(spans[i - 1])):
                continue
            role = self.roles.named(spans, i)
            if role is None:
                continue
            name = [i, *self._said_with(spans, i)]
            options = self._offered(_said(spans, name, meaning.text), role, everyone=True)
            if options:
                self._asked(spans, _in_a_row(i, name[1:], role), options, meaning)

    def _resolved(
        self, spans: list[Span], i: int, found: Found, composer: Composer, meaning: Meaning
    ) -> None:
        candidate = found.candidates[0]
        after = self._cue_after(spans, i, candidate)
        cue = [
            *" ".join(s.key for s in spans[max(0, i - 2) : i]).split()[-2:],
            *([spans[after].key] if after else []),
        ]
        target = self._target(candidate, cue)
        if target is None:
            return
        if after is not None:
            spans[after].used = True
        self._other_targets(found.text, candidate, target[0], cue, meaning)
        field, value = target
        self.resolve(meaning, found.text, candidate, (field, value), found.score)
        add_value(meaning, field, [value], found.text, composer.negated(spans, i))
        self._kind_words(spans, i, field, candidate.entity)

    def resolve(
        self,
        meaning: Meaning,
        term: str,
        candidate: Candidate,
        target: tuple[str, str],
        score: float,
    ) -> None:
        """The name `term`, read as `candidate` on the record field and value of `target`, in the
        meaning's entities; a name read by a loose match is an assumption the answer states."""
        obj, key = self._object_key(candidate)
        name = candidate.value if candidate.value != target[1] else None
        meaning.entities.append(
            ResolvedEntity(
                term=term,
                entity=candidate.entity,
                value=target[1],
                field=target[0],
                method=candidate.method,
                score=score,
                object=obj,
                key=key,
                name=name,
            )
        )
        if candidate.method in ("partial", "fuzzy", "vector") and normalize(term) != normalize(
            candidate.value
        ):
            meaning.assumptions.append(
                f"“{term}” read as {candidate.value} (closest {candidate.entity} "
                f"name, {candidate.method} match {score:.0f} %)"
            )

    @staticmethod
    def _kind_words(spans: list[Span], i: int, field: str, entity: str) -> None:
        """ "the carrier Maersk", "port of Savannah", "carriers other than Maersk": a word naming
        the name's kind, next to it (a small word or a negation between), is read with it; not one a
        grouping cue asks ("by store except online")."""
        near = [i - 1, i + 1, *([i - 2] if RulesUnderstanding._joined_before(spans, i) else [])]
        for j in near:
            if 0 <= j < len(spans) and RulesUnderstanding._names_kind(spans[j], field, entity):
                spans[j].used = True
                return

    @staticmethod
    def _joined_before(spans: list[Span], i: int) -> bool:
        """A small word, or a negation not after a grouping cue ("by store except online"), just
        before the name at i: the name's kind may stand one word further ("port of Savannah")."""
        if i < 2:
            return False
        word = spans[i - 1]
        grouped = kind_at(spans, i - 3, "group_cue")
        return Composer.glue(word) or (word.has("negation") and not grouped)

    @staticmethod
    def _names_kind(span: Span, field: str, entity: str) -> bool:
        """The span names a name's field ("carrier") or its entity ("port")."""
        return field in span.values("field") or entity in span.values("entity_word")

    def fields_named(self, candidate: Candidate) -> set[str]:
        """The record fields a name can filter, given its reference row (a consignee company:
        consignee_name)."""
        spec = self.catalog.spec.entities[candidate.entity]
        row = candidate.attributes
        return {
            t.field for t in spec.targets if all(str(row.get(k)) == v for k, v in t.when.items())
        }

    def _other_targets(
        self, term: str, candidate: Candidate, field: str, cue: list[str], meaning: Meaning
    ) -> None:
        """A name two fields hold alike ("Werder Bremen": home team or away team) filters the field
        a cue chose, else the first; where neither a cue nor the catalog (a target's `when` on the
        name's row) chose, the other fields it could be are said beside the answer."""
        targets = self.catalog.spec.entities[candidate.entity].targets
        alike = {t.field for t in targets if not t.when}
        cued = any(c in cue for t in targets if t.field == field for c in t.cues)
        if field in alike and len(alike) > 1 and not cued:
            options = [field, *sorted(alike - {field})]
            meaning.ambiguities.append(
                Ambiguity(term=term, kind="field", options=options, default=field)
            )

    def _cue_after(self, spans: list[Span], i: int, candidate: Candidate) -> int | None:
        """A target's cue said after the name where none is before it ("Dortmund played away",
        "Hamburger SV at home"): a word no other rule reads (it has no tag), within three spans,
        before any other name."""
        cues = {c for t in self.catalog.spec.entities[candidate.entity].targets for c in t.cues}
        before = " ".join(s.key for s in spans[max(0, i - 2) : i]).split()[-2:]
        if cues & set(before):
            return None
        for j in range(i + 1, min(len(spans), i + 4)):
            if spans[j].has("name"):
                return None
            if not spans[j].tags and not spans[j].used and spans[j].key in cues:
                return j
        return None

    def _target(self, candidate: Candidate, cue: list[str]) -> tuple[str, str] | None:
        spec: EntitySpec = self.catalog.spec.entities[candidate.entity]
        row = candidate.attributes
        usable = [
            t for t in spec.targets if all(str(row.get(k)) == v for k, v in t.when.items())
        ] or spec.targets
        chosen = next((t for t in usable if any(c in cue for c in t.cues)), usable[0])
        value = row.get(chosen.value_from) if chosen.value_from else candidate.value
        return (chosen.field, str(value)) if value is not None else None

    @cached_property
    def ids_by_name(self) -> dict[str, dict[str, set[str]]]:
        """entity → name → ids of the objects so named (one id: the name names one object)."""
        ids: dict[str, dict[str, set[str]]] = {}
        for entity, spec in self.catalog.spec.entities.items():
            if spec.object and spec.name_field:
                id_field = self.catalog.object(spec.object).id_field or spec.name_field
                names = ids.setdefault(entity, {})
                for row in self.catalog.reference_rows(spec.object):
                    names.setdefault(row[spec.name_field], set()).add(row[id_field])
        return ids

    def _same_objects(self, candidates: tuple[Candidate, ...]) -> bool:
        """Names of different kinds that pick out exactly the same reference rows are not a real
        choice."""
        picked = set()
        for c in candidates:
            ids = self.ids_by_name.get(c.entity, {}).get(c.value)
            if not ids:
                return False
            picked.add((self.catalog.spec.entities[c.entity].object, frozenset(ids)))
        return len(picked) == 1

    def _object_key(self, candidate: Candidate) -> tuple[str | None, str | None]:
        spec = self.catalog.spec.entities[candidate.entity]
        ids = self.ids_by_name.get(candidate.entity, {}).get(candidate.value, set())
        return spec.object, (next(iter(ids)) if len(ids) == 1 else None)

    def _unknown(self, spans: list[Span]) -> list[str]:
        """Words written like names that name nothing the catalog knows: "Foobar Industries"."""
        unknown: list[str] = []
        run: list[Span] = []
        for span in [*spans, None]:
            if (
                span is not None
                and not span.tags
                and not span.used
                and span.first > 0
                and _name_like(span.text)
            ):
                run.append(span)
                continue
            if run:
                unknown.append(" ".join(s.text for s in run))
                run = []
        return unknown

    # -- one business object -----------------------------------------------------------------------
    def _lookup(self, spans: list[Span], meaning: Meaning) -> None:
        """A question about one object's attributes ("what flag does X fly?"), not about the
        records."""
        if self._about_data(meaning):
            return
        found = self._named_object(meaning) if meaning.entities else self._id_lookup(spans)
        if found is None:
            return
        rest = [
            s for s in spans if normalize(s.text) != normalize(found.term) and not s.has("name")
        ]
        fields, said = self._attributes(found.object, rest)
        if self._about_records(meaning, spans, rest, said):
            return
        asks = any(s.has("about", "wh", "who") for s in spans)
        if fields or asks or not meaning.entities:
            meaning.lookup = found.model_copy(update={"fields": fields})
            meaning.measures, meaning.group_by = [], []
            for span in spans:  # "who operates X": the question word is read with the lookup
                span.read_if("who")
            for span in rest:
                span.used = span.used or span.key in said or bool(set(span.key.split()) & said)

    def _about_records(
        self, meaning: Meaning, spans: list[Span], rest: list[Span], said: set[str]
    ) -> bool:
        """The question asks about the records, not the object: "shipments of X", "how many …
        X", "which carriers serve X" (a grouping of records; "which carrier operates X" asks X's
        carrier). `rest`: the words but the name's; `said`: the words that ask attributes."""
        if meaning.entities and any(s.has("record") for s in rest):
            return True
        measured = [
            s for s in rest if (self._field_measure(s) or s.has("agg")) and s.key not in said
        ]
        if meaning.measures and measured:
            return True
        return not self._grouped_by_attribute(meaning, spans, said)

    @staticmethod
    def _about_data(meaning: Meaning) -> bool:
        """A reading shaped as a question about the data, not one object: dated, ranked,
        grouped, sorted, compared, filtered twice, or with a name left ambiguous."""
        shaped = [meaning.time, meaning.periods, meaning.top_n, meaning.interval, meaning.sort]
        ambiguous = any(a.kind == "entity" for a in meaning.ambiguities)
        return any([*shaped, meaning.compare, len(meaning.conditions) > 1, ambiguous])

    def _field_measure(self, span: Span) -> bool:
        """A span naming a measure over a field ("TEU", "weight") or a ratio measure ("hold rate"),
        not the count ("how many")."""
        measures = [self.catalog.spec.measures[m] for m in span.values("measure")]
        return any(m.field or m.share for m in measures)

    def _grouped_by_attribute(self, meaning: Meaning, spans: list[Span], said: set[str]) -> bool:
        """Every grouping was named by a word that asks one of the object's attributes ("what state
        is X in")."""
        for field in meaning.group_by:
            named = [s.key for s in spans if field in s.values("field")]
            if not named or any(key not in said for key in named):
                return False
        return True

    def _attributes(self, name: str, rest: list[Span]) -> tuple[list[str], set[str]]:
        """The fields of object `name` the question asks for, and the words that asked them."""
        obj = self.catalog.object(name)
        words = {w for s in rest for w in s.key.split()} | {s.key for s in rest}
        padded = f" {' '.join(s.key for s in rest)} "
        able = any(f" {normalize(w)} " in padded for w in self.grammar.ability)
        stems = {stem(w) for w in words}
        fields: list[str] = []
        said: set[str] = set()
        for field, spec in obj.fields.items():
            if field == obj.id_field:
                continue
            names = {normalize(w) for w in [*spec.synonyms, field.replace("_", " ")]}
            if able and spec.unit:
                names.add(normalize(spec.unit))  # "how many TEU can X carry": its capacity in TEU
            hits = {n for n in names if f" {n} " in padded} or {
                n for n in names if " " not in n and stem(n) in stems
            }
            if hits:
                fields.append(field)
                said |= hits | {w for h in hits for w in h.split()}
                said |= {w for w in words if stem(w) in {stem(h) for h in hits}}
                said |= {normalize(spec.unit)} if spec.unit else set()
                # "what year was X built": "year" of built_year
                said |= set(field.split("_")) & words
        return fields, said

    @staticmethod
    def _named_object(meaning: Meaning) -> ObjectLookup | None:
        """The one object the question names, when it names one and that name identifies one row."""
        entity = meaning.entities[0]
        if len(meaning.entities) > 1 or entity.object is None or entity.key is None:
            return None
        return ObjectLookup(object=entity.object, key=entity.key, term=entity.term)

    def _id_lookup(self, spans: list[Span]) -> ObjectLookup | None:
        """An object named by its kind and id: "bill of lading MAEU1234567890"."""
        for i, span in enumerate(spans):
            kinds = span.values("object") + (
                [self.catalog.spec.record] if span.has("record") else []
            )
            for name in kinds:
                if not self.catalog.object(name).id_field:
                    continue
                code = _code_after(spans, i)
                if code is not None:
                    code.used = span.used = True
                    return ObjectLookup(object=name, key=code.text, term=code.text)
        return None


def _apart(meaning: Meaning) -> list[Meaning]:
    """ "Show X's shipments and their total weight": the records (or the first measures), then the
    others."""
    if not meaning.beside:
        return [meaning]
    main = [m for m in meaning.measures if m.name not in meaning.beside]
    first = meaning.model_copy(
        update={"measures": main, "beside": [], "intent_type": "aggregation" if main else "search"}
    )
    second = meaning.model_copy(
        update={
            "measures": [m for m in meaning.measures if m.name in meaning.beside],
            "beside": [],
            "intent_type": "aggregation",
        }
    )
    return [first, second]


def _shared(previous: Meaning | None, meaning: Meaning, pointing: bool) -> Meaning:
    """The constraints of the goal before on the fields this one leaves open, and its time if it has
    none; its measures too when this one points back at it without a measure of its own ("how much
    of that")."""
    if previous is None or meaning.lookup is not None:
        return meaning
    own = {c.field for c in meaning.conditions}
    inherited = [c.model_copy() for c in previous.conditions if c.field not in own]
    entities = [e for e in previous.entities if e.field not in own]
    # "… and break them down by carrier"
    measures = meaning.measures or (previous.measures if pointing else [])
    return meaning.model_copy(
        update={
            "conditions": [*meaning.conditions, *inherited],
            "measures": measures,
            "entities": [*meaning.entities, *entities],
            "intent_type": "aggregation" if measures else meaning.intent_type,
            "time": meaning.time or previous.time,
        }
    )


def _in_a_row(i: int, longer: list[int], role: Role | None) -> list[int]:
    """The spans of a name at `i`, the name-like words after it and its role's words, in a row."""
    said = [i, *longer, *(role.spans if role else ())]
    return list(range(min(said), max(said) + 1))


def _said(spans: list[Span], said: list[int], text: str) -> str:
    """The words of the question that the spans `said` (in a row) cover."""
    return text[spans[said[0]].start : spans[said[-1]].end]


def _unread_name(span: Span) -> bool:
    """A word written like a name that nothing read: no tag, not used, not the first word."""
    return not span.tags and not span.used and span.first > 0 and _name_like(span.text)


def _name_like(text: str) -> bool:
    """Written like a name: a capital first letter ("Foobar"), but not a short all-caps word
    ("LA")."""
    return text[:1].isupper() and (not text.isupper() or len(text) > 3)


def _code_after(spans: list[Span], at: int) -> Span | None:
    """The identifier written within three words after a kind of object: not a number after a
    bound or a measure verb, nor one with a unit ("diamonds over 10000 dollars", "shipments
    weighing 12000 kg", "tracks that cost 10000" are amounts)."""
    for k in range(at + 1, min(len(spans), at + 4)):
        amount = _amount_at(spans, k)
        if _code_like(spans[k].text) and not amount:
            return spans[k]
    return None


def _amount_at(spans: list[Span], k: int) -> bool:
    before = spans[k - 1].has("threshold") or spans[k - 1].has("value_verb")
    return before or (k + 1 < len(spans) and spans[k + 1].has("unit"))


def _code_like(text: str) -> bool:
    """An identifier as written: letters and digits, at least five, with a digit
    ("COSU0004398618")."""
    return len(text) >= 5 and any(ch.isdigit() for ch in text) and text.replace("-", "").isalnum()
