"""A meaning said back in words, from the meaning and the catalog, never from the question's text.

`read_back(meaning, catalog)` is the `reading` an answer shows with each result (DATA_CONTRACT §3),
so a person can check what was computed against what they asked: "total TEU · by carrier · port of
unlading LOS ANGELES · 2026-01-01 to 2026-03-31 (arrival date)". Every noun is the catalog's (a
field's name, a measure's label, the record's index); the English between them is
answers/en.yaml's `read_back`, around understanding/en.yaml's `phrases` for a filter and dates.
"""

from __future__ import annotations

from bosun.answers.baselines import overall_words
from bosun.answers.grammar import ReadBack, writing
from bosun.catalog import Catalog
from bosun.understanding.grammar import english
from bosun.understanding.inflections import singular
from bosun.understanding.meaning import (
    Change,
    Difference,
    HasAll,
    HasNone,
    Meaning,
    Measure,
    PerGroup,
    PerPeriod,
    Step,
    Threshold,
    TopEach,
)
from bosun.understanding.phrases import (
    condition_words,
    date_span,
    dates_words,
    field_name,
    measure_words,
    value_names,
)


def read_back(meaning: Meaning, catalog: Catalog) -> str:
    """The meaning in words, its parts joined: what was computed, how, then over which records."""
    return _words().joiner.join(
        [*computed(meaning, catalog), *constraints(meaning, catalog), *_page(meaning)]
    )


def computed(meaning: Meaning, catalog: Catalog) -> list[str]:
    """What was computed: the measures (or the records listed), the grouping, the interval, the
    order."""
    words = _words()
    parts = [_what(meaning, catalog)]
    parts += [words.grouping.format(field=field_name(name, catalog)) for name in meaning.group_by]
    parts += [words.pooled.format(field=field_name(name, catalog)) for name in meaning.pooled]
    if meaning.interval is not None:
        parts.append(english().phrases.interval.format(interval=meaning.interval))
    ranking = _changes(meaning) or _by_difference(meaning) or _order(meaning, catalog)
    parts += ranking or _part_order(meaning, catalog)
    parts += [
        _set_words(step, catalog)
        if isinstance(step, HasAll | HasNone)
        else step_words(step, meaning, catalog)
        for step in meaning.steps
        if not (isinstance(step, Change) and meaning.periods)
    ]
    return [part for part in parts if part]


def step_words(step: Step, meaning: Meaning, catalog: Catalog) -> str:
    """ "only those with number of shipments above 2,000", "the top 3 shipper within each port",
    "running total"."""
    words = _words().steps
    if isinstance(step, Threshold):
        ops = [op for op in ("gt", "gte", "lt", "lte") if getattr(step, op) is not None]
        phrases = english().phrases
        overall = overall_words(step, meaning, catalog, records_noun(catalog))
        bounds = [
            phrases.bounds[op].format(value=overall or _bound_number(getattr(step, op)))
            for op in ops
        ]
        measured = (
            measure_words(meaning.measures[step.measure])
            if step.measure < len(meaning.measures)
            else ""
        )
        return words["threshold"].format(
            bounds=f"{measured} {phrases.both_bounds.join(bounds)}".strip()
        )
    if isinstance(step, TopEach):
        return _top_each_words(step, meaning, catalog)
    if isinstance(step, Change):
        return words["change_percent" if step.percent else "change"].format(
            interval=meaning.interval or "period"
        )
    if isinstance(step, PerPeriod):
        return words["per_period"].format(interval=step.interval)
    if isinstance(step, Difference):
        first, second = step.values
        return words["difference"].format(
            field=field_name(step.field, catalog), first=first, second=second
        )
    if isinstance(step, PerGroup) and meaning.group_by:
        return words["per_group"].format(group=field_name(meaning.group_by[0], catalog))
    return words.get(step.kind, "")


def _top_each_words(step: TopEach, meaning: Meaning, catalog: Catalog) -> str:
    side = writing().shared.sides[step.order]
    if step.within is not None:  # "the bottom 1 week within each quarter"
        return (
            _words()
            .steps["top_each"]
            .format(side=side, n=step.n, inner=meaning.interval, outer=step.within)
        )
    names = [field_name(name, catalog) for name in meaning.group_by]
    periods = [meaning.interval or "period"]
    inner, outer = (
        (names[0], periods[0]) if step.outer == "period" else ([*names[1:], *periods][0], names[0])
    )
    return _words().steps["top_each"].format(side=side, n=step.n, inner=inner, outer=outer)


def _bound_number(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,}"


def constraints(meaning: Meaning, catalog: Catalog) -> list[str]:
    """What it was computed over: each filter, then the dates and the date field they are on."""
    said = [
        condition_words(condition, catalog, value_names(meaning))
        for condition in meaning.conditions
    ]
    dated = english().phrases.dated
    dates = dates_words(meaning.time, catalog, dated) if meaning.time is not None else ""
    said += [_periods_words(meaning, catalog)] if meaning.periods else []
    return [*said, dates] if dates else said


def constraints_in_text(meaning: Meaning, catalog: Catalog) -> list[str]:
    """The constraints as a sentence says them after "with": the date field first ("arrival date
    2026-05-01 to 2026-05-31")."""
    said = [
        condition_words(condition, catalog, value_names(meaning))
        for condition in meaning.conditions
    ]
    dates = (
        dates_words(meaning.time, catalog, _words().dated_in_text)
        if meaning.time is not None
        else ""
    )
    return [*said, dates] if dates else said


def records_noun(catalog: Catalog) -> str:
    """What the records are called: the record's index, readable ("shipments", "line items")."""
    return listed_noun(catalog.record.index, catalog)


def listed_noun(index: str, catalog: Catalog) -> str:
    """The records an index holds, said: the plural the catalog names the record with where its
    first two words are a noun and its plural ("loan", "loans": a file named loans_full_schema),
    else the index's words."""
    said = catalog.record.synonyms[:2] if index == catalog.spec.record else []
    if len(said) == 2 and said[0] != said[1] and singular(said[1]) == said[0]:
        return said[1]
    return index.replace("_", " ")


def _what(meaning: Meaning, catalog: Catalog) -> str:
    """The measures computed, or the records a search lists ("5 shipments")."""
    if meaning.intent_type == "aggregation":
        return ", ".join(_measure_said(m, meaning, catalog) for m in meaning.measures)
    # the records, or the reference objects a listing lists
    noun = listed_noun(meaning.index, catalog)
    if meaning.top_n is None:
        return noun
    counted = singular(noun) if meaning.top_n == 1 else noun
    return f"{meaning.top_n} {counted}"


def _measure_said(measure: Measure, meaning: Meaning, catalog: Catalog) -> str:
    """A measure in words; a share with its part ("share of TEU with carrier MAERSK") or of all the
    groups."""
    said = measure_words(measure)
    if measure.share is None:
        return said
    words, joiner = _words(), writing().shared.and_word
    if not measure.share.part:
        named = joiner.join(field_name(name, catalog) for name in meaning.group_by)
        return f"{said} {words.share_of_all.format(groups=named or meaning.interval or '')}"
    part = joiner.join(
        condition_words(c, catalog, value_names(meaning)) for c in measure.share.part
    )
    return f"{said} {words.share_part.format(part=part)}"


def _order(meaning: Meaning, catalog: Catalog) -> list[str]:
    """How the rows are ranked or sorted: "top 5 by total TEU", "lowest first", "latest arrival date
    first"."""
    words = _words()
    if meaning.intent_type == "search":
        return [_sorted(name, direction, catalog) for name, direction in meaning.sort]
    if meaning.top_n is None:
        ordered = words.ordered.get(meaning.order)
        return [ordered] if ordered and meaning.measures else []
    if not meaning.measures:
        return [words.counted[meaning.order].format(n=meaning.top_n)]
    return [
        words.ranked[meaning.order].format(
            n=meaning.top_n, measure=measure_words(meaning.measures[0])
        )
    ]


def _part_order(meaning: Meaning, catalog: Catalog) -> list[str]:
    """Groups of a date part that nothing ranks are listed in the part's order: "Monday first"."""
    spec = catalog.record.fields.get(meaning.group_by[0]) if meaning.group_by else None
    if spec is None or spec.derived is None or meaning.top_n is not None:
        return []
    return [_words().part_order[spec.derived.part]]


def _sorted(name: str, direction: str, catalog: Catalog) -> str:
    spec = catalog.record.fields.get(name)
    dated = spec is not None and spec.type == "date"
    templates = _words().sorted_dates if dated else _words().sorted
    return templates[direction].format(field=field_name(name, catalog))


def _page(meaning: Meaning) -> list[str]:
    return [_words().page.format(page=meaning.page)] if meaning.page > 1 else []


# -- periods compared, set logic (issue 23)
def _periods_words(meaning: Meaning, catalog: Catalog) -> str:
    """ "2024-01-01 to 2024-12-31 vs 2025-01-01 to 2025-12-31 compared (arrival date)"."""
    words = _words().periods
    spans = words.joiner.join(date_span(p.start, p.end) for p in meaning.periods)
    return words.compared.format(periods=spans, field=field_name(meaning.periods[0].field, catalog))


def _changes(meaning: Meaning) -> list[str]:
    """ "change from the first period to the last", and "top 1 by change" when the groups are ranked
    by it."""
    words = _words().periods
    steps = [s for s in meaning.steps if isinstance(s, Change)]
    if not steps or not meaning.periods:
        return []
    said = [words.change_percent if steps[0].percent else words.change]
    if meaning.top_n is not None:
        said.append(words.ranked[meaning.order].format(n=meaning.top_n))
    return said


def _by_difference(meaning: Meaning) -> list[str]:
    """ "top 5 by difference": rows of two sides ranked by their difference, not by a side."""
    if meaning.top_n is None or not any(isinstance(s, Difference) for s in meaning.steps):
        return []
    return [_words().difference_ranked[meaning.order].format(n=meaning.top_n)]


def _set_words(step: HasAll | HasNone, catalog: Catalog) -> str:
    """ "having each of port of lading BUSAN and SHANGHAI", "having no carrier MAERSK"."""
    words = _words().sets
    field = field_name(step.field, catalog)
    if isinstance(step, HasAll):
        return words.has_all.format(field=field, values=words.both.join(map(str, step.values)))
    return words.has_none.format(field=field, values=words.either.join(map(str, step.values)))


def _words() -> ReadBack:
    return writing().read_back
