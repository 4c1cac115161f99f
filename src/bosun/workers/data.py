"""The workers that answer from data and from the catalog (seed 000's registry table)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from bosun import query
from bosun.catalog import Catalog
from bosun.catalog.schema import Better
from bosun.errors import InvalidReading, UnknownEntity, UserError
from bosun.query import CompiledQuery, Table
from bosun.understanding import (
    Ambiguity,
    Meaning,
    Measure,
    Refusal,
    constraints_in_text,
    date_span,
    day_name,
    english,
    listed_noun,
    measure_words,
    normalize,
    period_cell,
    period_names,
    read_back,
    replace_term,
    validate_meaning,
)
from bosun.workers import compared_words, measure_text, steptext
from bosun.workers.context import Context
from bosun.workers.judged import better_way, verdict
from bosun.workers.links import has_links, wired, with_keys
from bosun.workers.models import Clarification, Deliverable, ResultTable, WorkerInput, WorkerResult
from bosun.workers.names import code_names, part_names, with_names
from bosun.workers.registry import worker
from bosun.workers.slots import (
    AMBIGUITY,
    ANALYSIS,
    ANALYSIS_RESULT,
    ANSWER,
    CLARIFICATION_MESSAGE,
    DIAGNOSIS,
    ENTITY_OPTIONS,
    ES_QUERY,
    ES_RESULTS,
    EXPLANATION,
    FORMATTED_RESULTS,
    LINKED_KEYS,
    PAGE_RESULTS,
    QueryResults,
)


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
    glossary = ctx.catalog.glossary
    lines = [f"**{t}**: {glossary[t]}" for t in wi.sub_goal.params.terms if t in glossary]
    if not lines:
        asked = wi.sub_goal.params.text or wi.sub_goal.description
        return WorkerResult.of(
            wi,
            ANSWER.of(
                Deliverable(text=f"I don't know the term “{asked}”; it is not in the glossary.")
            ),
        )
    return WorkerResult.of(wi, ANSWER.of(Deliverable(text="\n\n".join(lines))))


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
    text = "\n".join(
        f"- **{name}** ({kind}): {description}"
        for name, kind, description in rows
        if name not in derived
    )
    if derived:  # date parts, one line: the table lists each
        text += f"\n- derived at load (date parts): {', '.join(derived)}"
    table = ResultTable(
        title=f"fields of {record.index}",
        columns=["field", "type", "description"],
        rows=rows,
        total=len(rows),
    )
    return Deliverable(text=text, tables=[] if asked else [table])


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
        raise UserError(f"{preface}{refused(meaning.refusal, ctx)}")
    if _says_nothing(meaning, text, ctx):
        record = ctx.catalog.record
        raise UserError(
            f"{preface}I could not find a question about the data in “{text[:80]}”. Ask about "
            f"{record.index}, "
            f"for example by {', '.join(_examples(ctx))}, a date range, or a measure such as "
            f"{', '.join(list(ctx.catalog.spec.measures)[:3])}."
        )
    if _mostly_unread(meaning):
        unread = ", ".join(f"“{w}”" for w in meaning.not_understood)
        raise UserError(
            f"{preface}I could not read most of “{text[:80]}”: I did not understand {unread}. Ask "
            "about "
            f"{ctx.catalog.record.index} in other words, for example by "
            f"{', '.join(_examples(ctx))}."
        )
    if meaning.unknown_terms:
        kinds = ", ".join(ctx.catalog.spec.entities)
        raise UnknownEntity(
            meaning.unknown_terms[0],
            f"{preface}I don't know “{meaning.unknown_terms[0]}”: nothing "
            f"in the data is called that (I looked among: {kinds}).",
        )
    entity = next((a for a in meaning.ambiguities if a.kind == "entity"), None)
    if entity is not None and ctx.settings.ambiguity == "ask":
        return WorkerResult.of(
            wi,
            ANALYSIS_RESULT.of(meaning),
            ENTITY_OPTIONS.of(entity),
            status="partial",
            needs=CLARIFICATION_MESSAGE.name,
            message=f"“{entity.term}” is ambiguous",
        )
    return WorkerResult.of(wi, ANALYSIS_RESULT.of(meaning))


_REFUSED = {
    "future": "The data records what has happened, up to {today}: it holds no forecasts, so I cannot tell what will "
    "happen ({words}).",
    "cause": "The data records what happened, not why: I cannot tell the cause ({words}).",
    "no_measure": "The data holds no {words}, so I cannot give a figure for it.",
    "opinion": "{words} is a judgement the data does not hold, so I cannot rank by it.",
    "no_date_part": "The data has no field for {words} (no time of day, weekday or month derived from its dates), "
    "so I cannot give a figure for it.",
}


def refused(refusal: Refusal, ctx: Context) -> str:
    """Why the data cannot answer, and what it can tell instead (the catalog's measures)."""
    words = " ".join(f"“{w}”" for w in refusal.words) or "this"
    said = _REFUSED[refusal.reason].format(today=day_name(ctx.today()), words=words)
    measures = [spec.label for spec in ctx.catalog.spec.measures.values()][:6]
    return (
        f"{said} I can tell what happened in {ctx.catalog.record.index}: {', '.join(measures)}, by "
        "any of its "
        f"fields and dates."
    )


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


def _mostly_unread(meaning: Meaning) -> bool:
    """More words not understood than parts of a meaning read: no reading to answer with."""
    read = (
        len(meaning.conditions) + len(meaning.measures) + len(meaning.group_by) + len(meaning.sort)
    )
    read += (
        int(meaning.time is not None)
        + int(meaning.interval is not None)
        + int(meaning.lookup is not None)
    )
    return len(meaning.not_understood) >= 2 and len(meaning.not_understood) > read


def _examples(ctx: Context) -> list[str]:
    """Up to three words to ask by: the names' entities, else the record's dimensions, else its
    measures, so a catalog without names (a file of numbers and codes) still offers some."""
    entities = [spec.words[0] for spec in ctx.catalog.spec.entities.values() if spec.words]
    dimensions = [
        (field.synonyms or [name.replace("_", " ")])[0]
        for name, field in ctx.catalog.record.fields.items()
        if field.role == "dimension"
    ]
    measures = [spec.words[0] for spec in ctx.catalog.spec.measures.values() if spec.words]
    return (entities or dimensions or measures)[:3]


@worker(
    "es_query_gen",
    "Builds the search or aggregation query from the meaning",
    consumes=[ANALYSIS_RESULT],
    produces=[ES_QUERY, AMBIGUITY],
    goal_type="support",
    consumes_if=[(LINKED_KEYS, has_links)],
    title="build the query",
)
def es_query_gen(wi: WorkerInput, ctx: Context) -> WorkerResult:
    # a link: the keys looked up before
    meaning = with_keys(wi.get(ANALYSIS_RESULT), wired(wi), ctx.catalog)
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
    table = part_names(table, ctx.catalog)
    results = QueryResults(table=table, query=compiled.body, meaning=compiled.meaning)
    # no group passing a threshold is an answer, not records missing
    passed = bool(compiled.meaning.steps)
    found = bool(table.rows or passed or table.considered)
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
        raise UserError(
            f"Page {meaning.page} is past the first {ctx.settings.max_result_size:,} records, the "
            "most "
            "Bosun reads for one question; narrow it down with a date range or a filter instead."
        )
    body = {**compiled.body, "from": offset, "size": size}
    page = query.tabulate(compiled, ctx.engine.search(compiled.index, body), ctx.catalog)
    rows, total = page.rows, page.total
    end = offset + len(rows)
    if rows:
        text = f"Records {offset + 1:,}–{end:,} of {total:,}" + (
            "; there are more." if end < total else "."
        )
    else:
        text = f"There are {total:,} matching records: none beyond the first {offset:,}."
    table = ResultTable(
        title=meaning.text,
        reading=read_back(meaning, ctx.catalog),
        columns=page.names,
        rows=rows,
        total=total,
        query=body,
        sub_goal_id=wi.sub_goal.id,
        roles=page.roles,
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
        reading=read_back(meaning, ctx.catalog),
        columns=found.names,
        rows=found.rows,
        total=found.total,
        query=results.query,
        sub_goal_id=wi.sub_goal.id,
        period_names=period_names(found.names, found.rows, meaning.interval),
        roles=found.roles,
    )
    said = results.model_copy(update={"table": _with_names(found, meaning, ctx.catalog)})
    over = _Over.of(meaning, ctx.catalog)
    noun = _noun(meaning, ctx, max(_rows_named(found, meaning), found.considered or 0))
    if query.compares(meaning):  # periods side by side, set logic over groups
        text = compared_words.summary(meaning, said, noun, over.which if over.said else "", _figure)
    # thresholds, top N within groups, running totals, changes, averages per period
    elif meaning.steps:
        text = steptext.summary(said, lambda count: _noun(meaning, ctx, count), over.which)
    else:
        text = _summary(meaning, said.table, noun, over)
    unsure = wi.get(AMBIGUITY)
    assumed = [_assumed(a, meaning) for a in unsure]
    if not any(a.kind == "field" and meaning.time and a.term == meaning.time.text for a in unsure):
        assumed += _dates(meaning)
    assumed += measure_text.notes(meaning, ctx.engine.kind)
    if meaning.interval not in (None, "day") and meaning.top_n and not meaning.group_by:
        assumed.append(
            f"only whole {meaning.interval}s are ranked: one cut short by the dates asked or by "
            "the "
            "first or last day in the data is left out"
        )
    shown = Deliverable(
        text=text,
        tables=[table],
        not_understood=meaning.not_understood,
        assumptions=[*meaning.assumptions, *assumed],
    )
    return WorkerResult.of(wi, FORMATTED_RESULTS.of(shown))


def _with_names(table: Table, meaning: Meaning, catalog: Catalog) -> Table:
    """The table as the text says it: a grouping's codes with their names, where the catalog has
    them."""
    if not meaning.group_by:
        return table
    names = code_names(catalog, meaning.group_by[0])
    return with_names(table, meaning.group_by[0], names) if names else table


def _rows_named(table: Table, meaning: Meaning) -> int:
    """How many things the rows are: the groups (each once, whatever its periods), else the
    rows."""
    if not meaning.group_by:
        return len(table.rows)
    return len({table.key(row) for row in table.rows})


def _assumed(ambiguity: Ambiguity, meaning: Meaning) -> str:
    """Scenario 1, option B: go on with the default, and say which others it could have been."""
    others = " or ".join(o for o in ambiguity.options if o != ambiguity.default)
    dated = meaning.time is not None and ambiguity.term == meaning.time.text and _dates(meaning)
    dates = f", {_span(meaning)}" if dated else ""
    return f"“{ambiguity.term}” read as {ambiguity.default}{dates}; it could also mean {others}"


_YEAR = re.compile(r"\b\d{4}\b")


def _dates(meaning: Meaning) -> list[str]:
    """Time words that give no year ("last month", "in March", "Q3") are said with the dates they
    were read as."""
    time = meaning.time
    if time is None or _YEAR.search(time.text):
        return []
    return [f"“{time.text or 'the dates'}” read as {_span(meaning)}"]


def _span(meaning: Meaning) -> str:
    assert meaning.time is not None
    return date_span(meaning.time.start, meaning.time.end) or "until now"


def _noun(meaning: Meaning, ctx: Context, count: int) -> str:
    """What a grouping's rows are called, agreeing with their count: the grouped field's first
    synonym ("carrier"), its plural among the synonyms ("carriers"), else the field's name."""
    if not meaning.group_by:
        return f"{meaning.interval}{'' if count == 1 else 's'}" if meaning.interval else "periods"
    spec = ctx.catalog.record.fields.get(meaning.group_by[0])
    if spec is not None and spec.derived is not None:  # "days of the week"
        one, several = english().date_parts.nouns[spec.derived.part]
        return one if count == 1 else several
    if spec is None or not spec.synonyms:
        return meaning.group_by[0].replace("_", " ")
    noun = spec.synonyms[0]
    plural = next((s for s in spec.synonyms if s != noun and english().singular(s) == noun), None)
    return noun if count == 1 or plural is None else plural


@dataclass(frozen=True)
class _Over:
    """The records a figure was computed over, in the reading's words: "shipments", "carrier
    MAERSK", …"""

    records: str
    said: list[str]
    catalog: Catalog

    @classmethod
    def of(cls, meaning: Meaning, catalog: Catalog) -> _Over:
        # listings too
        return cls(
            listed_noun(meaning.index, catalog), constraints_in_text(meaning, catalog), catalog
        )

    @property
    def which(self) -> str:
        """ "with port of unlading CHARLESTON and arrival date 2026-05-01 to 2026-05-31", or "in
        all"."""
        if not self.said:
            return "in all"
        listed = ", ".join(self.said[:-1])
        return f"with {listed} and {self.said[-1]}" if listed else f"with {self.said[0]}"


_NAMED = 10  # the objects a listing names in its text; the rest are in its table


def _objects_named(meaning: Meaning, table: Table, catalog: Catalog) -> str:
    """A listing of reference objects names them ("3 carriers with alliance Premier Alliance: HMM,
    ONE, YANG MING"); records are too many to name and are only counted."""
    if meaning.index == catalog.record.index or not table.rows:
        return ""
    names = ", ".join(str(table.key(row)) for row in table.rows[:_NAMED])
    rest = table.total - min(len(table.rows), _NAMED)
    return f": {names}" + (f" and {rest:,} more" if rest > 0 else "")


def _summary(meaning: Meaning, table: Table, noun: str, over: _Over) -> str:
    if meaning.intent_type == "search":
        return _found(meaning, table, over)
    rows = table.rows
    if measure_text.special(meaning):
        records = f"the {over.records} {over.which}" if over.said else f"all {over.records}"
        return measure_text.summary(meaning, table, noun, records, over.catalog)
    if not rows:
        return "No rows match."
    figures = list(zip(meaning.measures, table.figures(rows[0]), strict=True))
    # one number, or the one asked
    if len(rows) == 1 and figures and not (meaning.interval and not meaning.top_n):
        labels = table.labels(rows[0])
        if labels:
            return f"{_key(labels[:1], meaning)} — {_stated(figures)}."
        return f"{_one_figure(figures, over)}."
    return _listing(meaning, table, noun)


def _found(meaning: Meaning, table: Table, over: _Over) -> str:
    """How many records (or objects) a search found, the first few named where they are objects,
    and the first by the order asked."""
    rows, total = table.rows, table.total
    more = "" if meaning.top_n else "; ask for page 2 for more"
    shown = f" (showing the first {len(rows)}{more})" if total > len(rows) else ""
    named = _objects_named(meaning, table, over.catalog)
    first = _first_by_sort(meaning, table)
    return f"{total:,} {over.records} {over.which}{named}{shown}.{first}"


def _one_figure(figures: list[tuple[Measure, Any]], over: _Over) -> str:
    """A figure naming what it counts and over which records: "67 shipments with port of unlading
    CHARLESTON and arrival date 2026-05-01 to 2026-05-31", "Total TEU of the shipments with …:
    12,345"."""
    if len(figures) == 1 and _counts(figures[0][0]):
        return f"{_stated(figures)} {over.which}"
    records = f"the {over.records} {over.which}" if over.said else f"all {over.records}"
    if len(figures) == 1:
        said = f"{measure_words(figures[0][0])} of {records}: {_figure(figures[0][1])}"
        return said[0].upper() + said[1:]
    return f"Of {records}: {_stated(figures)}"


def _stated(figures: list[tuple[Measure, Any]]) -> str:
    """Figures with what each is: "67 shipments", "total TEU: 1,234", "average transit days:
    23.50"."""
    return "; ".join(
        f"{_figure(value)} {measure.label}"
        if _counts(measure)
        else f"{measure_words(measure)}: {_figure(value)}"
        for measure, value in figures
    )


def _counts(measure: Measure) -> bool:
    """A count of records or of values reads as a number of them: "67 shipments", "12 distinct
    carriers"."""
    return measure.agg in ("count", "cardinality")


def _first_by_sort(meaning: Meaning, table: Table) -> str:
    """ "the heaviest shipment": the record at the top of the order, with the figure it was ordered
    by."""
    if not meaning.sort or not table.rows or meaning.sort[0][0] not in table.names:
        return ""
    field, direction = meaning.sort[0]
    first = table.rows[0]
    value = table.value(first, field)
    if value is None:
        return ""
    side = "highest" if direction == "desc" else "lowest"
    return (
        f" First, with the {side} {field.replace('_', ' ')}: {table.key(first)} ({_figure(value)})."
    )


def _listing(meaning: Meaning, table: Table, noun: str) -> str:
    """Several rows in words: "The top 5 shipper by TEU: A 1,234 TEU; B 1,100 TEU; … and 3 more"."""
    rows = table.rows
    more = f"; and {len(rows) - _LISTED} more in the table" if len(rows) > _LISTED else ""
    figure = table.column("figure")
    if figure is None:  # "which carriers serve X": the values alone
        named = ", ".join(str(_label(table, r)) for r in rows[:_LISTED])
        return f"{len(rows)} {noun}: {named}{more}."
    unit = meaning.measures[0].unit if meaning.measures else None
    shown = "; ".join(
        f"{_key(table.labels(row), meaning)} {_figure(table.figure(row), unit)}"
        for row in rows[:_LISTED]
    )
    groups = _rows_named(table, meaning) if meaning.interval else len(rows)
    return f"{_heading(meaning, groups, figure.name, noun)}: {shown}{more}."


_LISTED = 5


def _key(cells: list[Any], meaning: Meaning) -> str:
    """What a row is, in words: its group and its period ("MAERSK January 2025")."""
    return " ".join(str(period_cell(v, meaning.interval)) for v in cells)


def _heading(meaning: Meaning, count: int, label: str, what: str) -> str:
    """What the rows are: "The top 5 carrier by TEU", "TEU per month, 12 months", "Only 3 port
    match"."""
    if meaning.interval and not meaning.group_by and not meaning.top_n:
        return f"{label} per {meaning.interval}, {count} {meaning.interval}s"
    if meaning.interval:  # groups by period: "TEU per month for 2 carriers"
        return f"{label} per {meaning.interval} for {count} {what}"
    if meaning.top_n and count < meaning.top_n:
        return f"Only {count} {what} match, by {label}"
    if meaning.top_n:
        side = "top" if meaning.order == "desc" else "bottom"
        return f"The {side} {count} {what} by {label}"
    return f"{count} {what} by {label}"


def _figure(value: Any, unit: str | None = None) -> str:
    """A figure as a person reads it: thousands separated, the unit after it."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    number = (
        f"{value:,}"
        if isinstance(value, int)
        else f"{value:,.2f}"
        if abs(value) >= 1
        else f"{value:.4g}"
    )
    return f"{number} {unit}" if unit else number


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
    betters = [better_way(ctx.catalog, m) for m in results.meaning.measures]
    said = [_analysis(results, betters[0] if betters else None), _other_measures(results, betters)]
    return WorkerResult.of(wi, ANALYSIS.of(Deliverable(text=" ".join(t for t in said if t))))


def _other_measures(results: QueryResults, betters: list[Better | None]) -> str:
    """Groups compared on several measures ("their volumes and average transit times"): after the
    first, each further measure's leader, judged the catalog's way ("EVERGREEN has the best average
    transit days")."""
    meaning, table = results.meaning, results.table
    if not meaning.group_by or meaning.interval or meaning.steps or meaning.periods:
        return ""
    said = []
    for index, measure in enumerate(meaning.measures[1:], start=1):
        rows = _labelled_figures(table, index)
        if len(rows) >= 2:
            additive = measure.agg in ("count", "sum") and measure.share is None
            better = betters[index]  # the best first where the catalog says which way is better
            label = _figure_name(table, index)
            said.append(_ranking(rows, label, additive, lowest=better == "lower", better=better))
    return " ".join(said)


def _labelled_figures(table: Table, measure: int) -> list[list[Any]]:
    """[what a row is, its figure of `measure`] for each row whose figure is a number (none when
    the table has no such figure)."""
    if table.column("figure", measure) is None:
        return []
    pairs = [[_label(table, row), table.figure(row, measure)] for row in table.rows]
    return [pair for pair in pairs if isinstance(pair[1], int | float)]


def _label(table: Table, row: list[Any]) -> Any:
    """What a row is, in one cell: its first key, else its period (None for the figures of all
    records)."""
    labels = table.labels(row)
    return labels[0] if labels else None


def _figure_name(table: Table, measure: int) -> str:
    column = table.column("figure", measure)
    assert column is not None
    return column.name


def _analysis(results: QueryResults, better: Better | None = None) -> str:
    """The comparison, ranking or trend the results show, in words ("" when there is nothing to
    compare)."""
    meaning = results.meaning
    # their figures are said with the results
    if not meaning.measures or meaning.steps or meaning.periods:
        return ""
    # the first measure: ranked or followed
    table = results.table
    rows = _labelled_figures(table, 0)
    if len(rows) < 2:
        return ""
    label = _figure_name(table, 0)
    if meaning.interval and not meaning.group_by and not meaning.top_n:
        whole = [r for r in rows if query.whole_period(r[0], meaning, table.dates)]
        named = [[period_cell(r[0], meaning.interval), r[1]] for r in rows]
        return _trend([named[rows.index(r)] for r in whole], label, named, meaning.interval)
    # a share of a sum means something; of averages, percentiles or shares not
    first = meaning.measures[0]
    additive = first.agg in ("count", "sum") and first.share is None
    # groups by period: the groups' totals over the periods, if totals mean something
    if meaning.interval:
        rows, label = (
            (_totals(rows), f"{label} over the {meaning.interval}s shown")
            if additive
            else ([], label)
        )
        if len(rows) < 2:
            return ""
    return _ranking(rows, label, additive, lowest=meaning.order == "asc", better=better)


def _totals(rows: list[list[Any]]) -> list[list[Any]]:
    """Each group's figures added up, in the order the groups first appear."""
    totals: dict[Any, float] = {}
    for group, value in rows:
        totals[group] = totals.get(group, 0) + value
    return [[group, total] for group, total in totals.items()]


def _num(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}"


def _pct(part: float, whole: float) -> str:
    if not whole:
        return "n/a"
    share = 100 * part / whole
    return f"{share:.1f} %" if abs(share) < 10 else f"{share:.0f} %"


def _ranking(
    rows: list[list[Any]],
    label: str,
    additive: bool,
    lowest: bool = False,
    better: Better | None = None,
) -> str:
    ordered = sorted(rows, key=lambda r: r[-1], reverse=not lowest)
    total = sum(r[-1] for r in ordered)
    first, second = ordered[0], ordered[1]
    gap = abs(first[-1] - second[-1])
    tied = [r[0] for r in ordered if r[-1] == first[-1]]
    if len(tied) > 1:
        side = "least" if lowest else "most"
        text = f"{', '.join(map(str, tied[:-1]))} and {tied[-1]} tie for the {side} {label}, {_num(first[-1])} each"
    elif lowest:
        side = "least" if additive else "lowest"
        said = verdict(label, better, side, highest=False) or f"has the {side} {label}"
        text = (
            f"{first[0]} {said} with {_num(first[-1])}, "
            f"{_num(gap)} less than {second[0]} ({_pct(gap, second[-1])} lower)"
        )
    else:
        text = (
            f"{first[0]} {_top(label, additive, better)} with {_num(first[-1])}, {_num(gap)} more "
            "than "
            f"{second[0]} ({_pct(gap, second[-1])} higher)"
        )
    shown = additive and len(ordered) > 2
    return text + (
        f"; it is {_pct(first[-1], total)} of the {len(ordered)} shown." if shown else "."
    )


def _top(label: str, additive: bool, better: Better | None) -> str:
    """The group with the highest figure: a sum's lead, unless the catalog says more is worse; an
    average's highest, or its best or worst where the catalog says which way is better (a longer
    transit is no lead)."""
    if additive and better != "lower":
        return f"leads on {label}"
    side = "most" if additive else "highest"
    return verdict(label, better, side, highest=True) or f"has the {side} {label}"


def _trend(rows: list[list[Any]], label: str, shown: list[list[Any]], interval: str) -> str:
    """From the first whole period to the last (`rows`), of the periods `shown`; cut ones are named,
    not compared."""
    cut = [str(r[0]) for r in shown if r not in rows]
    if len(rows) < 2:
        return (
            f"Too few whole {interval}s to follow a trend: {', '.join(cut)} are cut short by the "
            "dates."
            if cut
            else ""
        )
    aside = (
        f" ({', '.join(cut)} {'is' if len(cut) == 1 else 'are'} cut short by the dates, so not "
        "compared)"
        if cut
        else ""
    )
    return f"{_trend_of(rows, label).removesuffix('.')}{aside}."


def _trend_of(rows: list[list[Any]], label: str) -> str:
    start, end = rows[0], rows[-1]
    peak = max(rows, key=lambda r: r[-1])
    change = end[-1] - start[-1]
    direction = "up" if change > 0 else "down" if change < 0 else "flat"
    return (
        f"{label} went {direction} from {_num(start[-1])} ({start[0]}) to {_num(end[-1])} "
        f"({end[0]}), "
        f"{_pct(change, start[-1])} change; the peak was {_num(peak[-1])} in {peak[0]}."
    )


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
    return WorkerResult.of(wi, DIAGNOSIS.of(Deliverable(text=_diagnosis(compiled, ctx))))


def _diagnosis(compiled: CompiledQuery, ctx: Context) -> str:
    """Which of the query's filters, dropped alone, would find records."""
    clauses = compiled.body["query"]["bool"]["filter"]
    culprits = []
    for i, clause in enumerate(clauses):
        rest = [c for j, c in enumerate(clauses) if j != i]
        if ctx.engine.count(compiled.index, {"query": {"bool": {"filter": rest}}}) > 0:
            culprits.append(clause)
    if not culprits:
        return "No records matched, and dropping any one filter would still find none."
    described = "; ".join(_clause(c) for c in culprits)
    return f"No records matched. Dropping any one of these filters would find some: {described}."


def _clause(clause: dict[str, Any]) -> str:
    """A filter clause in words: "port_of_unlading = SAVANNAH", "arrival_date from 2026-06-22 to
    2026-06-28"."""
    kind, body = next(iter(clause.items()))
    field, value = next(iter(body.items())) if isinstance(body, dict) and body else ("", body)
    if kind == "term":
        return f"{field} = {value}"
    if kind == "terms":
        return f"{field} in {', '.join(map(str, value))}"
    if kind == "range" and isinstance(value, dict):
        words = {"gte": "from", "gt": "above", "lte": "to", "lt": "below"}
        return f"{field} " + " ".join(f"{words.get(op, op)} {bound}" for op, bound in value.items())
    if kind == "bool" and "must_not" in body:
        return "not " + " and not ".join(_clause(c) for c in body["must_not"])
    return str(clause)
