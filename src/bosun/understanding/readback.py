"""A meaning said back in words, from the meaning and the catalog, never from the question's text.

`read_back(meaning, catalog)` is the `reading` an answer shows with each result (DATA_CONTRACT §3),
so a person can check what was computed against what they asked: "total TEU · by carrier · port of
unlading LOS ANGELES · 2026-01-01 to 2026-03-31 (arrival date)". Every noun is the catalog's (a
field's name, a measure's label, the record's index); the English between them is en.yaml's
`read_back`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bosun.catalog import Catalog, FieldSpec
from bosun.catalog.schema import DatePartName
from bosun.understanding.grammar import ReadBack, english
from bosun.understanding.meaning import (
    Change,
    Condition,
    HasAll,
    HasNone,
    Meaning,
    Measure,
    PerGroup,
    PerPeriod,
    Step,
    Threshold,
    TimeFilter,
    TopEach,
)
from bosun.understanding.periodnames import day_name, span_name

if TYPE_CHECKING:
    from datetime import date

MAX_VALUES = 5  # a filter's values named; the rest counted


def read_back(meaning: Meaning, catalog: Catalog) -> str:
    """The meaning in words, its parts joined: what was computed, how, then over which records."""
    return _words().joiner.join(
        [*computed(meaning, catalog), *constraints(meaning, catalog), *_page(meaning)]
    )


def value_names(meaning: Meaning) -> dict[str, str]:
    """The catalog's names of the values a meaning filters on by code ("851713" → "Smartphones")."""
    return {entity.value: entity.name for entity in meaning.entities if entity.name}


def computed(meaning: Meaning, catalog: Catalog) -> list[str]:
    """What was computed: the measures (or the records listed), the grouping, the interval, the
    order."""
    words = _words()
    parts = [_what(meaning, catalog)]
    parts += [words.grouping.format(field=field_name(name, catalog)) for name in meaning.group_by]
    if meaning.interval is not None:
        parts.append(words.interval.format(interval=meaning.interval))
    parts += _changes(meaning) or _order(meaning, catalog) or _part_order(meaning, catalog)
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
        bounds = [_words().bounds[op].format(value=_bound_number(getattr(step, op))) for op in ops]
        measured = (
            measure_words(meaning.measures[step.measure])
            if step.measure < len(meaning.measures)
            else ""
        )
        return words["threshold"].format(
            bounds=f"{measured} {_words().both_bounds.join(bounds)}".strip()
        )
    if isinstance(step, TopEach):
        return _top_each_words(step, meaning, catalog)
    if isinstance(step, Change):
        return words["change_percent" if step.percent else "change"].format(
            interval=meaning.interval or "period"
        )
    if isinstance(step, PerPeriod):
        return words["per_period"].format(interval=step.interval)
    if isinstance(step, PerGroup) and meaning.group_by:
        return words["per_group"].format(group=field_name(meaning.group_by[0], catalog))
    return words.get(step.kind, "")


def _top_each_words(step: TopEach, meaning: Meaning, catalog: Catalog) -> str:
    names = [field_name(name, catalog) for name in meaning.group_by]
    periods = [meaning.interval or "period"]
    inner, outer = (
        (names[0], periods[0]) if step.outer == "period" else ([*names[1:], *periods][0], names[0])
    )
    side = "top" if step.order == "desc" else "bottom"
    return _words().steps["top_each"].format(side=side, n=step.n, inner=inner, outer=outer)


def _bound_number(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,}"


def constraints(meaning: Meaning, catalog: Catalog) -> list[str]:
    """What it was computed over: each filter, then the dates and the date field they are on."""
    said = [
        condition_words(condition, catalog, value_names(meaning))
        for condition in meaning.conditions
    ]
    dates = dates_words(meaning.time, catalog, _words().dated) if meaning.time is not None else ""
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


def measure_words(measure: Measure) -> str:
    """ "total TEU", "number of shipments", "average transit days": the label, with how it is
    aggregated unless the label says so already."""
    labels = english().aggregation_labels
    # "median TEU", "share of TEU": said by the label
    if measure.percent is not None or measure.share is not None:
        return measure.label
    if any(measure.label.lower().startswith(f"{word} ") for word in labels.values()):
        return measure.label
    return f"{labels.get(measure.agg, measure.agg)} {measure.label}"


def records_noun(catalog: Catalog) -> str:
    """What the records are called: the record's index, readable ("shipments", "line items")."""
    return listed_noun(catalog.record.index, catalog)


def listed_noun(index: str, catalog: Catalog) -> str:
    """The records an index holds, said: the plural the catalog names the record with where its
    first two words are a noun and its plural ("loan", "loans": a file named loans_full_schema),
    else the index's words."""
    said = catalog.record.synonyms[:2] if index == catalog.spec.record else []
    if len(said) == 2 and said[0] != said[1] and english().singular(said[1]) == said[0]:
        return said[1]
    return index.replace("_", " ")


def field_name(name: str, catalog: Catalog) -> str:
    """A field as people call it: its readable name when the catalog lists that among its words
    ("port of unlading"), else its first word ("carrier" for carrier_name), else the readable name;
    spelt as its unit when it is one ("TEU")."""
    spec = catalog.record.fields.get(name)
    readable = name.replace("_", " ")
    if spec is None:
        return readable
    if spec.derived is not None:  # "day of the week of arrival date"
        return (
            english()
            .date_parts.said[spec.derived.part]
            .format(field=field_name(spec.derived.of, catalog))
        )
    said = (
        readable
        if not spec.synonyms or readable in (s.lower() for s in spec.synonyms)
        else spec.synonyms[0]
    )
    # "TEU", not "teu"
    return spec.unit if spec.unit is not None and said.lower() == spec.unit.lower() else said


def condition_words(
    condition: Condition, catalog: Catalog, names: dict[str, str] | None = None
) -> str:
    """One filter: "carrier MAERSK or MSC", "carrier not MAERSK", "TEU above 500", "status in
    transit", "hs code 851713 (Smartphones)" (`names`: the catalog's names of values held as codes).
    """
    spec = catalog.record.fields.get(condition.field)
    name = field_name(condition.field, catalog)
    # "TEU above 500", not "… 500 TEU"
    unit = spec.unit if spec is not None and spec.unit != name else None
    said = [_values(condition, spec, names or {})] if condition.values else []
    said += _bounds(condition, unit)
    # "hazardous", "precinct 3": the
    if _named_state(condition, spec) or _says_field(condition, spec, name):
        return said[0]  # value's own words say the field
    return f"{name} {_words().both_bounds.join(said)}"


def _says_field(condition: Condition, spec: FieldSpec | None, name: str) -> bool:
    """Values the catalog words with the field's name first ("precinct 3", "flight 133" of flight
    number); a value of the data that happens to begin so ("PORT KLANG" of port of lading) still
    gets the field's name."""
    if spec is None or not condition.values or condition.negate:
        return False
    words = [spec.values.get(str(value)) for value in condition.values]
    return all(w and w[0].split()[0].lower() in name.lower().split() for w in words)


def _named_state(condition: Condition, spec: FieldSpec | None) -> bool:
    """A flag whose values the catalog has words for: the word alone reads ("hazardous", not
    "hazardous yes")."""
    if spec is None or spec.type != "boolean" or not condition.values:
        return False
    return all(spec.values.get(str(value).lower()) for value in condition.values)


def dates_words(time: TimeFilter, catalog: Catalog, template: str) -> str:
    """ "2025 (arrival date)" by `template`; "" when the filter bounds neither end."""
    span = date_span(time.start, time.end)
    return template.format(span=span, field=field_name(time.field, catalog)) if span else ""


def date_span(start: date | None, end: date | None) -> str:
    """ "2025" (a whole year, quarter or month by its name), "6 Jan 2025 to 3 Mar 2025", one day
    alone, "from 6 Jan 2025", "until 3 Mar 2025", or ""."""
    words = _words()
    if start is not None and end is not None and start == end:
        return day_name(start)
    if start is not None and end is not None:
        return span_name(start, end) or words.span.format(start=day_name(start), end=day_name(end))
    if start is not None:
        return words.since.format(start=day_name(start))
    return words.until.format(end=day_name(end)) if end is not None else ""


def _what(meaning: Meaning, catalog: Catalog) -> str:
    """The measures computed, or the records a search lists ("5 shipments")."""
    if meaning.intent_type == "aggregation":
        return ", ".join(_measure_said(m, meaning, catalog) for m in meaning.measures)
    # the records, or the reference objects a listing lists
    noun = listed_noun(meaning.index, catalog)
    if meaning.top_n is None:
        return noun
    counted = english().singular(noun) if meaning.top_n == 1 else noun
    return f"{meaning.top_n} {counted}"


def _measure_said(measure: Measure, meaning: Meaning, catalog: Catalog) -> str:
    """A measure in words; a share with its part ("share of TEU with carrier MAERSK") or of all the
    groups."""
    said = measure_words(measure)
    if measure.share is None:
        return said
    kinds = english().measure_kinds
    if not measure.share.part:
        groups = (
            " and ".join(field_name(name, catalog) for name in meaning.group_by)
            or meaning.interval
            or ""
        )
        return f"{said} {kinds.share_of_all.format(groups=groups)}"
    part = " and ".join(
        condition_words(c, catalog, value_names(meaning)) for c in measure.share.part
    )
    return f"{said} {kinds.share_part.format(part=part)}"


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
    return [english().date_parts.listed[spec.derived.part]]


def part_value_name(part: DatePartName, value: object) -> str:
    """A part's value as people say it: 5 → "Friday", 12 → "December"; an hour stays its number."""
    number = int(str(value)) if str(value).lstrip("-").isdigit() else None
    names = english().date_parts.names.get(part, {})
    return names.get(number, str(value)) if number is not None else str(value)


def _sorted(name: str, direction: str, catalog: Catalog) -> str:
    spec = catalog.record.fields.get(name)
    dated = spec is not None and spec.type == "date"
    templates = _words().sorted_dates if dated else _words().sorted
    return templates[direction].format(field=field_name(name, catalog))


def _values(condition: Condition, spec: FieldSpec | None, names: dict[str, str]) -> str:
    """The values a filter keeps (or, negated, drops), named as the catalog names them."""
    words = _words()
    named = [_coded(_value_name(value, spec), names.get(str(value))) for value in condition.values]
    shown = words.either.join(named[:MAX_VALUES])
    if len(named) > MAX_VALUES:
        shown = words.more_values.format(shown=shown, more=len(named) - MAX_VALUES)
    return words.negated.format(values=shown) if condition.negate else shown


def _coded(said: str, name: str | None) -> str:
    """A code with the name it stands for: "851713 (Smartphones)"."""
    return said if name is None or name == said else f"{said} ({name})"


def _value_name(value: str | int | float | bool, spec: FieldSpec | None) -> str:
    """A value as people say it: the first word of a small vocabulary ("in transit" for in_transit),
    "yes" or "no" for a flag, a number with its thousands separated, else the value as the data
    holds it."""
    said = str(value).lower() if isinstance(value, bool) else str(value)
    if spec is not None and spec.derived is not None:
        return part_value_name(spec.derived.part, value)
    if spec is not None and spec.values.get(said):
        return spec.values[said][0]
    if isinstance(value, bool) or (spec is not None and spec.type == "boolean"):
        return _words().truth.get(said.lower(), said)
    if isinstance(value, int | float):
        return _number(value, None)
    return value


def _bounds(condition: Condition, unit: str | None) -> list[str]:
    """A numeric range: "between 10 and 20", "above 500", "at most 3 days"."""
    words = _words()
    if (
        condition.gte is not None
        and condition.lte is not None
        and condition.gt is None
        and condition.lt is None
    ):
        return [
            words.between.format(
                low=_number(condition.gte, unit), high=_number(condition.lte, unit)
            )
        ]
    bounds = {"gt": condition.gt, "gte": condition.gte, "lt": condition.lt, "lte": condition.lte}
    return [
        words.bounds[op].format(value=_number(value, unit))
        for op, value in bounds.items()
        if value is not None
    ]


def _number(value: float, unit: str | None) -> str:
    shown = f"{int(value):,}" if float(value).is_integer() else f"{value:,}"
    return f"{shown} {unit}" if unit else shown


def _page(meaning: Meaning) -> list[str]:
    return [_words().page.format(page=meaning.page)] if meaning.page > 1 else []


def _words() -> ReadBack:
    return english().read_back


# -- periods compared, set logic (issue 23)
# ---------------------------------------------------------------
def _periods_words(meaning: Meaning, catalog: Catalog) -> str:
    """ "2024-01-01 to 2024-12-31 vs 2025-01-01 to 2025-12-31 compared (arrival date)"."""
    words = english().periods.read_back
    spans = str(words["joiner"]).join(date_span(p.start, p.end) for p in meaning.periods)
    return str(words["compared"]).format(
        periods=spans, field=field_name(meaning.periods[0].field, catalog)
    )


def _changes(meaning: Meaning) -> list[str]:
    """ "change from the first period to the last", and "top 1 by change" when the groups are ranked
    by it."""
    words = english().periods.read_back
    steps = [s for s in meaning.steps if isinstance(s, Change)]
    if not steps or not meaning.periods:
        return []
    said = [str(words["change_percent" if steps[0].percent else "change"])]
    if meaning.top_n is not None:
        said.append(str(words["ranked"][meaning.order]).format(n=meaning.top_n))
    return said


def _set_words(step: HasAll | HasNone, catalog: Catalog) -> str:
    """ "having each of port of lading BUSAN and SHANGHAI", "having no carrier MAERSK"."""
    words = english().sets.read_back
    joiner = words["both"] if isinstance(step, HasAll) else words["either"]
    values = joiner.join(str(v) for v in step.values)
    return words[step.kind].format(field=field_name(step.field, catalog), values=values)
