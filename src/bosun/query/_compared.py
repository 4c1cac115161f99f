"""Periods side by side and set logic over groups, as Elasticsearch DSL and as an answer table
(issue 23).

    "TEU by carrier, 2024 vs 2025"         → query: the records of either period (nothing between
    them is read);
                                             per carrier, a `filter` agg for each period (p0, p1)
                                             holding the
                                             measures
    "vessels that called at both A and B"  → terms on the vessel; a `filter` agg per value (has0,
    has1) and a
                                             `bucket_selector` keeping the vessels where each is
                                             above zero
    "shippers using MSC but never Maersk"  → the records of MSC or Maersk; per shipper, the measures
    over the
                                             MSC records (`kept`), a `filter` agg on Maersk (`none`)
                                             and a
                                             `bucket_selector` keeping the shippers where it is zero

`querygen` calls this module with its own helpers (the filters of a meaning, its metric aggs) so
that one compiler speaks for both. Scripts are the vetted template of `engines.scripts`: comparisons
of bucket counts, no user or model text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bosun.query import _measures
from bosun.query.table import Column, Table
from bosun.understanding.meaning import Change, HasAll, HasNone, Meaning, TimeFilter
from bosun.understanding.readback import date_span

Clauses = Callable[[Meaning], list[dict[str, Any]]]
Values = Callable[[Meaning, dict[str, Any]], list[Any]]
PRECISION = 40000  # cardinality's cap on Elasticsearch, below which its count of groups is exact


def applies(meaning: Meaning) -> bool:
    return meaning.intent_type == "aggregation" and bool(meaning.periods or _sets(meaning))


def build(
    meaning: Meaning, clauses_of: Clauses, metrics: dict[str, Any], cap: int
) -> dict[str, Any]:
    """The query of periods side by side or of set logic over groups (see the module's
    docstring)."""
    widened = [c for c in meaning.conditions if c.field not in {s.field for s in _nones(meaning)}]
    clauses = clauses_of(meaning.model_copy(update={"conditions": widened}))
    clauses += [_either(meaning.periods)] if meaning.periods else []
    clauses += [
        clause for s in _nones(meaning) if (clause := _records_of_sets(meaning, s)) is not None
    ]
    inner = _inner(meaning, metrics)
    body: dict[str, Any] = {
        "query": {"bool": {"filter": clauses}},
        "track_total_hits": True,
        "size": 0,
    }
    if not meaning.group_by:
        body["aggs"] = inner
        return body
    group = meaning.group_by[0]
    body["aggs"] = {"g": {"terms": {"field": group, "size": cap}, "aggs": inner}}
    if _sets(meaning):
        kept = _kept(meaning)
        counted = {"n": {"cardinality": {"field": group, "precision_threshold": PRECISION}}}
        body["aggs"]["of"] = {"filter": kept if kept else {"match_all": {}}, "aggs": counted}
    return body


def _inner(meaning: Meaning, metrics: dict[str, Any]) -> dict[str, Any]:
    """What each group (or the whole) holds: the measures per period, or over the kept records, and
    the tests."""
    if meaning.periods:
        return {
            f"p{i}": {"filter": _range(p), **({"aggs": metrics} if metrics else {})}
            for i, p in enumerate(meaning.periods)
        }
    kept = _kept(meaning)
    inner: dict[str, Any] = dict(metrics)
    prefix = ""
    if kept is not None:  # the measures are over the kept records only
        inner = {"kept": {"filter": kept, **({"aggs": metrics} if metrics else {})}}
        prefix = "kept>"
    inner |= _tests(meaning)
    first = meaning.measures[0] if meaning.measures else None
    path = f"{prefix}m0" if first is not None and first.field else f"{prefix}_count"
    ranked: dict[str, Any] = {"sort": [{path: {"order": meaning.order}}]}
    if meaning.top_n:  # after the selector: the top N of the groups that passed
        ranked["size"] = meaning.top_n
    inner["ranked"] = {"bucket_sort": ranked}
    return inner


def _tests(meaning: Meaning) -> dict[str, Any]:
    """A `filter` agg for each value a group must have (has0, has1 …) or must not (none), and the
    selector."""
    aggs: dict[str, Any] = {}
    tests: list[str] = []
    paths: dict[str, str] = {}
    for step in _sets(meaning):
        if isinstance(step, HasAll):
            for value in step.values:
                name = f"has{len([k for k in aggs if k.startswith('has')])}"
                aggs[name] = {"filter": {"term": {step.field: value}}}
                paths[name] = f"{name}>_count"
                tests.append(f"params.{name} > 0")
        else:
            name = f"none{len([k for k in aggs if k.startswith('none')])}"
            aggs[name] = {"filter": {"terms": {step.field: list(step.values)}}}
            paths[name] = f"{name}>_count"
            tests.append(f"params.{name} == 0")
    if _kept(meaning):
        paths["kept"] = "kept>_count"
        tests.append("params.kept > 0")
    aggs["keep"] = {"bucket_selector": {"buckets_path": paths, "script": " && ".join(tests)}}
    return aggs


def _kept(meaning: Meaning) -> dict[str, Any] | None:
    """ "using MSC but never Maersk": the records measured are MSC's (the query also reads Maersk's,
    to test)."""
    for step in _nones(meaning):
        wanted = [
            v
            for c in meaning.conditions
            if c.field == step.field and not c.negate
            for v in c.values
        ]
        if wanted:
            return {"terms": {step.field: wanted}}
    return None


def _records_of_sets(meaning: Meaning, step: HasNone) -> dict[str, Any] | None:
    """The records a has-none test reads: the values measured and the values excluded, of that field
    (all of its records when none is measured: "carriers that never called at Honolulu")."""
    wanted = [
        v for c in meaning.conditions if c.field == step.field and not c.negate for v in c.values
    ]
    return {"terms": {step.field: [*wanted, *step.values]}} if wanted else None


def _either(periods: list[TimeFilter]) -> dict[str, Any]:
    return {"bool": {"should": [_range(p) for p in periods], "minimum_should_match": 1}}


def _range(period: TimeFilter) -> dict[str, Any]:
    bounds = {
        op: day.isoformat()
        for op, day in (("gte", period.start), ("lte", period.end))
        if day is not None
    }
    return {"range": {period.field: bounds}}


def _sets(meaning: Meaning) -> list[HasAll | HasNone]:
    return [s for s in meaning.steps if isinstance(s, HasAll | HasNone)]


def _nones(meaning: Meaning) -> list[HasNone]:
    return [s for s in meaning.steps if isinstance(s, HasNone)]


# -- the answer table ------------------------------------------------------------------------------
def table(meaning: Meaning, response: dict[str, Any], values: Values) -> Table:
    """A group's row holds each period's figures and the change, or its set figures."""
    aggs = response.get("aggregations", {})
    if not meaning.periods:
        return _sets_table(meaning, aggs, values)
    keys = [Column(name=field, role="key") for field in meaning.group_by[:1]]
    buckets = aggs["g"]["buckets"] if meaning.group_by else [aggs]
    rows = [
        [*([b["key"]] if meaning.group_by else []), *_period_figures(meaning, b, values)]
        for b in buckets
    ]
    figures = [
        Column(name=f"{m.label} · {_heading(p)}", role="figure", measure=j, period=i)
        for j, m in enumerate(meaning.measures)
        for i, p in enumerate(meaning.periods)
    ]
    changes = [Column(name="change", role="change"), Column(name="change %", role="change_percent")]
    compared = Table(columns=[*keys, *figures, *changes], rows=rows, total=len(rows))
    return _ranked(meaning, compared) if meaning.group_by else compared


def _sets_table(meaning: Meaning, aggs: dict[str, Any], values: Values) -> Table:
    """The groups that passed the set logic, with their figures (over the kept records alone)."""
    kept = _kept(meaning) is not None
    rows = [[b["key"], *values(meaning, b["kept"] if kept else b)] for b in aggs["g"]["buckets"]]
    key = Column(name=meaning.group_by[0], role="key")
    return Table(columns=[key, *_measures.columns(meaning.measures)], rows=rows, total=len(rows))


def _period_figures(meaning: Meaning, bucket: dict[str, Any], values: Values) -> list[Any]:
    """Each measure in each period, then the first measure's change from the first period to the
    last."""
    per_period = [values(meaning, bucket[f"p{i}"]) for i in range(len(meaning.periods))]
    figures = [period[j] for j in range(len(meaning.measures)) for period in per_period]
    return [*figures, *_change(per_period[0][0], per_period[-1][0])]


def _change(before: Any, after: Any) -> tuple[float | int | None, float | None]:
    """The change and the change in percent (none from nothing: a figure of 0 or missing)."""
    if not isinstance(before, int | float) or not isinstance(after, int | float):
        return None, None
    difference = after - before
    difference = round(difference, 2) if isinstance(difference, float) else difference
    percent = round(100 * (after - before) / before, 1) if before else None
    return difference, percent


def _ranked(meaning: Meaning, table: Table) -> Table:
    """Groups ranked by the change (in percent when asked) when the meaning ranks a change, else by
    the later period's first figure; the top N kept. Done on the response, not in the DSL: a
    bucket_sort on a bucket_script of the two periods would need the script to divide by a period's
    figure, which may be zero, and a group missing a period has no change to rank (it goes last,
    never first)."""
    steps = [s for s in meaning.steps if isinstance(s, Change)]
    if not (steps or meaning.top_n):
        return table

    def ranked_by(row: list[Any]) -> Any:
        if not steps:
            return table.figure(row, measure=0, period=len(meaning.periods) - 1)
        return table.cell(row, "change_percent" if steps[0].percent else "change")

    present = [r for r in table.rows if ranked_by(r) is not None]
    ordered = sorted(present, key=ranked_by, reverse=meaning.order == "desc")
    ordered += [r for r in table.rows if ranked_by(r) is None]
    kept = ordered[: meaning.top_n] if meaning.top_n else ordered
    return table.model_copy(update={"rows": kept, "total": len(kept)})


def considered(meaning: Meaning, response: dict[str, Any]) -> int | None:
    """How many groups the set logic tested (each had records of what it measures), for "N of M
    passed"."""
    found = response.get("aggregations", {}).get("of", {}).get("n", {}).get("value")
    return int(found) if found is not None and _sets(meaning) else None


def _heading(period: TimeFilter) -> str:
    """A period's column heading, as the reading says dates: "Q1 2025", "6 Jan 2025 to 3 Mar
    2025"."""
    return date_span(period.start, period.end) or "all dates"
