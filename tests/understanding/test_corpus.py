"""The understanding corpus: the rules backend reads every item as corpus.yaml expects; the LLM
backend's plumbing turns every expected reading, given as a model's tool call, into that same
validated Meaning.

Each item is a question (with earlier turns of its thread, when it has them) and the reading
expected of it; only the keys an item gives are checked.

- `rules-<id>`: the rules backend reads the question. This tests understanding: remove a composition
  rule and items fail.
- `llm-plumbing-<id>`: a scripted chat model answers each item's own expected reading
  (scripted_reading.py),
  so these items do NOT test understanding and pass whatever the model would have read. They test
  that the
  LLM backend turns the model's tool call into a validated Meaning: parsing, the candidate and
  catalog
  checks (an expected reading they refuse fails the item: the rules must not quietly read it
  instead), and
  the Meaning built from the model's form. The LLM backend's tests that can fail on a wrong reading
  are
  in tests/llm/test_validation.py.

Items a backend does not read right yet are listed in corpus_known_failures.txt (rules) and
corpus_known_failures_llm_plumbing.txt, and run as strict xfails: reading one right fails the run
until it is removed.
"""

from __future__ import annotations

import datetime as dt
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import TypeAdapter

from bosun.catalog import Catalog, load_catalog
from bosun.ledger import Ledger, charged
from bosun.understanding import Audit, Turn, Understanding
from bosun.understanding.meaning import Link, Meaning, Measure, Step
from bosun.understanding.names import normalize
from bosun.understanding.reading import AskedBack, GoalReading, PastTurn, Reading
from bosun.understanding.rules import RulesUnderstanding

HERE = Path(__file__).parent
CORPUS = yaml.safe_load((HERE / "corpus.yaml").read_text(encoding="utf-8"))
# the corpus of each kind of analysis (issue 23)
for _part in sorted((HERE / "corpus").glob("*.yaml")):
    CORPUS["items"] += yaml.safe_load(_part.read_text(encoding="utf-8"))["items"]
CATALOGS = {"maritime": None, "shop": HERE.parent / "domains" / "shop" / "catalog.yaml"}
# llm-plumbing: a scripted model replays each item's expected reading, so
BACKENDS = ["rules", "llm-plumbing"]
# it tests the tool call → validated Meaning path, not understanding


def _known(name: str) -> set[str]:
    lines = (HERE / name).read_text().splitlines()
    return {line.split("#")[0].strip() for line in lines} - {""}


KNOWN = {
    "rules": _known("corpus_known_failures.txt"),
    "llm-plumbing": _known("corpus_known_failures_llm_plumbing.txt"),
}


@cache
def catalog(domain: str) -> Catalog:
    return load_catalog(CATALOGS[domain])


@cache
def backend(name: str, domain: str) -> RulesUnderstanding:
    assert name == "rules"
    return RulesUnderstanding(catalog(domain))


def scripted(item: dict[str, Any], domain: str) -> Understanding:
    """The LLM backend over a model that ignores the schema for the earlier turns (the rules backend
    reads them, after the retry) and then answers the item's expected reading: plumbing, not
    understanding."""
    from bosun.understanding.llm import LLMUnderstanding
    from tests.llm.scripted import ToolFakeModel, client, prose, tool_call
    from tests.understanding.scripted_reading import model_reading

    rules = backend("rules", domain)
    earlier = [prose(), prose()] * len(item.get("turns", []))
    model = ToolFakeModel(
        responses=[*earlier, tool_call("ModelReading", model_reading(item, rules))]
    )
    # the expected readings state only the parts an item checks: the audit would find the rest
    # unread, so these items test the plumbing without it (tests/llm/test_audit.py tests it)
    return LLMUnderstanding(client(model), rules, audited=False)


def _items() -> list[Any]:
    params = []
    for name in BACKENDS:
        for item in CORPUS["items"]:
            marks = (
                [pytest.mark.xfail(strict=True, reason="known failure")]
                if item["id"] in KNOWN[name]
                else []
            )
            params.append(pytest.param(name, item, id=f"{name}-{item['id']}", marks=marks))
    return params


def read_item(name: str, item: dict[str, Any]) -> tuple[Reading, Catalog]:
    domain = item.get("domain", CORPUS["defaults"]["domain"])
    today = item.get("today", CORPUS["defaults"]["today"])
    today = today if isinstance(today, dt.date) else dt.date.fromisoformat(str(today))
    understanding = backend(name, domain) if name == "rules" else scripted(item, domain)
    history: list[PastTurn] = []
    for turn in item.get("turns", []):
        history.append(past(turn, understanding.read(turn, history, today)))
    ledger = Ledger(budget=1_000_000)
    with charged(ledger, "f01"):
        reading = understanding.read(item["q"], history, today)
    # the rules' reading would test nothing here
    assert ledger.notes == [], "the model's reading was refused"
    if name == "llm-plumbing":
        return reading, catalog(domain)
    return audited(reading, item["q"], backend("rules", domain).audit, today), catalog(domain)


def audited(reading: Reading, question: str, audit: Audit, today: dt.date) -> Reading:
    """The reading as the turn goes on with it: after the coverage audit (issue 34), which says the
    words a reading leaves unread as not understood, as the graph's audit node does."""
    goals = []
    for i, goal in enumerate(reading.goals, 1):
        if goal.meaning is not None:
            beside = [g.meaning for g in reading.goals if g is not goal and g.text == goal.text]
            turn = Turn(question, reading.continuation, i, [m for m in beside if m])
            meaning, _ = audit.reviewed(goal.meaning, today, turn)
            goal = goal.model_copy(update={"meaning": meaning})
        goals.append(goal)
    return reading.model_copy(update={"goals": goals})


def past(question: str, reading: Reading) -> PastTurn:
    """The turn as the conversation keeps it: its first data goal's meaning, and the question it
    asked back."""
    meaning = next((g.meaning for g in reading.goals if g.meaning is not None), None)
    asked = next((a for a in meaning.ambiguities if a.kind == "entity"), None) if meaning else None
    if asked is None:
        return PastTurn(question=question, meaning=meaning)
    clarification = AskedBack(term=asked.term, options=asked.options)
    return PastTurn(
        question=question,
        status="needs_clarification",
        meaning=meaning,
        clarification=clarification,
    )


@pytest.mark.parametrize(("name", "item"), _items())
def test_corpus_item(name: str, item: dict[str, Any]) -> None:
    reading, known = read_item(name, item)
    expect = item["expect"]
    if "goals" in expect:
        assert [kind_of(g) for g in reading.goals] == [
            e.get("kind", "data") for e in expect["goals"]
        ]
        for goal, wanted in zip(reading.goals, expect["goals"], strict=True):
            check(goal, wanted, known)
        return
    assert len(reading.goals) == 1, [g.text for g in reading.goals]
    check(reading.goals[0], expect, known)


def kind_of(goal: GoalReading) -> str:
    if goal.kind != "data" or goal.meaning is None:
        return goal.kind
    if goal.meaning.refusal is not None:
        return "refused"
    if any(a.kind == "entity" for a in goal.meaning.ambiguities):
        return "clarify"
    return "lookup" if goal.meaning.lookup is not None else "data"


def check(goal: GoalReading, expect: dict[str, Any], known: Catalog) -> None:
    assert kind_of(goal) == expect.get("kind", "data")
    if goal.kind != "data":
        got = {
            "terms": goal.terms,
            "fields_asked": goal.terms,
            "unknown": [t for t in goal.terms if t not in known.glossary],
        }
        for key in ("terms", "fields_asked", "unknown"):
            if key in expect:
                assert _folded(got[key]) == _folded(expect[key]), key
        return
    assert goal.meaning is not None
    actual = observed(goal.meaning)
    for key, wanted in expect.items():
        if key == "kind":
            continue
        if key == "not_understood":
            assert_not_understood(goal.meaning.not_understood, wanted)
        elif key in ("options", "unknown"):
            assert _folded(wanted) <= _folded(actual[key]), key
        else:
            assert actual[key] == normal(key, wanted), key


def observed(meaning: Meaning) -> dict[str, Any]:
    lookup = meaning.lookup
    return {
        "measures": [_measure(m) for m in meaning.measures],
        "filters": {c.field: c.values for c in meaning.conditions if c.values and not c.negate},
        "exclude": {c.field: c.values for c in meaning.conditions if c.values and c.negate},
        "ranges": _ranges(meaning, negate=False),
        "exclude_ranges": _ranges(meaning, negate=True),
        "present": {c.field: c.exists for c in meaning.conditions if c.exists is not None},
        "time": [meaning.time.field, _day(meaning.time.start), _day(meaning.time.end)]
        if meaning.time
        else None,
        "group_by": meaning.group_by,
        "interval": meaning.interval,
        "top_n": meaning.top_n,
        "order": meaning.order,
        "sort": [[f, d] for f, d in meaning.sort],
        "records": meaning.intent_type == "search" and meaning.lookup is None,
        "options": [o for a in meaning.ambiguities if a.kind == "entity" for o in a.options],
        "lookup": {"object": lookup.object, "key": lookup.key, "fields": sorted(lookup.fields)}
        if lookup
        else None,
        "unknown": meaning.unknown_terms,
        "reason": meaning.refusal.reason if meaning.refusal else None,
        "steps": [s.model_dump(exclude_none=True) for s in meaning.steps],
        "periods": [[p.field, _day(p.start), _day(p.end)] for p in meaning.periods],
        "links": [_link(link) for link in meaning.links],
        "index": meaning.index,
        "page": meaning.page,
        "shown": meaning.shown,
    }


def _ranges(meaning: Meaning, negate: bool) -> dict[str, dict[str, float]]:
    """The bounds of each range condition, {field: {op: bound}}: those kept, or (negate) those whose
    records are dropped ("without a declared value" is NOT declared_value_usd > 0)."""
    return {
        c.field: {
            op: float(getattr(c, op))
            for op in ("gt", "gte", "lt", "lte")
            if getattr(c, op) is not None
        }
        for c in meaning.conditions
        if not c.values and c.exists is None and c.negate == negate
    }


def _measure(measure: Measure) -> list[Any]:
    """[agg, field], with {percent: 90} for a percentile and {share: {field: values}} for a
    share."""
    extra: dict[str, Any] = {}
    if measure.percent is not None:
        extra["percent"] = float(measure.percent)
    if measure.share is not None:
        extra["share"] = {
            c.field: [v if isinstance(v, bool) else str(v) for v in c.values]
            for c in measure.share.part
        }
    return [measure.agg, measure.field, *([extra] if extra else [])]


def _link(link: Link) -> dict[str, Any]:
    """The link with its condition as {field: values}, or {field: {op: bound}} for a range."""
    condition = link.condition
    bounds = {
        op: float(getattr(condition, op))
        for op in ("gt", "gte", "lt", "lte")
        if getattr(condition, op) is not None
    }
    values = [v if isinstance(v, bool) else str(v) for v in condition.values]
    return {
        "object": link.object,
        "field": link.field,
        "key": link.key,
        "condition": {condition.field: bounds if bounds and not values else values},
    }


def normal(key: str, wanted: Any) -> Any:
    """The corpus's YAML values in the shapes `observed` gives (dates as strings, numbers as
    floats)."""
    if key == "time" and wanted is not None:
        return [wanted[0], *(_day(d) for d in wanted[1:])]
    if key in ("ranges", "exclude_ranges"):
        return {f: {op: float(v) for op, v in bounds.items()} for f, bounds in wanted.items()}
    if key == "filters" or key == "exclude":
        return {
            f: [v if isinstance(v, bool) else str(v) for v in values]
            for f, values in wanted.items()
        }
    if key == "measures":
        return [_wanted_measure(m) for m in wanted]
    if key == "steps":
        return [s.model_dump(exclude_none=True) for s in _STEPS.validate_python(wanted)]
    if key == "periods":
        return [[p[0], *(_day(d) for d in p[1:])] for p in wanted]
    if key == "links":
        return [{**link, "condition": _wanted_condition(link["condition"])} for link in wanted]
    if key == "lookup":
        return {**wanted, "key": str(wanted["key"]), "fields": sorted(wanted.get("fields", []))}
    return wanted


_STEPS = TypeAdapter(list[Step])


def _wanted_condition(condition: dict[str, Any]) -> dict[str, Any]:
    """A link's condition: {field: [values]}, or {field: {op: bound}} for a range."""
    if isinstance(next(iter(condition.values())), dict):
        return normal("ranges", condition)
    return normal("filters", condition)


def _wanted_measure(measure: list[Any]) -> list[Any]:
    if len(measure) == 2:
        return measure
    extra = dict(measure[2])
    if "percent" in extra:
        extra["percent"] = float(extra["percent"])
    if "share" in extra:
        extra["share"] = normal("filters", extra["share"] or {})
    return [*measure[:2], extra]


def assert_not_understood(reported: list[str], wanted: list[str]) -> None:
    words = {w for phrase in reported for w in normalize(phrase).split()}
    if not wanted:
        assert reported == []
    for phrase in wanted:
        assert set(normalize(str(phrase)).split()) <= words, (phrase, reported)


def _day(value: Any) -> str | None:
    return None if value is None else str(value)


def _folded(values: list[Any]) -> set[str]:
    return {normalize(str(v)) for v in values}
