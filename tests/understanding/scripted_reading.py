"""The corpus's expected readings as the answers a model would give (ModelReading tool calls).

A scripted model replays these (the `llm-plumbing-*` items of test_corpus.py): the LLM backend's
path (prompt, parsing, candidate and catalog checks, Meaning building) must carry each expected
reading to the same Meaning the corpus expects. Being the expectation itself, a replay tests no
understanding. An item whose expectation the model's form cannot say is one the LLM backend cannot
express (its known-failures list).
"""

from __future__ import annotations

from typing import Any

from bosun.understanding.names import find_names
from bosun.understanding.rules import RulesUnderstanding


def model_reading(item: dict[str, Any], rules: RulesUnderstanding) -> dict[str, Any]:
    expect = item["expect"]
    goals = expect.get("goals", [expect])
    return {"goals": [_goal(g, item["q"], rules) for g in goals], "continuation": "new"}


def _goal(expect: dict[str, Any], question: str, rules: RulesUnderstanding) -> dict[str, Any]:
    kind = expect.get("kind", "data")
    if kind in ("definition", "fields"):
        terms = [
            *expect.get("terms", []),
            *expect.get("fields_asked", []),
            *expect.get("unknown", []),
        ]
        return {"kind": kind, "text": question, "terms": terms}
    goal: dict[str, Any] = {"kind": "data", "text": question}
    if kind == "refused":
        return {**goal, "refused": expect["reason"], "refused_words": expect.get("words", [])}
    goal["measures"] = [_measure(m) for m in expect.get("measures", [])]
    goal["filters"] = [
        {"field": f, "values": _values(v)} for f, v in expect.get("filters", {}).items()
    ]
    excluded = expect.get("exclude", {})
    goal["filters"] += [
        {"field": f, "values": _values(v), "negate": True} for f, v in excluded.items()
    ]
    goal["ranges"] = [{"field": f, **bounds} for f, bounds in expect.get("ranges", {}).items()]
    goal["present"] = [{"field": f, "exists": e} for f, e in expect.get("present", {}).items()]
    if expect.get("time"):
        field, start, end = expect["time"]
        goal["time"] = {"field": field, "start": _day(start), "end": _day(end)}
    goal["periods"] = [
        {"field": f, "start": _day(a), "end": _day(b)} for f, a, b in expect.get("periods", [])
    ]
    goal["steps"] = expect.get("steps", [])
    for key in (
        "group_by",
        "interval",
        "top_n",
        "order",
        "records",
        "not_understood",
        "page",
        "shown",
    ):
        if expect.get(key) is not None:
            goal[key] = expect[key]
    goal["sort"] = [{"field": f, "direction": d} for f, d in expect.get("sort", [])]
    if expect.get("lookup"):
        lookup = expect["lookup"]
        goal["lookup"] = {
            "object": lookup["object"],
            "key": str(lookup["key"]),
            "fields": lookup.get("fields", []),
        }
    if expect.get("options"):
        goal["ambiguous"] = [
            {"phrase": _phrase(question, expect["options"], rules), "options": expect["options"]}
        ]
    goal["unknown_names"] = expect.get("unknown", [])
    goal["links"] = [_link(link) for link in expect.get("links", [])]
    if expect.get("index") not in (None, rules.catalog.record.index):
        goal["listing"] = next(
            n for n, o in rules.catalog.spec.objects.items() if o.index == expect["index"]
        )
    return goal


def _link(link: dict[str, Any]) -> dict[str, Any]:
    """A link as the model's form says it: the attribute, and its values or its bounds."""
    ((attribute, wanted),) = link["condition"].items()
    said = dict(wanted) if isinstance(wanted, dict) else {"values": _values(wanted)}
    return {"object": link["object"], "attribute": attribute, "field": link["field"], **said}


def _measure(measure: list[Any]) -> dict[str, Any]:
    """[agg, field] or [agg, field, {percent: 90} | {share: {field: values}}] as the model's form
    says it."""
    said: dict[str, Any] = {"agg": measure[0], "field": measure[1]}
    extra = measure[2] if len(measure) > 2 else {}
    if "percent" in extra:
        said["percent"] = extra["percent"]
    if "share" in extra:
        said["share"] = [
            {"field": f, "values": _values(v)} for f, v in (extra["share"] or {}).items()
        ]
    return said


def _values(values: list[Any]) -> list[Any]:
    return [v if isinstance(v, bool) else str(v) for v in values]


def _day(value: Any) -> str | None:
    return None if value is None else str(value)


def _phrase(question: str, options: list[str], rules: RulesUnderstanding) -> str:
    """The phrase of the question whose candidates hold the options (the term asked about)."""
    for found in find_names(question, rules.index, skip=rules.vocabulary):
        if {c.value for c in found.candidates} & set(options):
            return found.text
    return options[0]
