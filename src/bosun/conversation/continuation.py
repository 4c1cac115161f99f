"""F01's continuation: how a turn relates to the last one, decided from the stored meanings.

- a clarification reply picks one of the options offered (by name, by position, or by something
  only that option has: "the one in Hong Kong"), possibly with a refinement ("MSC ANNA, in 2025");
- a refinement replaces or adds constraints of the last data question ("and in Charleston?");
- a follow-up builds on the last result: the next page, another sort, a breakdown of the top row;
- anything else is a new topic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Literal

from dateutil.relativedelta import relativedelta

from bosun.planner.state import TurnSummary
from bosun.understanding.meaning import Condition, Meaning, Measure, TimeFilter
from bosun.understanding.names import normalize
from bosun.understanding.picks import pick, replace_term
from bosun.understanding.rules import RulesUnderstanding

Kind = Literal["new", "refinement", "follow_up", "clarification_reply", "reask", "unmatched_reply"]

_CUE = re.compile(r"^\s*(?:and|what about|how about|only|just|same (?:for|but)|now|but|then)\b", re.I)
_POINTING = re.compile(r"\b(?:that|those|them|these|it|the same)\b", re.I)  # words that point back at the last answer
_SHOW = re.compile(r"\b(?:show|list|see|display|give)\b.*\b(?:them|those|these|it|records|ones)\b", re.I)
_MORE = re.compile(r"\b(?:more|next|rest|continue|keep going)\b", re.I)
_SORT = re.compile(r"\b(?:sort|sorted|order|ordered|rank|ranked)\s+(?:them\s+|it\s+)?by\s+(.+?)\s*[?.!]*$", re.I)
_SHIFT = re.compile(r"\b(?:the\s+)?(day|week|month|quarter|year)\s+(before|after|earlier|later)\b|"
                    r"\b(previous|prior|preceding|following|next)\s+(day|week|month|quarter|year)\b", re.I)
_TOP_ONE = re.compile(r"\b(?:the\s+)?(?:top|first|leading|biggest|largest)\s+one\b|\bthe\s+leader\b", re.I)
_STEP = {"day": relativedelta(days=1), "week": relativedelta(weeks=1), "month": relativedelta(months=1),
         "quarter": relativedelta(months=3), "year": relativedelta(years=1)}


@dataclass(frozen=True)
class Continued:
    """What this turn is, and what to ask the planner: a question text, or a meaning ready made."""

    kind: Kind
    question: str
    meaning: Meaning | None = None
    note: str = ""


@dataclass
class Continuation:
    understanding: RulesUnderstanding

    def read(self, reply: str, history: list[TurnSummary], today: date) -> Continued:
        last = history[-1] if history else None
        if last is None:
            return Continued("new", reply)
        if last.status == "needs_clarification" and last.clarification and last.meaning:
            return self._reply(reply, last, today)
        previous = Meaning.model_validate(last.meaning) if last.meaning and last.status == "done" else None
        if previous is None:
            return Continued("new", reply)
        return self._follow(reply, previous, last, today) or Continued("new", reply)

    # -- clarification replies ---------------------------------------------------------------------
    def _reply(self, reply: str, last: TurnSummary, today: date) -> Continued:
        assert last.clarification is not None and last.meaning is not None
        asked = Meaning.model_validate(last.meaning)
        term, options = last.clarification["term"], list(last.clarification["options"])
        picked, rest = pick(reply, options, self.understanding, today)
        if picked is None:
            own = self.understanding.analyze(reply, today)
            if _stands_alone(own, self.understanding):
                return Continued("new", reply)
            if int(last.clarification.get("asked", 1)) < 2:
                note = f"I could not tell which one you meant by “{reply.strip()}”. "
                return Continued("reask", asked.text, note=note)
            note = f"“{reply.strip()}” matches none of {', '.join(options)}. "
            return Continued("unmatched_reply", reply, note=note)
        question = replace_term(asked.text, term, picked)
        return Continued("clarification_reply", f"{question} {rest}".strip() if rest else question)

    # -- refinements and follow-ups ----------------------------------------------------------------
    def _follow(self, reply: str, previous: Meaning, last: TurnSummary, today: date) -> Continued | None:
        title = f"{previous.text} → {reply.strip()}"
        sort = _SORT.search(reply)
        field, measure = self._sort_field(sort.group(1)) if sort else (None, None)
        if field:  # "sort by weight": the same records, or the same groups, in another order
            direction: Literal["asc", "desc"] = "asc" if re.search(
                r"\b(?:asc|ascending|lowest|smallest|shortest|lightest)\b", reply, re.I) else "desc"
            merged = self._sorted(previous, last, field, measure, direction)
            if merged is not None:
                return Continued("follow_up", title, merged.model_copy(update={"text": title}))
        own = self.understanding.analyze(_TOP_ONE.sub(" ", reply), today)  # "the top one" points back
        cued = _CUE.search(reply) is not None or _POINTING.search(reply) is not None
        if (own.lookup is not None and (own.lookup.fields or not cued)) or (
                _stands_alone(own, self.understanding) and not cued):
            return None  # its own question: an attribute of one object, or records, measures, a ranking
        if own.measures and not (own.conditions or own.time or own.group_by) and previous.group_by:
            # "what about by weight?" ranks the groups anew; "and the average transit time?" adds a column
            added = [m for m in own.measures if m.label not in {p.label for p in previous.measures}]
            measures = own.measures if re.search(r"\bby\b", reply, re.I) else [*previous.measures, *added]
            measured = previous.model_copy(update={"measures": measures, "sort": [], "text": title,
                                                   "assumptions": [*previous.assumptions, *own.assumptions]})
            return Continued("follow_up", title, measured)
        if _SHOW.search(reply) and previous.intent_type == "aggregation" and not (previous.group_by or own.conditions):
            listed = previous.model_copy(update={"measures": [], "intent_type": "search", "interval": None,
                                                 "top_n": None, "sort": [], "page": 1, "text": title})
            return Continued("follow_up", title, listed)  # "show them": the records behind the count
        if (own.group_by or own.interval) and not own.measures:
            return Continued("follow_up", title, _breakdown(previous, own, reply, last))
        if _MORE.search(reply) and not (own.conditions or own.time):
            if previous.intent_type != "search":
                return Continued("new", reply, note="The last answer showed all its rows; it has no next page. ")
            return Continued("follow_up", title, previous.model_copy(update={"page": previous.page + 1,
                                                                              "text": title}))
        shifted = _shift(previous.time, reply)
        if own.conditions or own.time or shifted:
            return Continued("refinement", title, _refine(previous, own, shifted, title))
        return None

    def _sorted(self, previous: Meaning, last: TurnSummary, field: str, measure: str | None,
                direction: Literal["asc", "desc"]) -> Meaning | None:
        """Records sorted by a field; the same groups ordered by the measure over it (added when not shown)."""
        if previous.intent_type == "search":
            return previous.model_copy(update={"sort": [(field, direction)], "page": 1})
        if not previous.group_by:
            return None
        shown = [m for m in previous.measures if m.field == field]
        spec = self.understanding.catalog.spec.measures.get(measure or "")
        if shown:
            first = shown[0]
        elif spec is not None:
            first = Measure(name=measure or "", agg=spec.agg, field=field, label=spec.label, unit=spec.unit)
        else:
            return None
        conditions = list(previous.conditions)
        if previous.top_n and last.first_column and len(last.first_column) == previous.top_n:
            conditions.append(Condition(field=previous.group_by[0], values=list(last.first_column)))  # same groups
        return previous.model_copy(update={"measures": [first, *(m for m in previous.measures if m is not first)],
                                           "sort": [(field, direction)], "order": direction,
                                           "conditions": conditions})

    def _sort_field(self, phrase: str) -> tuple[str | None, str | None]:
        """(the field to sort by, the measure whose words name it, if any)."""
        catalog = self.understanding.catalog
        words = f" {normalize(phrase)} "
        for name, measure in catalog.spec.measures.items():
            if measure.field and any(f" {normalize(w)} " in words for w in measure.words):
                return measure.field, name
        for name, spec in catalog.record.fields.items():
            if any(f" {normalize(w)} " in words for w in [*spec.synonyms, name.replace("_", " ")]):
                measure_name = next((n for n, m in catalog.spec.measures.items() if m.field == name), None)
                return name, measure_name
        return None, None


def _stands_alone(meaning: Meaning, understanding: RulesUnderstanding) -> bool:
    """A question of its own: it names the records or asks a measure, a grouping or a ranking."""
    nouns = {normalize(s) for s in understanding.catalog.record.synonyms}
    named = any(f" {n} " in f" {normalize(meaning.text)} " for n in nouns)
    grouped = meaning.group_by and (meaning.conditions or meaning.time)  # "which carriers serve Honolulu?"
    return bool(named or meaning.measures or meaning.top_n or meaning.interval or grouped)


def _refine(previous: Meaning, own: Meaning, shifted: TimeFilter | None, title: str) -> Meaning:
    """The previous meaning with the reply's constraints replacing those on the same fields."""
    fields = {c.field for c in own.conditions}
    conditions = [c for c in previous.conditions if c.field not in fields] + [
        Condition.model_validate(c.model_dump()) for c in own.conditions]
    time = shifted or previous.time
    if own.time is not None:
        named_field = not any(a.kind == "field" and a.term == own.time.text for a in own.ambiguities)
        time = own.time if named_field or previous.time is None else own.time.model_copy(
            update={"field": previous.time.field})
    entities = [e for e in previous.entities if e.field not in fields] + own.entities
    compare = [f for f in previous.compare if f not in fields]
    group_by = [f for f in previous.group_by if f not in fields or f not in previous.compare]
    assumptions = list(dict.fromkeys([*previous.assumptions, *own.assumptions]))
    return previous.model_copy(update={"conditions": conditions, "time": time, "entities": entities,
                                       "compare": compare, "group_by": group_by, "assumptions": assumptions,
                                       "page": 1, "text": title})


def _breakdown(previous: Meaning, own: Meaning, reply: str, last: TurnSummary) -> Meaning:
    """ "break that down by carrier (for the top one)": the same question grouped anew."""
    conditions = list(previous.conditions)
    if _TOP_ONE.search(reply) and previous.group_by and last.first_column:
        field = previous.group_by[0]
        conditions = [c for c in conditions if c.field != field]
        conditions.append(Condition(field=field, values=[last.first_column[0]], source=reply))
    measures = previous.measures or own.measures
    group_by = own.group_by or ([] if previous.interval else previous.group_by)  # "… by month": the same groups
    return previous.model_copy(update={"group_by": group_by, "conditions": conditions, "compare": [],
                                       "interval": own.interval or (None if own.group_by else previous.interval),
                                       "top_n": None, "measures": measures, "intent_type": "aggregation",
                                       "sort": [(measures[0].field, "desc")] if measures and measures[0].field else [],
                                       "order": "desc",
                                       "text": f"{previous.text} → {reply.strip()}"})


def _shift(time: TimeFilter | None, reply: str) -> TimeFilter | None:
    """ "and the month before?": the previous range moved by one unit."""
    found = _SHIFT.search(reply)
    if time is None or found is None or time.start is None or time.end is None:
        return None
    unit = (found.group(1) or found.group(4)).lower()
    backwards = (found.group(2) or found.group(3)).lower() in ("before", "earlier", "previous", "prior", "preceding")
    step = -_STEP[unit] if backwards else _STEP[unit]
    start = time.start + step
    end = time.end + relativedelta(days=1) + step - relativedelta(days=1)  # month ends stay month ends
    return TimeFilter(field=time.field, start=start, end=end, text=found.group(0))
