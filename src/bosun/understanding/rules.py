"""The rules backend: a data question's meaning, read with the catalog's words only.

Names become filters on the fields their entity targets, field vocabularies become filters, time
words a range on the date field their verbs select, measure words an aggregation, "by/per/each X" a
grouping, "top N"/"most" a ranking, "A vs B" a comparison. Nothing here knows a domain.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, replace
from datetime import date
from functools import cached_property
from importlib import resources

from bosun.catalog import Catalog
from bosun.catalog.schema import EntitySpec
from bosun.understanding.filters import find_thresholds, negated
from bosun.understanding.meaning import (
    Ambiguity,
    Condition,
    Meaning,
    Measure,
    ObjectLookup,
    ResolvedEntity,
    TimeFilter,
)
from bosun.understanding.names import Candidate, Found, NameIndex, build_index, find_names, normalize
from bosun.understanding.timewords import find_time_range
from bosun.understanding.vectors import NameVectors

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec",
           "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_NUMBER = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10, "twenty": 20}
_INTERVALS = {"daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter", "yearly": "year",
              "annual": "year"}
_GROUP_CUES = r"(?:by|per|for each|each|every|across)"
_RANK_UP = r"(?:top|most|biggest|largest|highest|longest|heaviest|busiest|best)"
_PHRASE_END = r"(?= in | from | to | into | for | last | this | and |\?| $)"
_RANK_DOWN = r"(?:bottom|least|fewest|smallest|lowest|shortest|lightest)"
_ABOUT = re.compile(r"\b(?:tell me about|details?|info|information|describe|profile)\b|"
                    r"^\s*(?:what|which|who|where|when|how)\b", re.I)  # a question about the one object named
_ORDINAL = {"next": 2, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
_PAGE = re.compile(rf"\bpage (\d+)\b|\b({'|'.join(_ORDINAL)}) page\b")
_CODE = r"(?:(?:number|no\.?|#)\s*)?([A-Za-z0-9][A-Za-z0-9-]{4,})\b"


@dataclass
class RulesUnderstanding:
    catalog: Catalog
    vectors: NameVectors | None = None  # the third stage of name resolution, after exact/alias and fuzzy
    _seen: dict[tuple[str, date], Meaning] = dataclasses.field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def index(self) -> NameIndex:
        return build_index(self.catalog)

    @cached_property
    def vocabulary(self) -> set[str]:
        """Words the catalog uses for fields, measures and time: never read as names."""
        spec = self.catalog.spec
        words = {normalize(w) for f in self.catalog.record.fields.values() for w in f.synonyms}
        words |= {normalize(w) for m in spec.measures.values() for w in m.words}
        words |= {normalize(w) for ws in spec.time.fields.values() for w in ws}
        words |= {normalize(w) for e in spec.entities.values() for w in e.words}
        return words

    def analyze(self, text: str, today: date) -> Meaning:
        """The meaning of `text`; F01 and metadata_lookup both ask, so the last few are remembered."""
        key = (text, today)
        if key not in self._seen:
            if len(self._seen) >= 64:
                self._seen.clear()
            self._seen[key] = self._analyze(text, today)
        return self._seen[key].model_copy(deep=True)

    def _analyze(self, text: str, today: date) -> Meaning:
        record = self.catalog.record
        meaning = Meaning(text=text, index=record.index)
        lowered = f" {normalize(text)} "
        self._names(text, meaning)
        lowered = self._thresholds(text, lowered, meaning)
        lowered = self._values(lowered, meaning)
        self._time(text, lowered, today, meaning)
        self._measures(lowered, meaning)
        self._grouping(lowered, meaning)
        self._ranking(lowered, meaning)
        self._records_or_count(lowered, meaning)
        self._distinct(lowered, meaning)
        self._lookup(text, lowered, meaning)
        page = _PAGE.search(lowered)
        if page:
            meaning.page = max(1, int(page.group(1)) if page.group(1) else _ORDINAL[page.group(2)])
        if meaning.compare and not meaning.group_by:  # "A vs B": one row per compared value
            meaning.group_by.append(meaning.compare[0])
        if meaning.compare and not meaning.measures:
            self._default_measure(meaning)
        meaning.unknown_terms = [*meaning.unknown_terms, *self._unknown(text, meaning)]
        ignored = self._ignored(text, meaning)
        if ignored and not meaning.unknown_terms:
            meaning.assumptions.insert(0, f"not understood, so not used: {', '.join(f'“{w}”' for w in ignored)}")
        meaning.intent_type = "aggregation" if (meaning.measures or meaning.group_by or meaning.interval) else "search"
        return meaning

    # -- names -----------------------------------------------------------------------------------
    def _names(self, text: str, meaning: Meaning) -> None:
        for found in find_names(text, self.index, skip=self.vocabulary, vectors=self.vectors):
            if found.ambiguous and self._same_objects(found.candidates):
                found = replace(found, candidates=found.candidates[:1])  # "toys": the HS heading = the category
            if found.ambiguous:
                options = sorted({c.value for c in found.candidates})
                meaning.ambiguities.append(Ambiguity(term=found.text, kind="entity", options=options))
                continue
            candidate = found.candidates[0]
            target = self._target(candidate, text[:found.start])
            if target is None:
                continue
            field, value = target
            obj, key = self._object_key(candidate)
            meaning.entities.append(ResolvedEntity(term=found.text, entity=candidate.entity, value=value,
                                                   field=field, method=candidate.method, score=found.score,
                                                   object=obj, key=key))
            _add_condition(meaning, field, value, found, negated(text[:found.start], self.record_nouns))
            if candidate.method in ("fuzzy", "vector") and normalize(found.text) != normalize(candidate.value):
                meaning.assumptions.append(f"“{found.text}” read as {candidate.value} (closest {candidate.entity} "
                                           f"name, {candidate.method} match {found.score:.0f} %)")

    def _target(self, candidate: Candidate, before: str) -> tuple[str, str] | None:
        spec: EntitySpec = self.catalog.spec.entities[candidate.entity]
        row = candidate.attributes
        usable = [t for t in spec.targets if all(str(row.get(k)) == v for k, v in t.when.items())] or spec.targets
        cue = normalize(before).split()[-2:]
        chosen = next((t for t in usable if any(c in cue for c in t.cues)), usable[0])
        value = row.get(chosen.value_from) if chosen.value_from else candidate.value
        return (chosen.field, str(value)) if value is not None else None

    @cached_property
    def record_nouns(self) -> frozenset[str]:
        return frozenset(w for s in self.catalog.record.synonyms for w in normalize(s).split())

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
        """Names of different kinds that pick out exactly the same reference rows are not a real choice."""
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

    # -- one business object -----------------------------------------------------------------------
    def _lookup(self, text: str, lowered: str, meaning: Meaning) -> None:
        """A question about one object's attributes ("what flag does X fly?"), not about the records."""
        if (any(a.kind == "entity" for a in meaning.ambiguities) or meaning.time or meaning.top_n
                or meaning.interval or meaning.sort or meaning.compare or len(meaning.conditions) > 1):
            return
        found = self._named_object(meaning) if meaning.entities else self._id_lookup(text)
        if found is None:
            return
        rest = lowered.replace(f" {normalize(found.term)} ", " _ ")
        fields, rest = self._attributes(found.object, rest)
        if (meaning.entities and self._names_records(rest)) or (meaning.measures and self._measured(rest)):
            return  # "shipments of X", "how many … X": about the records, not the object
        if not set(meaning.group_by) <= set(fields):
            return  # "which carriers serve X": a grouping of records; "which carrier operates X": X's carrier
        if fields or _ABOUT.search(text) or not meaning.entities:
            meaning.lookup = found.model_copy(update={"fields": fields})
            meaning.measures, meaning.group_by = [], []

    def _attributes(self, name: str, lowered: str) -> tuple[list[str], str]:
        """The fields of object `name` the text asks for, and the text with their words blanked."""
        obj = self.catalog.object(name)
        fields = []
        for field, spec in obj.fields.items():
            words = sorted({normalize(w) for w in [*spec.synonyms, field.replace("_", " ")]}, key=len, reverse=True)
            hits = [w for w in words if field != obj.id_field and f" {w} " in lowered]
            if not hits and field != obj.id_field:  # "flagged" asks the flag
                stems = {_stem(s) for s in words if " " not in s}
                hits = [w for w in lowered.split() if _stem(w) in stems]
            for word in [*hits, normalize(spec.unit or "")] if hits else []:  # "capacity … in TEU": the unit too
                lowered = lowered.replace(f" {word} ", " _ ")
            if hits:
                fields.append(field)
        return fields, lowered

    def _measured(self, lowered: str) -> bool:
        probe = Meaning(text=lowered, index=self.catalog.record.index)
        self._measures(lowered, probe)
        self._records_or_count(lowered, probe)
        return bool(probe.measures)

    @staticmethod
    def _named_object(meaning: Meaning) -> ObjectLookup | None:
        """The one object the question names, when it names one and that name identifies one row."""
        entity = meaning.entities[0]
        if len(meaning.entities) > 1 or entity.object is None or entity.key is None:
            return None
        return ObjectLookup(object=entity.object, key=entity.key, term=entity.term)

    def _id_lookup(self, text: str) -> ObjectLookup | None:
        """An object named by its kind and id: "bill of lading MAEU1234567890"."""
        for name, obj in self.catalog.spec.objects.items():
            for word in sorted(obj.synonyms, key=len, reverse=True) if obj.id_field else []:
                match = re.search(rf"\b{re.escape(word)}\s+{_CODE}", text, re.I)
                if match and any(c.isdigit() for c in match.group(1)):
                    return ObjectLookup(object=name, key=match.group(1), term=match.group(1))
        return None

    def _names_records(self, lowered: str) -> bool:
        return any(f" {normalize(s)} " in lowered for s in self.catalog.record.synonyms)

    # -- field vocabularies ------------------------------------------------------------------------
    def _values(self, lowered: str, meaning: Meaning) -> str:
        """Filters from field vocabularies, longest words first; a word several values share means any of them
        ("reefers": 20RF or 40RF). The words are then blanked so nothing reads them twice."""
        for field, spec in self.catalog.record.fields.items():
            values_of: dict[str, list[str | bool]] = {}
            for value, words in spec.values.items():
                for word in words:
                    typed: str | bool = (value == "true") if spec.type == "boolean" else value
                    values_of.setdefault(normalize(word), []).append(typed)
            for word in sorted(values_of, key=len, reverse=True):
                if f" {word} " in lowered:
                    before = lowered[:lowered.index(f" {word} ") + 1]
                    meaning.conditions.append(Condition(field=field, values=list(dict.fromkeys(values_of[word])),
                                                        source=word, negate=negated(before, self.record_nouns)))
                    lowered = lowered.replace(f" {word} ", " _ ")
        return lowered

    def _thresholds(self, text: str, lowered: str, meaning: Meaning) -> str:
        """Numeric thresholds become range filters; their words are blanked ("20 tons" is not a measure)."""
        found, unknown = find_thresholds(text, self.catalog)
        for threshold in found:
            meaning.conditions.append(threshold.condition)
            lowered = lowered.replace(f" {normalize(threshold.phrase)} ", " _ ")
        meaning.unknown_terms += unknown
        return lowered

    # -- time --------------------------------------------------------------------------------------
    def _time(self, text: str, lowered: str, today: date, meaning: Meaning) -> None:
        found = find_time_range(text, today)
        if found is None:
            return
        spec = self.catalog.spec.time
        at = {f: min((lowered.find(f" {normalize(w)} ") for w in words if f" {normalize(w)} " in lowered), default=-1)
              for f, words in spec.fields.items()}
        named = sorted((f for f, i in at.items() if i >= 0), key=lambda f: at[f])  # the first date word said
        field = named[0] if named else spec.default_field
        meaning.time = TimeFilter(field=field, start=found.start, end=found.end, text=found.text)
        others = [f for f in spec.fields if f != field] if not named else named[1:]
        if others:  # no date word, or several: the default (or the first named) is assumed, and said
            meaning.ambiguities.append(Ambiguity(term=found.text, kind="field", options=[field, *others],
                                                 default=field))

    # -- measures, grouping, ranking -----------------------------------------------------------------
    def _measures(self, lowered: str, meaning: Meaning) -> None:
        spec = self.catalog.spec
        hits = sorted(((lowered.find(f" {normalize(w)} "), len(w), name)
                       for name, m in spec.measures.items() for w in m.words if f" {normalize(w)} " in lowered),
                      key=lambda h: (h[0], -h[1]))
        hits = self._measure_ambiguities(lowered, hits, meaning)
        seen: set[str] = set()
        nouns = {normalize(s) for s in self.catalog.record.synonyms}
        default = spec.measures[spec.defaults.measure]
        others = {normalize(w) for n, m in spec.measures.items() if n != spec.defaults.measure for w in m.words}
        counting = any(f" {normalize(w)} " in lowered and not _followed_by(lowered, normalize(w), others)
                       for w in default.words if normalize(w) not in nouns)  # "how many TEU" asks TEU, not a count
        for position, _, name in hits:
            m = spec.measures[name]
            agg = m.agg
            window = lowered[max(0, position - 20):position]
            if m.field and re.search(r"\b(?:average|avg|mean)\b", window):
                agg = "avg"
            key = f"{agg}:{m.field}"
            others = {n for _, _, n in hits if n != spec.defaults.measure}
            if key in seen or (name == spec.defaults.measure and others and not counting):
                continue
            seen.add(key)
            label = m.label if agg == m.agg else f"average {m.label}"
            meaning.measures.append(Measure(name=name, agg=agg, field=m.field, label=label, unit=m.unit))
            if m.assumption:
                meaning.assumptions.append(m.assumption)

    def _measure_ambiguities(self, lowered: str, hits: list[tuple[int, int, str]],
                             meaning: Meaning) -> list[tuple[int, int, str]]:
        """One word naming measures over different fields: the default (or the first) is kept, and said."""
        spec = self.catalog.spec
        spans: dict[tuple[int, int], list[str]] = {}
        for position, size, name in hits:
            spans.setdefault((position, size), []).append(name)
        for (position, size), names in spans.items():
            if len({spec.measures[n].field for n in names}) > 1:
                chosen = spec.defaults.measure if spec.defaults.measure in names else names[0]
                term = lowered[position:position + size + 1].strip()
                meaning.ambiguities.append(Ambiguity(term=term, kind="measure", options=names, default=chosen))
                hits = [h for h in hits if (h[0], h[1]) != (position, size) or h[2] == chosen]
        return hits

    def _fields_of(self, word: str) -> list[str]:
        key = normalize(word)
        return [name for name, spec in self.catalog.record.fields.items()
                if spec.role in ("dimension", "date") and key in {normalize(s) for s in spec.synonyms}]

    def _grouping(self, lowered: str, meaning: Meaning) -> None:
        for word, interval in _INTERVALS.items():
            if f" {word} " in lowered:
                meaning.interval = interval  # type: ignore[assignment]
        cue = rf"(?= (?:{_GROUP_CUES}) (?:the )?(?:(day|week|month|quarter|year)|([a-z. ]+?)){_PHRASE_END})"
        for found in re.finditer(cue, lowered):  # "TEU handled by Long Beach per quarter": the second cue groups
            if found.group(1):
                meaning.interval = found.group(1)  # type: ignore[assignment]
                break
            field = self._longest_field(found.group(2), meaning)
            if field:
                meaning.group_by.append(field)
                break
        which = re.search(rf" (?:which|what)(?: \d+| {'| '.join(_NUMBER)})? ([a-z.]+(?: [a-z.]+)?)", lowered)
        ranked = re.search(rf" (?:{_RANK_UP}|{_RANK_DOWN})(?: \d+| {'| '.join(_NUMBER)})? ([a-z. ]+?)(?= by | to | in |"
                           rf" into | from | of | for | last | this | and |\?| $)", lowered)
        for match in (which, ranked):
            field = self._longest_field(match.group(1), meaning) if match else None
            if field and field not in meaning.group_by:
                meaning.group_by.append(field)
        if meaning.interval and not meaning.group_by and meaning.time is None:
            meaning.intent_type = "aggregation"

    def _longest_field(self, phrase: str, meaning: Meaning) -> str | None:
        """The field the longest synonym in `phrase` names; several fields → the first, and an ambiguity."""
        words = phrase.split()
        for size in range(len(words), 0, -1):
            for i in range(len(words) - size + 1):
                term = " ".join(words[i:i + size])
                fields = self._fields_of(term)
                if len(fields) > 1 and all(a.term != term for a in meaning.ambiguities):
                    meaning.ambiguities.append(Ambiguity(term=term, kind="field", options=fields, default=fields[0]))
                if fields:
                    return fields[0]
        return None

    def _ranking(self, lowered: str, meaning: Meaning) -> None:
        numbers = "|".join(_NUMBER)
        top = re.search(rf" (?:({_RANK_UP})|({_RANK_DOWN}))(?: (\d+|{numbers}))?\b", lowered)
        self._record_sort(lowered, meaning)
        if top:
            count = top.group(3)
            meaning.top_n = (int(count) if count.isdigit() else _NUMBER[count]) if count else None
            meaning.order = "asc" if top.group(2) else "desc"
            if meaning.top_n is None:
                which = re.search(rf" (?:which|what)(?: (\d+|{'|'.join(_NUMBER)}))? ", lowered)  # "which 3 …"
                counted = which.group(1) if which else None
                noun = re.search(r" (?:which|what)(?: \d+)? ([a-z]+) ", lowered)
                plural = bool(noun and noun.group(1).endswith("s") and self._fields_of(noun.group(1))
                              and self._fields_of(noun.group(1)[:-1]))  # "which vessels …": several
                meaning.top_n = (int(counted) if counted.isdigit() else _NUMBER[counted]) if counted else (
                    1 if which and not plural else self.catalog.spec.defaults.top_n)
        if meaning.sort and not meaning.group_by:
            meaning.measures = []  # "the heaviest 5 shipments": records sorted, not counted
        elif meaning.top_n and meaning.group_by and (not meaning.measures or _extra_columns(lowered)):
            self._default_measure(meaning)
            meaning.measures.insert(0, meaning.measures.pop())  # "top 5 shippers and their transit times"

    def _default_measure(self, meaning: Meaning) -> None:
        default = self.catalog.spec.measures[self.catalog.spec.defaults.measure]
        meaning.measures.append(Measure(name=self.catalog.spec.defaults.measure, agg=default.agg,
                                        field=default.field, label=default.label))

    def _ignored(self, text: str, meaning: Meaning) -> list[str]:
        """Words that no part of the meaning accounts for ("sneakers" when no name or value says sneakers)."""
        said = [normalize(e.term) for e in meaning.entities] + [normalize(c.source) for c in meaning.conditions]
        said += [normalize(a.term) for a in meaning.ambiguities]
        said += [normalize(meaning.time.text)] if meaning.time else []
        said += [normalize(meaning.lookup.term)] if meaning.lookup else []
        known = {w for phrase in said for w in phrase.split()} | self.vocabulary_words | _ENGLISH | _OWN_WORDS
        words = [w for w in normalize(text).split() if not w.isdigit() and len(w) > 2]
        return list(dict.fromkeys(w for w in words if w not in known and _stem(w) not in known))

    def _unknown(self, text: str, meaning: Meaning) -> list[str]:
        """Words written like names that name nothing the catalog knows: "Foobar Industries"."""
        known = {normalize(e.term) for e in meaning.entities} | {normalize(a.term) for a in meaning.ambiguities}
        known |= {normalize(meaning.lookup.term)} if meaning.lookup else set()
        known_words = {w for k in known for w in k.split()} | self.vocabulary_words
        if meaning.time:
            known_words |= set(normalize(meaning.time.text).split())
        unknown: list[str] = []
        for match in re.finditer(r"(?<![.?!]\s)(?<!^)\b([A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)*)", text):
            words = [w for w in normalize(match.group(1)).split() if w not in known_words]
            if words and (not match.group(1).isupper() or len(match.group(1)) > 3):
                unknown.append(match.group(1))
        return unknown

    @cached_property
    def vocabulary_words(self) -> set[str]:
        calendar_words = {m.lower() for m in _MONTHS} | {"q1", "q2", "q3", "q4", "h1", "h2", "ytd", "i"}
        words = {w for phrase in self.vocabulary for w in phrase.split()} | calendar_words
        words |= {w for f in self.catalog.record.fields.values() for v in f.values.values() for p in v
                  for w in normalize(p).split()}
        return words | {normalize(n) for n in self.catalog.record.fields} | set(self.catalog.glossary_words)


    def _records_or_count(self, lowered: str, meaning: Meaning) -> None:
        """"Maersk shipments to LA" lists records; "how many shipments" counts them."""
        spec = self.catalog.spec
        default = spec.measures[spec.defaults.measure]
        nouns = {normalize(s) for s in self.catalog.record.synonyms}
        counting = [normalize(w) for w in default.words if normalize(w) not in nouns]
        only_default = all(m.name == spec.defaults.measure for m in meaning.measures)
        asked = any(f" {w} " in lowered for w in counting)
        if only_default and not (asked or meaning.group_by or meaning.interval or meaning.top_n):
            meaning.measures = []

    def _distinct(self, lowered: str, meaning: Meaning) -> None:
        """ "How many (distinct) shippers …": a count of different values of that field, not of records."""
        found = re.search(r" (?:how many|number of|count of) (?:distinct |unique |different )?([a-z]+(?: [a-z]+)?) ",
                          lowered)
        if not found or meaning.interval:
            return
        words = found.group(1).split()
        field = next((f for size in (2, 1) for f in self._fields_of(" ".join(words[:size]))), None)
        spec = self.catalog.record.fields.get(field or "")
        if field is None or spec is None or spec.role != "dimension" or field in meaning.compare:
            return
        label = f"distinct {next((s for s in spec.synonyms if s.endswith('s')), field)}"
        counted = Measure(name=f"distinct_{field}", agg="cardinality", field=field, label=label)
        default = self.catalog.spec.defaults.measure
        meaning.measures = [counted, *(m for m in meaning.measures if m.name != default)]
        meaning.group_by = [g for g in meaning.group_by if g != field]
        meaning.top_n = None if not meaning.group_by else meaning.top_n

    def _record_sort(self, lowered: str, meaning: Meaning) -> None:
        """A superlative that is a measure field's synonym ("heaviest") sorts the records by that field."""
        for ranked, word in re.findall(rf" (?:(most|least) )?((?:{_RANK_UP}|{_RANK_DOWN}|[a-z]+)) ", lowered):
            if not ranked and not re.fullmatch(f"{_RANK_UP}|{_RANK_DOWN}", word):
                continue  # "heaviest", or "most valuable": a superlative
            for name, spec in self.catalog.record.fields.items():
                if spec.role == "measure" and word in {normalize(s) for s in spec.synonyms}:
                    direction = "asc" if ranked == "least" or re.fullmatch(_RANK_DOWN, word) else "desc"
                    meaning.sort.append((name, direction))  # type: ignore[arg-type]
                    return


def _followed_by(lowered: str, phrase: str, words: set[str]) -> bool:
    """`phrase` is followed at once by one of `words` ("how many" + "teu")."""
    rest = lowered.split(f" {phrase} ", 1)[1]
    return any(rest.startswith(f"{w} ") for w in words)


def _stem(word: str) -> str:
    """A word without its inflection, for matching "flagged" to "flag" and "registered" to "registry"."""
    for suffix in ("ing", "ed", "es", "s", "y"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[:-len(suffix)]
            return base[:-1] if base[-1] == base[-2] else base
    return word


def _extra_columns(lowered: str) -> bool:
    """Measures asked "and their …" come beside the ranking, not instead of it."""
    return re.search(r" (?:and|with) (?:their|its|the) ", lowered) is not None and not re.search(r" by ", lowered)


def _add_condition(meaning: Meaning, field: str, value: str, found: Found, negate: bool = False) -> None:
    for condition in meaning.conditions:
        if condition.field == field and condition.negate == negate and condition.values:
            if value not in condition.values:
                condition.values.append(value)
                if field not in meaning.compare:
                    meaning.compare.append(field)
            return
    meaning.conditions.append(Condition(field=field, values=[value], source=found.text, negate=negate))


# The words this module's own rules read (ranking, intervals, averages).
_OWN_WORDS = frozenset(re.findall(r"[a-z]+", f"{_RANK_UP} {_RANK_DOWN} {' '.join(_INTERVALS)} {' '.join(_NUMBER)}")) | {
    "day", "week", "month", "quarter", "year", "days", "weeks", "months", "quarters", "years", "average", "avg",
    "mean", "page", "busy", *_ORDINAL}

# Words of any English question that carry no data meaning: never reported as not understood.
_ENGLISH = frozenset(w for line in resources.files("bosun.understanding").joinpath("english_words.txt")
                     .read_text(encoding="utf-8").splitlines() if not line.startswith("#") for w in line.split())
