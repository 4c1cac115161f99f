"""F06 with `BOSUN_LLM_RAW_DSL=true`: the model may add one filter clause for the words a Meaning
could not use.

The query is still compiled from the validated Meaning; the model's clause only joins it as one more
filter, so it can narrow the records, never widen them or reach another index. Before it is used the
clause is checked: one of a few read-only query kinds, over the catalog's fields only, for words the
reading did not understand; then the combined query goes through the engine's guardrails in a dry
run (size 0). A refused clause gets one retry with the problems (the engine's own error among them);
after that the words stay not understood, as without the model, and the answer says so.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field

from bosun.chat import ChatClient
from bosun.errors import ModelFailure, UserError
from bosun.ledger import fell_back
from bosun.query import CompiledQuery
from bosun.workers.context import Context
from bosun.workers.models import WorkerInput, WorkerResult
from bosun.workers.registry import Registry, Worker, WorkerFn
from bosun.workers.slots import ES_QUERY

LEAVES = {"term", "terms", "match", "match_phrase", "range", "prefix", "exists"}
BOOL_PARTS = {"must", "filter", "should", "must_not"}


class ModelClause(BaseModel):
    clause: dict[str, Any] | None = Field(
        None, description="one query DSL clause over the fields listed, or null"
    )
    words: list[str] = Field(
        default_factory=list, description="the words not understood that the clause expresses"
    )


def with_raw_dsl(registry: Registry, client: ChatClient) -> Registry:
    """A copy of the registry whose es_query_gen lets the model add a clause for words not
    understood."""
    if "es_query_gen" not in registry.workers:
        return registry
    inner = registry.workers["es_query_gen"]
    extended = Worker(inner.capability, _extended(inner.fn, client), inner.produces)
    return Registry({**registry.workers, "es_query_gen": extended})


def _extended(inner: WorkerFn, client: ChatClient) -> WorkerFn:
    def query_gen(wi: WorkerInput, ctx: Context) -> WorkerResult:
        result = inner(wi, ctx)
        query = result.get(ES_QUERY)
        if result.status == "failed" or query is None or not query.meaning.not_understood:
            return result
        asked = _ask(client, wi, ctx, query)
        if asked is None or asked.clause is None:
            return result
        return result.with_filled(ES_QUERY.of(_joined(query, asked)))

    return query_gen


def _ask(
    client: ChatClient, wi: WorkerInput, ctx: Context, query: CompiledQuery
) -> ModelClause | None:
    meaning = query.meaning
    values = {
        "index": meaning.index,
        "words": ", ".join(meaning.not_understood),
        "question": wi.sub_goal.params.text or meaning.text,
        "fields": "\n".join(f.line(n) for n, f in ctx.catalog.record.fields.items()),
    }
    try:
        asked = client.ask("raw_dsl", ModelClause, values, lambda c: _problems(c, query, ctx))
    except ModelFailure as exc:
        _unused(str(exc))
        return None
    if asked.value is None:
        _unused("; ".join(asked.problems))
    return asked.value


def _unused(why: str) -> None:
    fell_back(
        "raw_dsl",
        f"The model's query clause was not used ({why[:200]}); the words it was for were left out.",
    )


def _problems(asked: ModelClause, query: CompiledQuery, ctx: Context) -> list[str]:
    if asked.clause is None:
        return []
    unread = {w.lower() for w in query.meaning.not_understood}
    found = [
        f"{w!r} is not among the words not understood"
        for w in asked.words
        if w.lower() not in unread
    ]
    found += [] if asked.words else ["name the words the clause expresses"]
    found += clause_problems(asked.clause, set(ctx.catalog.record.fields))
    if found:
        return found
    try:  # the dry run: the engine's guardrails and parser see the query as it would run
        ctx.engine.search(query.index, {"size": 0, "query": _filtered(query.body, asked.clause)})
    except UserError as exc:
        return [f"the engine refused the query: {exc}"]
    return []


def clause_problems(clause: Any, fields: set[str]) -> list[str]:
    """Why `clause` is not one read-only query over `fields` (bool of term, terms, match, range,
    exists …).

    Our own walk, because the engines' DSL parsers accept far more (scripts, joins, other indices'
    fields) than a model's clause may use.
    """
    if not isinstance(clause, dict) or len(clause) != 1:
        return [f"a clause is an object with one query kind, not {json.dumps(clause)[:80]}"]
    ((kind, spec),) = clause.items()
    if kind == "bool":
        return _bool_problems(spec, fields)
    if kind not in LEAVES:
        return [f"{kind!r} is not allowed here; use {', '.join(sorted(LEAVES | {'bool'}))}"]
    if not isinstance(spec, dict):
        return [f"{kind} takes an object"]
    named = [spec.get("field")] if kind == "exists" else list(spec)
    return [f"unknown field {f!r}" for f in named if f not in fields]


def _bool_problems(spec: Any, fields: set[str]) -> list[str]:
    if not isinstance(spec, dict):
        return ["bool takes an object"]
    found = [f"bool has no {k!r}" for k in spec if k not in BOOL_PARTS | {"minimum_should_match"}]
    for part in BOOL_PARTS & set(spec):
        clauses = spec[part] if isinstance(spec[part], list) else [spec[part]]
        for inner in clauses:
            found += clause_problems(inner, fields)
    return found


def _filtered(body: dict[str, Any], clause: dict[str, Any]) -> dict[str, Any]:
    """The body's query with `clause` as one more filter: it can only narrow what the query
    matches."""
    return {"bool": {"filter": [body["query"], clause] if "query" in body else [clause]}}


def _joined(query: CompiledQuery, asked: ModelClause) -> CompiledQuery:
    meaning = query.meaning
    assert asked.clause is not None
    said = {w.lower() for w in asked.words}
    read = meaning.model_copy(
        update={
            "not_understood": [w for w in meaning.not_understood if w.lower() not in said],
            "assumptions": [
                *meaning.assumptions,
                f"“{' '.join(asked.words)}” read by the model as the filter "
                f"{json.dumps(asked.clause, ensure_ascii=False)}",
            ],
        }
    )
    body = {**query.body, "query": _filtered(query.body, asked.clause)}
    return query.model_copy(update={"body": body, "meaning": read})
