"""The workers that answer from data and from the catalog (seed 000's registry table)."""

from __future__ import annotations

from datetime import date
from typing import Any

from bosun import answers, query
from bosun.catalog import Catalog
from bosun.errors import InvalidReading, UnknownEntity, UserError
from bosun.query import CompiledQuery
from bosun.understanding import Meaning, mostly_unread, normalize, replace_term, validate_meaning
from bosun.workers.baselines import has_baseline, wired_figure, with_figure
from bosun.workers.context import Context
from bosun.workers.links import has_links, wired, with_keys
from bosun.workers.models import (
    Clarification,
    Deliverable,
    ResultTable,
    WorkerInput,
    WorkerResult,
)
from bosun.workers.referents import has_referent, wired_rows, with_rows
from bosun.workers.registry import worker
from bosun.workers.slots import (
    AMBIGUITY,
    ANALYSIS,
    ANALYSIS_RESULT,
    ANSWER,
    BASELINE_FIGURE,
    CLARIFICATION_MESSAGE,
    DIAGNOSIS,
    ENTITY_OPTIONS,
    ES_QUERY,
    ES_RESULTS,
    EXPLANATION,
    FORMATTED_RESULTS,
    LINKED_KEYS,
    PAGE_RESULTS,
    POINTED_ROWS,
    QueryResults,
)
from bosun.workers.suggested import next_questions


@worker(
    "common_helpdesk",
    "Answers what a term means from the catalog's glossary",
    consumes=[],
    produces=[ANSWER],
    goal_type="deliverable",
    preconditions=["the goal asks what a term means"],
    title="define the term",
)
def common_helpdesk(wi: WorkerInput, ctx: Context) -> WorkerResult:
    defined = answers.definitions(wi.sub_goal.params.terms, ctx.catalog.glossary)
    if not defined:
        asked = wi.sub_goal.params.text or wi.sub_goal.description
        return WorkerResult.of(wi, ANSWER.of(Deliverable(text=answers.not_in_glossary(asked))))
    return WorkerResult.of(wi, ANSWER.of(Deliverable(text=defined)))


@worker(
    "explain_metadata",
    "Explains the fields of the data and what they mean",
    consumes=[],
    produces=[EXPLANATION],
    goal_type="deliverable",
    preconditions=["the goal asks about fields"],
    title="describe the fields",
)
def explain_metadata(wi: WorkerInput, ctx: Context) -> WorkerResult:
    return WorkerResult.of(
        wi, EXPLANATION.of(explain_fields(ctx.catalog, wi.sub_goal.params.terms))
    )


def explain_fields(catalog: Catalog, names: list[str]) -> Deliverable:
    """The record's fields named (all of them, as a table, when none is a field) with their types
    and meanings."""
    record = catalog.record
    asked = [f for f in names if f in record.fields]
    chosen = asked or list(record.fields)
    rows = [[name, record.fields[name].type, record.fields[name].description] for name in chosen]
    derived = [name for name in chosen if record.fields[name].derived is not None and not asked]
    table = ResultTable(
        title=answers.fields_title(record.index),
        columns=answers.field_columns(),
        rows=rows,
        total=len(rows),
    )
    return Deliverable(text=answers.field_list(rows, derived), tables=[] if asked else [table])


@worker(
    "metadata_lookup",
    "Resolves names and reads the goal's meaning against the catalog",
    consumes=[],
    produces=[ANALYSIS_RESULT, ENTITY_OPTIONS],
    goal_type="support",
    preconditions=["the goal asks about data"],
    title="read the question",
)
def metadata_lookup(wi: WorkerInput, ctx: Context) -> WorkerResult:
    params = wi.sub_goal.params
    text = params.text
    # F01's reading, or this goal's text
    meaning = params.meaning or ctx.understanding.analyze(text, ctx.today())
    meaning = _picked(meaning, params.reply, ctx)
    problems = validate_meaning(meaning, ctx.catalog)
    if problems:
        raise InvalidReading(problems)
    preface = params.preface
    if meaning.refusal is not None:
        raise UserError(preface + answers.refused(meaning.refusal, ctx.catalog, ctx.today()))
    if _says_nothing(meaning, text, ctx):
        raise UserError(preface + answers.nothing_asked(text, ctx.catalog))
    if mostly_unread(meaning):
        raise UserError(preface + answers.mostly_unread(text, meaning.not_understood, ctx.catalog))
    if meaning.unknown_terms:
        term = meaning.unknown_terms[0]
        raise UnknownEntity(term, preface + answers.unknown_term(term, ctx.catalog))
    entity = next((a for a in meaning.ambiguities if a.kind == "entity"), None)
    if entity is not None and ctx.settings.ambiguity == "ask":
        return WorkerResult.of(
            wi,
            ANALYSIS_RESULT.of(meaning),
            ENTITY_OPTIONS.of(entity),
            status="partial",
            needs=CLARIFICATION_MESSAGE.name,
            message=answers.ambiguous(entity.term),
        )
    return WorkerResult.of(wi, ANALYSIS_RESULT.of(meaning))


def _picked(meaning: Meaning, reply: str | None, ctx: Context) -> Meaning:
    """The meaning once a reply given inside the turn (interrupt mode) picked among the options."""
    entity = next((a for a in meaning.ambiguities if a.kind == "entity"), None)
    if reply is None or entity is None:
        return meaning
    chosen, rest = ctx.understanding.pick(reply, entity.options, ctx.today())
    if chosen is None:
        return meaning
    text = f"{replace_term(meaning.text, entity.term, chosen)} {rest}".strip()
    picked: Meaning = ctx.understanding.analyze(text, ctx.today())
    return picked


def _says_nothing(meaning: Meaning, text: str, ctx: Context) -> bool:
    """Nothing understood and the records not even named: empty, punctuation, another language,
    noise."""
    understood = (
        meaning.conditions
        or meaning.time
        or meaning.measures
        or meaning.group_by
        or meaning.sort
        or meaning.top_n
        or meaning.ambiguities
        or meaning.unknown_terms
    )
    nouns = {normalize(s) for s in ctx.catalog.record.synonyms}
    return not understood and not any(f" {n} " in f" {normalize(text)} " for n in nouns)


@worker(
    "es_query_gen",
    "Builds the search or aggregation query from the meaning",
    consumes=[ANALYSIS_RESULT],
    produces=[ES_QUERY, AMBIGUITY],
    goal_type="support",
    consumes_if=[
        (LINKED_KEYS, has_links),
        (BASELINE_FIGURE, has_baseline),
        (POINTED_ROWS, has_referent),
    ],
    title="build the query",
)
def es_query_gen(wi: WorkerInput, ctx: Context) -> WorkerResult:
    # a link: the keys looked up before; groups held against the overall figure: that figure
    meaning = with_keys(wi.get(ANALYSIS_RESULT), wired(wi), ctx.catalog)
    meaning = with_figure(meaning, wired_figure(wi))
    # "which of them …": the last answer's rows, handed on
    meaning = with_rows(meaning, wired_rows(wi))
    unsure = [a for a in meaning.ambiguities if a.kind in ("field", "measure")]
    compiled = query.compile(meaning, ctx.catalog)
    return WorkerResult.of(wi, ES_QUERY.of(compiled), AMBIGUITY.of(unsure))


@worker(
    "es_query_exec",
    "Runs the query on the engine, within the guardrails",
    consumes=[ES_QUERY],
    produces=[ES_RESULTS],
    goal_type="support",
    title="run the query",
)
def es_query_exec(wi: WorkerInput, ctx: Context) -> WorkerResult:
    compiled = wi.get(ES_QUERY)
    response = ctx.engine.search(compiled.index, compiled.body)
    dates = _data_span(compiled, ctx)
    table = query.tabulate(compiled, response, ctx.catalog, dates)
    table = answers.key_names(answers.part_names(table, ctx.catalog), ctx.catalog)
    results = QueryResults(table=table, query=compiled.body, meaning=compiled.meaning)
    # no group passing a threshold is an answer, not records missing
    passed = bool(compiled.meaning.steps)
    found = bool(table.rows or passed or table.considered) and not table.figureless
    return WorkerResult.of(wi, ES_RESULTS.of(results), empty=not found)


def _data_span(compiled: CompiledQuery, ctx: Context) -> tuple[date | None, date | None]:
    """The first and last date the data has on the date field a question of periods reads, whatever
    else it filters (None, None for a question without periods)."""
    field = query.period_field(compiled.meaning, ctx.catalog)
    if field is None:
        return None, None
    return query.record_dates(ctx.engine.search(compiled.index, query.coverage_query(field)))


@worker(
    "page_query",
    "Fetches one page of a search's records by offset and limit",
    consumes=[ES_QUERY],
    produces=[PAGE_RESULTS],
    goal_type="deliverable",
    preconditions=["the goal asks for records beyond the first page"],
    title="fetch a page of records",
)
def page_query(wi: WorkerInput, ctx: Context) -> WorkerResult:
    compiled = wi.get(ES_QUERY)
    meaning = compiled.meaning
    size = ctx.catalog.spec.defaults.page_size
    offset = (meaning.page - 1) * size
    if offset + size > ctx.settings.max_result_size:
        raise UserError(answers.past_the_pages(meaning.page, ctx.settings.max_result_size))
    body = {**compiled.body, "from": offset, "size": size}
    page = query.tabulate(compiled, ctx.engine.search(compiled.index, body), ctx.catalog)
    text = answers.page_line(offset, len(page.rows), page.total)
    table = ResultTable(
        title=meaning.text,
        reading=answers.read_back(meaning, ctx.catalog),
        columns=page.names,
        rows=page.rows,
        total=page.total,
        query=body,
        sub_goal_id=wi.sub_goal.id,
        roles=page.roles,
        labels=page.headings,
        units=page.units,
    )
    shown = Deliverable(
        text=text,
        tables=[table],
        assumptions=meaning.assumptions,
        not_understood=meaning.not_understood,
    )
    return WorkerResult.of(wi, PAGE_RESULTS.of(shown))


@worker(
    "show_results",
    "Shows the results as a table (template, no model); states the fields it assumed",
    consumes=[ES_RESULTS, AMBIGUITY],
    produces=[FORMATTED_RESULTS],
    goal_type="deliverable",
    title="show the table",
)
def show_results(wi: WorkerInput, ctx: Context) -> WorkerResult:
    results = wi.get(ES_RESULTS)
    # as the table was computed: a trend counts by default
    meaning = query.counted(results.meaning, ctx.catalog)
    found = results.table
    table = ResultTable(
        title=meaning.text,
        reading=answers.read_back(meaning, ctx.catalog),
        columns=found.names,
        rows=found.rows,
        total=found.total,
        query=results.query,
        sub_goal_id=wi.sub_goal.id,
        period_names=answers.period_names(found.names, found.rows, meaning.interval),
        roles=found.roles,
        labels=found.headings,
        units=found.units,
    )
    unsure = wi.get(AMBIGUITY)
    assumed = answers.assumptions(results.meaning, unsure, ctx.engine.kind, ctx.catalog)
    shown = Deliverable(
        text=answers.describe(results.meaning, found, ctx.catalog),
        tables=[table],
        not_understood=meaning.not_understood,
        assumptions=[*meaning.assumptions, *assumed],
        choices=answers.choices(results.meaning, unsure, ctx.catalog),
        suggestions=next_questions(meaning, found, ctx),
    )
    return WorkerResult.of(wi, FORMATTED_RESULTS.of(shown))


@worker(
    "analyze_results",
    "States comparisons, rankings and trends computed from the results",
    consumes=[ES_RESULTS],
    produces=[ANALYSIS],
    goal_type="deliverable",
    preconditions=["the goal compares, ranks or follows a trend"],
    title="analyse the figures",
)
def analyze_results(wi: WorkerInput, ctx: Context) -> WorkerResult:
    results = wi.get(ES_RESULTS)
    said = answers.analysis(results.meaning, results.table, ctx.catalog)
    return WorkerResult.of(wi, ANALYSIS.of(Deliverable(text=said)))


@worker(
    "clarify_question",
    "Asks which of several matching names was meant",
    consumes=[ENTITY_OPTIONS],
    produces=[CLARIFICATION_MESSAGE],
    goal_type="deliverable",
    title="ask which one was meant",
)
def clarify_question(wi: WorkerInput, ctx: Context) -> WorkerResult:
    found = wi.get(ENTITY_OPTIONS)
    asked = Clarification.about(found.term, found.options, wi.sub_goal.params.preface)
    return WorkerResult.of(
        wi, CLARIFICATION_MESSAGE.of(Deliverable(text=asked.text, clarification=asked))
    )


@worker(
    "diagnose_query",
    "Finds which filter emptied a result",
    consumes=[ES_QUERY],
    produces=[DIAGNOSIS],
    goal_type="deliverable",
    reviews_empty=True,
    title="find what emptied the result",
)
def diagnose_query(wi: WorkerInput, ctx: Context) -> WorkerResult:
    compiled = wi.get(ES_QUERY)
    return WorkerResult.of(
        wi,
        DIAGNOSIS.of(Deliverable(text=answers.diagnosis(_culprits(compiled, ctx), ctx.catalog))),
    )


def _culprits(compiled: CompiledQuery, ctx: Context) -> list[dict[str, Any]]:
    """The query's filters that, dropped alone, would find records."""
    clauses = compiled.body["query"]["bool"]["filter"]
    culprits = []
    for i, clause in enumerate(clauses):
        rest = [c for j, c in enumerate(clauses) if j != i]
        if ctx.engine.count(compiled.index, {"query": {"bool": {"filter": rest}}}) > 0:
            culprits.append(clause)
    return culprits
