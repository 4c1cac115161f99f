"""A meaning's parts in words: a filter, a measure, a span of dates, a date part's value.

The reader writes its own notes with these (the filters and dates a follow-up kept, a period cut to
match another), the compiler heads a compared period's column with `date_span`, and the answer
writer (`bosun.answers`) builds its readings and sentences on them: "carrier MAERSK or MSC", "TEU
above 500", "total TEU", "Q1 2025", "2025 (arrival date)". Every noun is the catalog's; the English
between them is en.yaml's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bosun.catalog import Catalog, FieldSpec
from bosun.catalog.schema import DatePartName
from bosun.understanding.grammar import Phrases, english
from bosun.understanding.meaning import Condition, Meaning, Measure, TimeFilter
from bosun.understanding.periodnames import day_name, span_name

if TYPE_CHECKING:
    from datetime import date

MAX_VALUES = 5  # a filter's values named; the rest counted


def value_names(meaning: Meaning) -> dict[str, str]:
    """The catalog's names of the values a meaning filters on by code ("851713" → "Smartphones")."""
    return {entity.value: entity.name for entity in meaning.entities if entity.name}


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
    if condition.exists is not None:  # "no eta", "eta given"
        return _words().present[str(condition.exists).lower()].format(field=name)
    # "TEU above 500", not "… 500 TEU"
    unit = spec.unit if spec is not None and spec.unit != name else None
    said = [_values(condition, spec, names or {})] if condition.values else []
    bounds = _bounds(condition, unit)
    if condition.negate and bounds and not condition.values:
        # "weight not above 0 kg": a range's records left out
        bounds = [_words().negated.format(values=_words().both_bounds.join(bounds))]
    said += bounds
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
    if start is not None and end is not None:
        return _days_name(start, end)
    if start is not None:
        return _words().since.format(start=day_name(start))
    if end is not None:
        return _words().until.format(end=day_name(end))
    return ""


def _days_name(start: date, end: date) -> str:
    """One day alone, a whole year, quarter or month by its name, else the first and last day."""
    if start == end:
        return day_name(start)
    return span_name(start, end) or days_span(start, end)


def days_span(start: date, end: date) -> str:
    """ "6 Jan 2025 to 3 Mar 2025": the first and the last day, whatever periods they make."""
    return _words().span.format(start=day_name(start), end=day_name(end))


def part_value_name(part: DatePartName, value: object) -> str:
    """A part's value as people say it: 5 → "Friday", 12 → "December"; an hour stays its number."""
    number = int(str(value)) if str(value).lstrip("-").isdigit() else None
    names = english().date_parts.names.get(part, {})
    return names.get(number, str(value)) if number is not None else str(value)


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
    named = _field_value_name(value, said, spec) if spec is not None else None
    if named is not None:
        return named
    if isinstance(value, bool):
        return _words().truth.get(said, said)
    if isinstance(value, int | float):
        return _number(value, None)
    return value


def _field_value_name(value: str | int | float | bool, said: str, spec: FieldSpec) -> str | None:
    """A value as its field names it: a date part's name ("Friday"), the first word of the field's
    vocabulary, "yes" or "no" for a flag; None when the field has no name for it."""
    if spec.derived is not None:
        return part_value_name(spec.derived.part, value)
    if spec.values.get(said):
        return spec.values[said][0]
    if spec.type == "boolean":
        return _words().truth.get(said.lower(), said)
    return None


def _bounds(condition: Condition, unit: str | None) -> list[str]:
    """A numeric range: "between 10 and 20", "above 500", "at most 3 days"."""
    words = _words()
    if (
        condition.gte is not None
        and condition.lte is not None
        and condition.gt is None
        and condition.lt is None
    ):
        low, high = _number(condition.gte, unit), _number(condition.lte, unit)
        if low == high:
            return [words.exactly.format(value=low)]
        return [words.between.format(low=low, high=high)]
    bounds = {"gt": condition.gt, "gte": condition.gte, "lt": condition.lt, "lte": condition.lte}
    return [
        words.bounds[op].format(value=_number(value, unit))
        for op, value in bounds.items()
        if value is not None
    ]


def _number(value: float, unit: str | None) -> str:
    shown = f"{int(value):,}" if float(value).is_integer() else f"{value:,}"
    return f"{shown} {unit}" if unit else shown


def _words() -> Phrases:
    return english().phrases
