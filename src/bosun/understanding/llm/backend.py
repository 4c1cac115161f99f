"""The LLM backend: a chat model fills the turn's Reading; the catalog and the candidates bound it.

The model sees the catalog's schema (fields, measures, objects, kinds of names, glossary terms), the
last turns, and the candidates the rules backend's name index (and vectors) found for the question's
phrases: it picks among them and never invents a value. Its reading is checked (names, candidates,
then `validate_meaning` on every goal, and no name the question gives exactly dropped); a refused
reading gets one retry with the problems, then the rules backend reads the turn and the answer says
so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from bosun.catalog import Catalog
from bosun.chat import ChatClient
from bosun.errors import ModelFailure
from bosun.ledger import fell_back
from bosun.understanding.audit import Audit
from bosun.understanding.continuation import built_on
from bosun.understanding.examples import ExampleIndex
from bosun.understanding.inflections import singular
from bosun.understanding.llm.schema import ModelReading, Offered, dropped, problems, to_reading
from bosun.understanding.meaning import Meaning
from bosun.understanding.names import Candidate, Found, find_names, normalize
from bosun.understanding.reading import PastTurn, Reading, validate_meaning
from bosun.understanding.rules import RulesUnderstanding
from bosun.understanding.vectors import NameVectors

MAX_ROWS_SHOWN = 10  # of an earlier turn's first column ("the second one")
MAX_TAUGHT_SHOWN = 10  # taught words the question holds, shown to the model
# how a name the question gives exactly was found: a reading must use it
EXACT = {"exact", "alias", "code"}


@dataclass
class LLMUnderstanding:
    client: ChatClient
    # the name index and vectors, and the reader when the model's reading is refused
    rules: RulesUnderstanding
    # answers people confirmed: the closest few go in the prompt, as data
    examples: ExampleIndex | None = None
    taught: dict[str, str] = field(default_factory=dict)  # taught word → what it means (issue #25)
    # the coverage audit's reasons go back to the model with the one retry (issue 34); off only
    # where a scripted model replays readings that state just the parts a test checks
    audited: bool = True

    @property
    def catalog(self) -> Catalog:
        return self.rules.catalog

    @property
    def vectors(self) -> NameVectors | None:
        return self.rules.vectors

    @property
    def audit(self) -> Audit:
        return self.rules.audit

    # -- the contract
    # --------------------------------------------------------------------------------
    def read(self, text: str, history: list[PastTurn], today: date) -> Reading:
        offered, candidates = self.candidates(text, history)
        values = {
            **self.schema_values(today),
            "history": _history(history),
            "candidates": candidates,
            "question": text,
            "examples": self.examples.prompt_text(text) if self.examples else "(none)",
            "taught": self.taught_in(text),
        }
        try:
            asked = self.client.ask(
                "reading", ModelReading, values, lambda r: self.check(r, offered, today)
            )
        except ModelFailure as exc:
            return self._fallback(text, history, today, str(exc))
        if asked.value is None:
            return self._fallback(text, history, today, "; ".join(asked.problems))
        reading = to_reading(asked.value, self.catalog)
        for goal in reading.goals:
            if goal.meaning is not None:
                self._resolved(goal.meaning, offered)
        return _continuing(reading, history, text, self.rules.quiet_words, self.catalog)

    def _resolved(self, meaning: Meaning, offered: Offered) -> None:
        """The names the model filtered on, as the rules backend records them (entities, loose-match
        assumptions)."""
        for condition in meaning.conditions:
            for value in condition.values:
                named = offered.named.get((condition.field, str(value)))
                if named is not None:
                    term, candidate, score = named
                    self.rules.resolve(
                        meaning, term, candidate, (condition.field, str(value)), score
                    )

    def analyze(self, text: str, today: date) -> Meaning:
        """One goal's meaning: the first data goal the model reads in `text` (the rules', if it
        reads none)."""
        reading = self.read(text, [], today)
        meaning = next((g.meaning for g in reading.goals if g.meaning is not None), None)
        return meaning if meaning is not None else self.rules.analyze(text, today)

    def pick(self, reply: str, options: list[str], today: date) -> tuple[str | None, str]:
        """A pick among offered options is matched, not read: the rules backend's pick (names,
        positions)."""
        return self.rules.pick(reply, options, today)

    # -- checks ------------------------------------------------------------------------------------
    def check(
        self, reading: ModelReading, offered: Offered, today: date | None = None
    ) -> list[str]:
        """What is wrong with the model's reading: names or fields the catalog lacks, an invalid
        Meaning, offered names dropped; and, for a reading with none of these, (given `today`) the
        words of the question no part of it reads, by the coverage audit, so that the one retry is
        asked with them."""
        found = problems(reading, self.catalog, offered)
        goals = [] if found else to_reading(reading, self.catalog).goals
        meanings = [goal.meaning for goal in goals if goal.meaning is not None]
        # a Meaning is built only of what the catalog has and the candidates offer
        found += [p for meaning in meanings for p in validate_meaning(meaning, self.catalog)]
        found += dropped(reading, offered)
        # a continuation's text restates the last question: the audit node reads the turn's own
        if found or reading.continuation != "new":
            return found
        return [p for meaning in meanings for p in self._unread(meaning, today)]

    def _unread(self, meaning: Meaning, today: date | None) -> list[str]:
        if today is None or not self.audited:
            return []
        verdict = self.audit.verdict(meaning, today)
        return [f"the reading leaves unread {reason}" for reason in verdict.reasons()]

    def _fallback(self, text: str, history: list[PastTurn], today: date, why: str) -> Reading:
        fell_back(
            "reading",
            f"The model's reading of the question was not used ({why[:200]}); the rules backend "
            "read it instead.",
        )
        return self.rules.read(text, history, today)

    # -- what the prompt carries
    # ---------------------------------------------------------------------
    def candidates(self, text: str, history: list[PastTurn]) -> tuple[Offered, str]:
        """The names found in the question (index, fuzzy, vectors), as the prompt lists them and as
        checked."""
        by_field: dict[str, set[str]] = {
            t.field: set() for e in self.catalog.spec.entities.values() for t in e.targets
        }
        found = find_names(text, self.rules.index, skip=self.rules.vocabulary, vectors=self.vectors)
        offered = Offered(by_field, set(), in_question=self._in_question(found, history))
        lines = []
        for phrase, candidates, score in self._found(text, found):
            pairs = []
            for candidate in candidates:
                for target in self._targets(candidate):
                    pairs.append(target)
                    by_field.setdefault(target[0], set()).add(target[1])
                    offered.named.setdefault(target, (phrase, candidate, score))
            offered.values.update(c.value for c in candidates)
            lines.append(f"“{phrase}” → " + "; ".join(f"{f}={v}" for f, v in dict.fromkeys(pairs)))
        for past in history:  # a follow-up keeps the names of the turns it continues
            self._offer_past(past, by_field, offered.values)
        return offered, "\n".join(lines) or "(none)"

    def _in_question(self, found: list[Found], history: list[PastTurn]) -> dict[str, set[str]]:
        """The phrases the rules read as names exactly (name, alias or code; not fuzzy, partial or
        by vector), each with the values a reading may use it by. A reply to a question asked back
        names what picks an option ("the Vietnamese one"), not a filter: none is required there."""
        last = history[-1] if history else None
        if last is not None and last.status == "needs_clarification" and last.clarification:
            return {}
        exact = [f for f in found if all(c.method in EXACT for c in f.candidates)]
        return {f.text: {value for c in f.candidates for value in self._uses(c)} for f in exact}

    def _uses(self, candidate: Candidate) -> set[str]:
        """The values a reading uses a name by: the name, the values of the fields it filters, its
        object's id."""
        uses = {candidate.value, *(value for _, value in self._targets(candidate))}
        obj = self.catalog.spec.objects.get(
            self.catalog.spec.entities[candidate.entity].object or ""
        )
        key = candidate.attributes.get(obj.id_field or "") if obj is not None else None
        if key is not None:
            uses.add(str(key))  # a lookup's key ("SKU-300" for "the noise cancelling headphones")
        return uses

    def _found(self, text: str, found: list[Found]) -> list[tuple[str, list[Candidate], float]]:
        """The rules' names `found` (exact, alias, fuzzy, vectors), plus any other phrase that is a
        known name in any case ("zim", "one"): the rules skip those as too risky to guess, the model
        can tell from the context."""
        named = [(f.text, list(f.candidates), f.score) for f in found]
        index = self.rules.index.seen()  # the names the caller may read
        taken = {normalize(f.text) for f in found}
        words = normalize(text).split()
        for size in (3, 2, 1):
            for i in range(len(words) - size + 1):
                phrase = " ".join(words[i : i + size])
                for key in dict.fromkeys((phrase, singular(phrase))):
                    if (
                        key in index.names
                        and key not in taken
                        and phrase not in self.rules.vocabulary
                    ):
                        named.append((phrase, index.names[key], 100.0))
                        taken.add(key)
        return named

    def _targets(self, candidate: Candidate) -> list[tuple[str, str]]:
        """The record fields a candidate name filters, with the value each takes (catalog
        `targets`)."""
        spec = self.catalog.spec.entities[candidate.entity]
        row = candidate.attributes
        pairs = []
        for target in spec.targets:
            value = row.get(target.value_from) if target.value_from else candidate.value
            if value is not None and all(str(row.get(k)) == v for k, v in target.when.items()):
                pairs.append((target.field, str(value)))
        return pairs

    @staticmethod
    def _offer_past(past: PastTurn, by_field: dict[str, set[str]], every: set[str]) -> None:
        for condition in past.meaning.conditions if past.meaning else []:
            by_field.setdefault(condition.field, set()).update(str(v) for v in condition.values)
        # "the second one", "those carriers": the groups it listed
        if past.meaning and past.meaning.group_by:
            by_field.setdefault(past.meaning.group_by[0], set()).update(
                str(v) for v in past.first_column
            )
        for option in past.clarification.options if past.clarification else []:
            every.add(str(option))
            for values in by_field.values():
                values.add(str(option))

    def taught_in(self, text: str) -> str:
        """The taught words the question holds, as the prompt lists them (a few, quoted: words,
        never orders)."""
        question = f" {normalize(text)} "
        held = [(w, m) for w, m in self.taught.items() if f" {normalize(w)} " in question][
            :MAX_TAUGHT_SHOWN
        ]
        return "\n".join(f"{json.dumps(w, ensure_ascii=False)} → {m}" for w, m in held) or "(none)"

    def schema_values(self, today: date) -> dict[str, str]:
        """The catalog as the prompt shows it: its schema and words, not its data."""
        spec = self.catalog.spec
        fields = [f.line(name) for name, f in self.catalog.record.fields.items()]
        objects = [
            f"{name} (id field {o.id_field}): {', '.join(o.fields)}"
            for name, o in spec.objects.items()
            if o.kind == "reference" and o.id_field
        ]
        return {
            "today": today.isoformat(),
            "index": self.catalog.record.index,
            "fields": "\n".join(fields),
            "measures": "; ".join(
                f"{n} = {m.agg} of {m.field or 'records'}" for n, m in spec.measures.items()
            ),
            "objects": "; ".join(objects + _links(self.catalog)) or "(none)",
            "entities": "; ".join(
                f"{n} ({', '.join(e.words[:3])})" for n, e in spec.entities.items()
            ),
            "glossary": ", ".join(self.catalog.glossary),
        }


def _continuing(
    reading: Reading, history: list[PastTurn], text: str, quiet: set[str], catalog: Catalog
) -> Reading:
    """A refinement or follow-up the model read says, as the rules' do, the last turn's unread words
    again and what of the last question it kept."""
    previous = history[-1].meaning if history else None
    if previous is None or reading.continuation not in ("refinement", "follow_up"):
        return reading
    goals = [
        g.model_copy(update={"meaning": built_on(g.meaning, previous, text, quiet, catalog)})
        if g.meaning
        else g
        for g in reading.goals
    ]
    return reading.model_copy(update={"goals": goals})


def _history(history: list[PastTurn]) -> str:
    """The last turns, compactly: question, status, what they asked back, and the filters they
    used."""
    lines = []
    for past in history:
        meaning = past.meaning
        entry: dict[str, Any] = {"question": past.question, "status": past.status}
        if meaning is not None:
            entry["read_as"] = meaning.model_dump(
                mode="json",
                include={
                    "conditions",
                    "time",
                    "measures",
                    "group_by",
                    "interval",
                    "top_n",
                    "intent_type",
                },
            )
        if past.clarification:
            entry["asked_which"] = past.clarification.options
        if past.first_column:
            entry["first_column"] = past.first_column[:MAX_ROWS_SHOWN]
        lines.append(json.dumps(entry, ensure_ascii=False))
    return "\n".join(lines) or "(none)"


def _links(catalog: Catalog) -> list[str]:
    """The linked objects, as `links` and `listing` name them: which record field holds each, and
    its attributes."""
    return [
        f"linked {name} (record field {', '.join(t.field for t in spec.fields)} holds its "
        f"{spec.key}; filter on "
        f"its {', '.join(spec.attributes)} with links, group by one by its name in group_by, "
        "or list them with listing)"
        for name, spec in catalog.spec.links.items()
    ]
