"""Draft a catalog from live indices that answers questions as written (`bosun catalog init`).

The first index is the record; the others are reference objects. Roles come from evidence, not
from the type alone: names of columns (the generic words of `draft_words.yaml`) and a profile of
their values (profile.py). Reference objects are linked to the record's columns whose values they
hold, so a name in a question filters the record by that column.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any

from bosun.catalog.codes import (
    code_outcome,
    code_set_of,
    code_values,
    code_why,
    flag_word,
    is_letter_code,
)
from bosun.catalog.counted import counted_words, said_whole
from bosun.catalog.flags import flag_value, is_number_flag, number_flag_values, share_measures
from bosun.catalog.gaps import gap_notes
from bosun.catalog.levels import average_amounts, draft_levels, levels_of, mark_averaged
from bosun.catalog.linked import distinct_values, link_note, linked_attributes
from bosun.catalog.loader import index_rows
from bosun.catalog.money import takings_gap, takings_on_sums_only
from bosun.catalog.panels import Panel, panel_of, thing_words
from bosun.catalog.parts import is_clock_values, part_name
from bosun.catalog.profile import MANY_VALUES, MOST_COLUMNS, Column, IndexProfile, profile_index
from bosun.catalog.quantities import adjectives_of, quantity_words
from bosun.catalog.rows import (
    RowNoun,
    event_verbs,
    person_adjectives,
    person_bound,
    record_noun,
    row_nouns,
    row_why,
)
from bosun.catalog.summaries import (
    Summary,
    is_statistic,
    per_row_statistics,
    summarise,
    summary_of,
    summary_why,
)
from bosun.catalog.things import thing_measure, thing_of, thing_why
from bosun.catalog.time_counts import counts_time
from bosun.catalog.words import (
    _has,
    _words,
    paired_extreme,
    phrase,
    pieces,
    plural,
    row_name,
    singular,
    spoken,
    words_of,
)
from bosun.engines.base import Engine
from bosun.errors import CatalogError
from bosun.yamltext import dump_yaml

_FEW_WORDS = 30  # a vocabulary of values, not a list of names
_NUMBERS = {"integer", "long", "float", "double"}


# -- roles ----------------------------------------------------------------------------------------
def is_date_part(column: Column) -> bool:
    """A year, month, hour … column: its name holds a date-part word, and its values are no larger
    than that part takes (the evidence that "delay_min" with values up to 90 is a delay, not a
    minute), all whole ("temp_min" of 5.6 is a temperature)."""
    if not _names_a_period(column.name) or _fractional(column):
        return False
    if not isinstance(column.high, int | float):
        return True
    most: dict[str, int] = _words()["date_part_most"]
    named = [most[w] for w in [*words_of(column.name), column.name.replace("_", "")] if w in most]
    return not named or column.high <= max(named)


def _names_a_period(name: str) -> bool:
    """The name's head is a date part ("order_year", "month_num", "weekday"), not a word before it:
    "week_nights" counts nights, "hour_rate" is a rate."""
    parts = {str(w) for w in _words()["date_parts"]}
    ids = {str(w) for w in _words()["id_words"]}
    words = [p for w in words_of(name) for p in pieces(w)]
    while len(words) > 1 and words[-1] in ids:
        words = words[:-1]
    return name.replace("_", "") in parts or bool(words and words[-1] in parts)


def _fractional(column: Column) -> bool:
    """Some value seen is not a whole number."""
    seen = [column.low, column.high, *(v for v, _ in column.values)]
    return any(isinstance(v, float) and not v.is_integer() for v in seen)


def is_clock(column: Column) -> bool:
    """HHMM clock times (1425 = 14:25): never a measure."""
    if column.type not in {"integer", "long"} or not column.complete_values:
        return False
    return is_clock_values([int(v) for v, _ in column.values], column.distinct)


@dataclass(frozen=True)
class Decision:
    """A field's drafted role and the evidence that decided it, said to the user by `catalog
    init`."""

    role: str
    why: str
    record_number: bool = False  # the row's own number ("flight" in flights): said "flight number"
    outcome: str = ""  # what `catalog init` says was made of it, where no measure or role says it


def role_of(column: Column, rows: int, record: str = "") -> str:
    return decide(column, rows, record).role


def decide(column: Column, rows: int, record: str = "") -> Decision:
    """The role of a record column; `record` is the records' index name ("flights")."""
    if column.type in {"date", "text"}:
        return Decision(column.type, f"{column.type} values")
    if column.type == "boolean":
        return Decision("dimension", "yes/no values")
    if is_number_flag(column):
        return Decision(
            "dimension", "values 0 and 1: a flag, never summed", outcome="a flag read by its name"
        )
    if is_date_part(column):
        return Decision("dimension", "a date part by its name and values")
    if is_clock(column):
        return Decision(
            "attribute", "integers 0000–2359 with minutes under 60: a clock time, not summed"
        )
    if column.numeric:
        return _numeric_role(column, rows, record)
    unique = column.distinct >= 0.9 * max(rows, 1) and rows > 50
    if unique or (_has(column.name, "id_words") and column.distinct >= 0.5 * max(rows, 1)):
        return Decision("identifier", "one value per record: a lookup key, not a grouping")
    if 0 < column.distinct <= MANY_VALUES:
        return Decision("dimension", f"{column.distinct:,} values: grouped and filtered")
    return Decision("attribute", f"{column.distinct:,} values: too many to group by")


def _numeric_role(column: Column, rows: int, record: str) -> Decision:
    """Numbers that are codes or positions are never summed; the others are quantities
    (measures)."""
    # evidence: an id word in the name ("order_id", "stop_no")
    if _has(column.name, "id_words"):
        return Decision("identifier", "a number with an id name: a key, never summed")
    # evidence: a coordinate name and every value within the range of its coordinate
    if is_coordinate(column):
        return Decision(
            "attribute",
            f"a coordinate name, values {column.low:g} to {column.high:g}: a position, "
            "never summed",
        )
    # evidence: the column is named after what one row is ("flight" in flights): that row's number,
    # unless the name is an amount's ("salary" in salaries, "payment" in payments: what each row
    # pays)
    named_after_rows = record and singular(phrase(column.name)) in {
        singular(w) for w in words_of(record)
    }
    if named_after_rows and not _has(column.name, "sum_words"):
        return Decision(
            _code_role(column),
            f"a number named after the records ({phrase(record)}): their number, never summed",
            record_number=True,
        )
    # evidence: a code name ("precinct", "store") and few whole values for the rows: a place or a
    # unit
    if _is_few_codes(column, rows):
        return Decision(
            "dimension",
            f"integers with {column.distinct:,} values and a code name: a dimension, never summed",
        )
    return Decision("measure", "a number with no code evidence: a quantity")


def _code_role(column: Column) -> str:
    return "dimension" if column.complete_values else "identifier"


def _is_few_codes(column: Column, rows: int) -> bool:
    whole = column.type in {"integer", "long"}
    few = 0 < column.distinct <= min(MANY_VALUES, max(rows, 1) // 10)
    return whole and few and _has(column.name, "code_words") and not _has(column.name, "sum_words")


def is_coordinate(column: Column) -> bool:
    return coordinate_of(column) is not None


def coordinate_of(column: Column) -> str | None:
    """ "latitude" or "longitude": a coordinate's name (draft_words.yaml) and every value within its
    range."""
    if column.low is None or column.high is None:
        return None
    for said, spec in _words()["coordinates"].items():
        named = set(words_of(column.name)) & {str(w) for w in spec["names"]}
        if named and -spec["within"] <= column.low and column.high <= spec["within"]:
            return str(said)
    return None


def aggregation(column: Column) -> str:
    """avg for durations, delays, rates, prices, ages; sum for amounts, quantities, counts, weights,
    values."""
    if _has(column.name, "sum_words"):
        return "sum"
    if _has(column.name, "avg_words"):
        return "avg"
    is_rate = (
        column.type in {"float", "double"}
        and column.low is not None
        and column.low >= 0
        and column.high <= 1
    )
    return "avg" if is_rate else "sum"


def unit_of(name: str, names: Collection[str] = ()) -> str | None:
    """The unit a column's last word names ("weight_kg"); none for one of a pair of extremes
    ("temp_min")."""
    units: dict[str, str] = _words()["units"]
    if not words_of(name) or paired_extreme(name, names):
        return None
    return units.get(words_of(name)[-1])


# -- names and aliases ----------------------------------------------------------------------------
def aliases(name: str) -> list[str]:
    """The name without its legal suffixes, one suffix at a time: "Acme Corp. Inc." → "Acme Corp.",
    "Acme"."""
    found: list[str] = []
    current = name.strip()
    while True:
        shorter = _without_suffix(current)
        if shorter is None or len(shorter) < 2:
            return found
        found.append(shorter)
        current = shorter


def _without_suffix(name: str) -> str | None:
    """The name without its last legal suffix, the longest suffix tried first; None without one."""
    patterns, any_suffix = _suffix_patterns()
    if not any_suffix.search(name):  # most values end in no suffix: one search says so
        return None
    for pattern in patterns:
        match = pattern.search(name)
        if match and match.start() > 0:
            return name[: match.start()].rstrip(" ,")
    return None


@cache
def _suffix_patterns() -> tuple[list[re.Pattern[str]], re.Pattern[str]]:
    """A pattern for each legal suffix, longest first, and one matching any of them: a wide file's
    names are checked in microseconds each."""
    suffixes = sorted((str(s) for s in _words()["legal_suffixes"]), key=len, reverse=True)
    sources = [
        r"[\s,]+" + r"\.?\s+".join(re.escape(w) for w in suffix.split()) + r"\.?$"
        for suffix in suffixes
    ]
    patterns = [re.compile(source, re.I) for source in sources]
    return patterns, re.compile("|".join(f"(?:{source})" for source in sources), re.I)


def is_code_like(column: Column) -> bool:
    """Short upper-case letters and digits ("AA", "JFK", "40HC"): matched only where written as a
    code."""
    strings = [str(v) for v, _ in column.values[:200]]
    return bool(strings) and all(
        2 <= len(s) <= 5 and re.fullmatch(r"[A-Z0-9]+", s) for s in strings
    )


def is_vocabulary(column: Column) -> bool:
    """A few lower-case words ("arrived", "in_transit"): words of the language, read as a filter
    where said."""
    strings = [str(v) for v, _ in column.values]
    return 0 < len(strings) <= _FEW_WORDS and all(
        re.fullmatch(r"[a-z][a-z0-9_ -]*", s) for s in strings
    )


def is_name_like(column: Column) -> bool:
    """Names of things: letters, mostly; not numbers, not dates, not long prose."""
    strings = [str(v) for v, _ in column.values[:200]]
    if not strings or (_has(column.name, "id_words") and not _has(column.name, "name_words")):
        return False
    lettered = sum(1 for s in strings if re.search(r"[A-Za-z]{2}", s) and len(s) <= 60)
    return lettered >= 0.9 * len(strings)


# -- the draft ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Link:
    """A record column whose values are a reference object's names (or keys)."""

    column: str
    reference: str
    by: str  # the reference column it matches


@dataclass(frozen=True)
class Draft:
    """The drafted catalog YAML and one line per record field saying what was decided and why."""

    text: str
    notes: list[str]


def draft(engine: Engine, indices: list[str] | str, most_columns: int = MOST_COLUMNS) -> Draft:
    """The catalog for `indices` and the evidence behind each record field's role and measures."""
    names = [indices] if isinstance(indices, str) else list(indices)
    if not names:
        raise CatalogError("catalog init needs at least one --index")
    profiles = [profile_index(engine, name, most_columns) for name in names]
    record, references = profiles[0], profiles[1:]
    decisions = {
        name: decide(column, record.rows, record.index) for name, column in record.columns.items()
    }
    parts = derived_parts(record)
    decisions.update(
        {
            name: Decision("dimension", f"the {part['part']} of {part['of']}, derived at load")
            for name, part in parts.items()
        }
    )
    periodic = {name for name, column in record.columns.items() if is_date_part(column)}
    panel = panel_of(engine, record, {name: d.role for name, d in decisions.items()}, periodic)
    decisions.update(_panel_things(record, panel, decisions))
    fields = _record_fields(record, decisions, parts)
    measures = _measures(record, fields)
    if panel is not None:  # also the count's words: "how many people" counts the rows
        said = fields[panel.thing]["synonyms"]
        fields[panel.thing]["synonyms"] = [*said, *thing_words(record, panel)]
    said = {w for field in fields.values() for w in field["synonyms"]} | {
        _noun(ref.index) for ref in profiles[1:]
    }
    things = _things(record, measures, said)
    measures.update(
        {thing: thing_measure(record.columns[name], thing) for name, thing in things.items()}
    )
    decisions.update(
        {
            name: Decision(decisions[name].role, thing_why(record.columns[name], record))
            for name in things
        }
    )
    decisions.update(_coded(record, decisions))
    per_row_statistics(measures)
    measures.update(share_measures(_flags(record, fields)))
    numbers = {name for name, d in decisions.items() if d.record_number}
    summary = summary_of(
        engine, record, {name: d.role for name, d in decisions.items()}, periodic, numbers
    )
    count = _noun(record.index).replace(" ", "_")
    by_period = panel is not None or (summary is not None and len(summary.places) == 1)
    levels = levels_of(record, fields) if by_period else []
    draft_levels(record, levels, fields, measures)
    if by_period:
        average_amounts(record, fields, measures, levels)
    figure = summarise(record, summary, measures, count, levels) if summary else None
    takings_on_sums_only(measures)
    mark_averaged(fields, measures)
    decisions.update({name: _level_decision(name, summary, panel) for name in levels})
    bound = _person_bound(record, fields)
    keys = {ref.index: _reference_key(ref) for ref in references}
    links = [link for ref in references for link in _links(record, ref, keys[ref.index], engine)]
    decisions.update(_named_codes(record, references, links, keys, fields))
    draft: dict[str, Any] = {
        "domain": record.index,
        "description": (
            f"Drafted by `bosun catalog init` from {', '.join(names)}; review the descriptions."
        ),
        "record": record.index,
        "objects": {
            record.index: _record_object(record, fields, measures),
            **{ref.index: _reference_object(ref, keys[ref.index]) for ref in references},
        },
        "entities": _entities(record, references, links, keys, engine),
        "links": _linked(references, links, keys),
        "measures": measures,
        "time": _time(record, fields),
        "defaults": _defaults(count, figure, bound),
        **({"verbs": verbs} if (verbs := _measure_verbs(measures)) else {}),
    }
    text = dump_yaml(draft, sort_keys=False, allow_unicode=True, width=120)
    row = record_noun(record.index, record.columns)
    what_a_row_is = [row_why(record.index, row)] if row else []
    what_a_row_is += [summary_why(record, summary, figure, levels)] if summary else []
    what_a_row_is += [_panel_why(record, panel, levels)] if panel and not summary else []
    made = _made_of(measures)
    notes = [_note(record, name, decisions[name], made.get(name, [])) for name in fields]
    notes += [link_note(name, spec) for name, spec in draft["links"].items()]
    codes = [name for name, decision in decisions.items() if _code(name, decision, periodic)]
    gaps = gap_notes(record, fields, measures, codes, {link.column for link in links})
    gaps += takings_gap(measures, _prices(record, measures))
    return Draft(text, [*what_a_row_is, *notes, *gaps])


def _defaults(count: str, figure: str | None, bound: str | None) -> dict[str, str]:
    """The count measured by default, the figure of summary rows, the field rows are bounded by."""
    drafted = {"measure": count, "figure": figure, "bound_field": bound}
    return {key: value for key, value in drafted.items() if value}


def _person_bound(record: IndexProfile, fields: dict[str, dict[str, Any]]) -> str | None:
    """The people's age, where rows are people: a bare number after their noun is of it ("people
    over 60"), and it is compared as older and younger."""
    bound = person_bound(record)
    if bound is not None and fields[bound]["role"] == "measure":
        fields[bound]["adjectives"] = person_adjectives()
        return bound
    return None


def _code(name: str, decision: Decision, periodic: set[str]) -> bool:
    """A dimension that is no date part, no record's own number, and no code set or reference
    names ("round" 1–38)."""
    plain = not decision.outcome and not decision.record_number
    return decision.role == "dimension" and name not in periodic and plain


_AGG_SAID = {
    "sum": "sum",
    "avg": "average",
    "count": "count",
    "min": "minimum",
    "max": "maximum",
    "cardinality": "distinct count",
}


def _coded(record: IndexProfile, decisions: dict[str, Decision]) -> dict[str, Decision]:
    """Dimensions whose values are a common code set (codes.py), with the set that decided."""
    found: dict[str, Decision] = {}
    for name, decision in decisions.items():
        code_set = code_set_of(record.columns[name]) if decision.role == "dimension" else None
        if code_set is not None:
            why = code_why(record.columns[name], code_set)
            found[name] = Decision(
                decision.role, why, outcome=code_outcome(code_set, decision.role)
            )
    return found


def _prices(record: IndexProfile, measures: dict[str, Any]) -> list[str]:
    """Money columns drafted only as averages: prices per row."""
    drafted: dict[str, set[str]] = {}
    for measure in measures.values():
        if measure.get("field") in record.columns:
            drafted.setdefault(str(measure["field"]), set()).add(str(measure["agg"]))
    return [
        name
        for name, aggs in drafted.items()
        if aggs == {"avg"} and _is_money(record.columns[name], _NUMBERS)
    ]


def _level_decision(name: str, summary: Summary | None, panel: Panel | None) -> Decision:
    things = " and ".join(phrase(p) for p in summary.places) if summary else ""
    period = summary.period if summary else ""
    if panel is not None and summary is None:
        things, period = phrase(panel.thing), panel.period
    return Decision("measure", f"a level of a {things} in a {period}, not an amount")


def _panel_things(
    record: IndexProfile, panel: Panel | None, decisions: dict[str, Decision]
) -> dict[str, Decision]:
    """The numbers of a panel's things (a state's code in each year) are grouped, never summed."""
    if panel is None or decisions[panel.thing].role != "measure":
        return {}
    why = f"whole numbers, {panel.why(record.rows)}: the things of a panel, never summed"
    return {panel.thing: Decision("dimension", why)}


def _panel_why(record: IndexProfile, panel: Panel, levels: list[str]) -> str:
    """What a row of a panel is and which of its figures are levels."""
    figures = f"{', '.join(levels)} are levels" if levels else "no figure is a level"
    thing = phrase(panel.thing)
    article = "an" if thing[:1] in "aeiou" else "a"
    return (
        f"{record.index}: {panel.why(record.rows)}: {figures} of {article} {thing} in a "
        f"{panel.period}, averaged and summed only within one {panel.period}; amounts are "
        "averaged per row too"
    )


def _flags(record: IndexProfile, fields: dict[str, dict[str, Any]]) -> dict[str, tuple[str, str]]:
    """Each flag field, the value that holds and the word said for it (flags.py)."""
    found = {}
    for name, field in fields.items():
        values = field.get("values", {})
        value = flag_value(record.columns[name], values) if name in record.columns else None
        if value is not None:
            found[name] = (value, str(values[value][0]))
    return found


def _things(record: IndexProfile, measures: dict[str, Any], said: set[str]) -> dict[str, str]:
    """Repeated ids (things.py) and the noun each counts, where no field, reference or measure has
    that word yet: "customers" that a name column or a reference object answers is counted through
    them."""
    taken = said | {w for m in measures.values() for w in m["words"]}
    found = {name: thing_of(column, record) for name, column in record.columns.items()}
    return {
        name: thing
        for name, thing in found.items()
        if thing and thing not in taken and thing not in measures
    }


def _note(
    record: IndexProfile, name: str, decision: Decision, made_of: list[dict[str, Any]]
) -> str:
    """ "price: money on sale records → sum 'revenue' and average 'average price'"; `made_of`: the
    measures of the field (_made_of)."""
    made = [f"{_said_agg(m)} '{m['label']}'" for m in made_of]
    why = decision.why
    if made and _money_on_sales(record, record.columns[name]):
        why = "money on sale records"
    outcome = " and ".join([*([decision.outcome] if decision.outcome else []), *made])
    return f"{name}: {why} → {outcome or decision.role}"


def _made_of(measures: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The measures of each field, in their order: of its values, or shares of its values."""
    made: dict[str, list[dict[str, Any]]] = {}
    for measure in measures.values():
        for name in dict.fromkeys([measure.get("field"), *(measure.get("share") or {})]):
            if name is not None:
                made.setdefault(name, []).append(measure)
    return made


def _said_agg(measure: dict[str, Any]) -> str:
    if measure.get("share"):
        return "share"
    return _AGG_SAID.get(measure["agg"], measure["agg"])


def derived_parts(record: IndexProfile) -> dict[str, dict[str, str]]:
    """Columns that `data load` derived (`<source>_<part>`, catalog/parts.py) → {part, of}.

    Evidence: the name is a source column's with a part after it, and the source can have that part
    (a date; for the hour, a date with times or an HHMM clock column)."""
    found = {}
    for source in record.columns.values():
        clock = is_clock(source)
        if source.type != "date" and not clock:
            continue
        for part in ("weekday", "month", "hour"):
            name = part_name(source.name, part)
            if name in record.columns and (part == "hour" or not clock):
                found[name] = {"part": part, "of": source.name}
    return found


def _part_field(column: Column, part: dict[str, str]) -> dict[str, Any]:
    """A derived part: its words are the language's (en.yaml), so it has no synonyms of its own."""
    said = spoken(part["of"])
    return {
        "type": column.type,
        "role": "dimension",
        "derived": dict(part),
        "description": f"The {part['part']} of {said}, derived at load.",
        "synonyms": [],
    }


def _noun(index: str) -> str:
    """The records' plural noun: "line_items" → "line items"."""
    words = words_of(row_name(index)) or ["record"]
    return " ".join([*words[:-1], plural(singular(words[-1]))])


def _record_fields(
    record: IndexProfile, decisions: dict[str, Decision], parts: dict[str, dict[str, str]]
) -> dict[str, dict[str, Any]]:
    claims: dict[str, list[str]] = {}
    names = set(record.columns)
    for column in record.columns.values():
        for word in [] if column.name in parts else _short_names(column.name, names):
            claims.setdefault(word, []).append(column.name)
    fields = {}
    for name, column in record.columns.items():
        if name in parts:
            fields[name] = _part_field(column, parts[name])
            continue
        role = decisions[name].role
        short = [w for w in _short_names(name, names) if claims[w] == [name] or role == "dimension"]
        short += _coded_thing(name) if role == "dimension" else []
        fields[name] = _field(column, role, short, names)
        # "flight" and "flights" count the records; this is their number
        if decisions[name].record_number:
            number = f"{phrase(name)} number"
            fields[name]["synonyms"] = [number, plural(number)]
    return fields


def _short_names(name: str, names: Collection[str] = ()) -> list[str]:
    """Shorter words for a column: "customer_name" → customer(s); "ship_mode" → mode(s)."""
    words = words_of(name)
    found: list[str] = []
    if len(words) > 1 and words[-1] in {str(w) for w in _words()["name_words"]}:
        stem = " ".join(words[:-1])
        found += [stem, plural(stem)]
    # "delay_min" → delay, "weight_kg" → weight: the unit
    if len(words) > 1 and unit_of(name, names) is not None:
        found.append(spoken("_".join(words[:-1])))  # is said by the field's unit, not by its name
    if len(words) > 1 and words[-1] not in {str(w) for w in _words()["figure_words"]}:
        found += [words[-1], plural(words[-1])]
    # "paid_interest": interest paid
    if len(words) > 1 and words[0] in {str(w) for w in _words()["participles"]}:
        found.append(" ".join([*words[1:], words[0]]))
    return [w for w in dict.fromkeys(found) if w != phrase(name)]


def _coded_thing(name: str) -> list[str]:
    """The thing a dimension of codes stands for: "lg_id" → league(s), "team_code" → team(s) ("by
    league")."""
    words = words_of(name)
    if len(words) < 2 or words[-1] not in {str(w) for w in _words()["id_words"]}:
        return []
    stem = spoken("_".join(words[:-1]))
    return [stem, plural(stem)]


def _field(
    column: Column, role: str, short: list[str], names: Collection[str] = ()
) -> dict[str, Any]:
    """A record field's draft; `names` are the record's columns (the evidence of a pair: "temp_min",
    "temp_max")."""
    words = phrase(column.name)
    said = spoken(column.name, names, quantity=role == "measure")
    named = list(
        dict.fromkeys([words, said, *([coordinate_of(column) or words] if column.numeric else [])])
    )
    plurals = [plural(w) for w in named] if role == "dimension" else []
    synonyms = list(dict.fromkeys([*named, *plurals, *short]))
    field: dict[str, Any] = {
        "type": column.type,
        "role": role,
        "description": _description(column, role, names),
        "synonyms": synonyms,
    }
    unit = unit_of(column.name, names)
    if unit and role == "measure":
        field["unit"] = unit
    if role == "measure" and column.type in {"integer", "long"}:  # "saw a doctor": doctor visits
        field["synonyms"] = list(dict.fromkeys([*synonyms, *counted_words(column.name, names)]))
    measured = quantity_words(column.name) if role == "measure" else {}
    if measured:  # "milliseconds" is a length: "track length", "longer than"
        field["synonyms"] = list(dict.fromkeys([*synonyms, *measured["synonyms"]]))
    adjectives = measured.get("adjectives") or (
        adjectives_of(column.name) if role == "measure" else {}
    )
    if adjectives:
        field["adjectives"] = adjectives
    if column.subfields:
        field["subfields"] = column.subfields
    code_set = code_set_of(column) if role == "dimension" else None
    if column.type == "boolean":
        field["values"] = {"true": [words]}
    elif is_number_flag(column):
        # its name says the value that holds ("married"), not the field: "how many married" counts
        # the rows where it holds, never the flag's two values
        field["values"] = number_flag_values(
            [flag_word(column.name), spoken(flag_word(column.name))]
        )
        field["synonyms"] = []
    elif code_set is not None:
        field["values"] = code_values(column, code_set)
    elif role == "dimension" and is_vocabulary(column):
        field["values"] = {str(v): [str(v).replace("_", " ")] for v, _ in column.values}
    elif (
        role == "dimension"
        and column.complete_values
        and not is_date_part(column)
        and (column.numeric or is_letter_code(column))
    ):
        field["values"] = _numbered_values(column)
    return field


def _numbered_values(column: Column) -> dict[str, list[str]]:
    """A code number or letter is read with its name before it ("precinct 3", "grade A"), never
    bare: a bare number is any figure, a bare letter a word ("a", "I")."""
    names = dict.fromkeys([phrase(column.name), spoken(column.name)])
    return {str(v): [f"{name} {v}" for name in names] for v, _ in column.values}


def _reference_role(is_key: bool, column_type: str) -> str:
    """A reference column's role: its key identifies, text is text, the rest describe."""
    if is_key:
        return "identifier"
    if column_type == "text":
        return "text"
    return "attribute"


def _description(column: Column, role: str, names: Collection[str] = ()) -> str:
    what = spoken(column.name, names, quantity=role == "measure").capitalize()
    if role == "date" and column.low is not None:
        return f"{what}, from {str(column.low)[:10]} to {str(column.high)[:10]}."
    if role == "dimension" and column.distinct:
        sample = ", ".join(str(v) for v, _ in column.values[:5])
        return (
            f"{what}: {column.distinct:,} values ({sample}{', …' if column.distinct > 5 else ''})."
        )
    if role == "attribute" and is_clock(column):
        return f"{what}, a clock time written HHMM."
    return f"{what}."


def _record_object(
    record: IndexProfile, fields: dict[str, dict[str, Any]], measures: dict[str, Any]
) -> dict[str, Any]:
    named = singular(phrase(row_name(record.index)))
    noun = period_rows(record) or named  # one row per day of a daily series: its rows are "days"
    # "pizza_sales": a row is a pizza sold, named "pizza", "sold"
    row = record_noun(record.index, record.columns)
    said = [named, plural(named), *(row.words if row else []), *event_verbs(record.index)]
    # an amount named after the records ("salary" in salaries) takes their noun: "by salary" is that
    # amount
    claimed = {w for m in measures.values() if m.get("field") for w in m["words"]}
    synonyms = [
        w
        for w in dict.fromkeys([noun, plural(noun), *said, "record", "records", "rows"])
        if w not in claimed
    ]
    return {
        "kind": "record",
        "index": record.index,
        "description": f"One {noun} record.",
        "synonyms": synonyms,
        "id_field": _id_column(record),
        "title_field": _id_column(record),
        "fields": fields,
    }


_PERIOD_DAYS = {"day": 1, "week": 7, "month": 30.44, "year": 365.25}


def period_rows(record: IndexProfile) -> str | None:
    """ "day" when one row is one day: a date column with a value per row, as many rows as days it
    spans (90 % at least, so a few missing days still count); the same for weeks, months and years.
    """
    for column in record.columns.values():
        if (
            column.type != "date"
            or column.distinct != record.rows
            or record.rows < 3
            or column.low is None
        ):
            continue
        span = (
            date.fromisoformat(str(column.high)[:10]) - date.fromisoformat(str(column.low)[:10])
        ).days
        for period, days in _PERIOD_DAYS.items():
            periods = span / days + 1
            if 0.9 * periods <= record.rows <= periods + 1:
                return period
    return None


def _id_column(profile: IndexProfile) -> str:
    """The column that names one row: unique if one is, else the most distinct identifier; GraphQL
    needs one."""
    columns = [c for c in profile.columns.values() if c.type in {"keyword", "integer", "long"}]
    unique = [c for c in columns if c.distinct >= profile.rows > 0]
    named = [c for c in unique if _has(c.name, "id_words")]
    if named or unique:
        return (named or unique)[0].name
    ranked = sorted(columns or list(profile.columns.values()), key=lambda c: -c.distinct)
    return ranked[0].name


def _reference_key(ref: IndexProfile) -> str:
    """A reference's key: its unique column; else, where a row repeats per period (a team per
    season), the most distinct column with an id name, which the records hold."""
    columns = [c for c in ref.columns.values() if c.type in {"keyword", "integer", "long"}]
    if any(c.distinct >= ref.rows > 0 for c in columns):
        return _id_column(ref)
    named = sorted(
        (c for c in columns if c.type == "keyword" and _has(c.name, "id_words")),
        key=lambda c: -c.distinct,
    )
    return named[0].name if named else _id_column(ref)


def _name_column(ref: IndexProfile, key: str) -> str:
    """A name column with (nearly) one name per key: per row where the key is unique, a few per key
    where a row repeats (a team renamed over the seasons)."""
    strings = [c for c in ref.columns.values() if c.type == "keyword" and c.name != key]
    keys = min(ref.columns[key].distinct, ref.rows) if key in ref.columns else ref.rows
    named = [c for c in strings if _has(c.name, "name_words") and c.distinct >= 0.9 * keys]
    distinct = [c for c in strings if c.distinct >= 0.9 * keys and is_name_like(c)]
    chosen = named or distinct
    return chosen[0].name if chosen else key


def _reference_object(ref: IndexProfile, key: str) -> dict[str, Any]:
    noun = singular(phrase(row_name(ref.index)))
    fields = {}
    for name, column in ref.columns.items():
        role = _reference_role(name == key, column.type)
        fields[name] = {
            "type": column.type,
            "role": role,
            "description": _description(column, role),
            "synonyms": [phrase(name), *_short_names(name)],
        }
    return {
        "kind": "reference",
        "index": ref.index,
        "description": f"One {noun} (reference).",
        "synonyms": [noun, plural(noun)],
        "id_field": key,
        "title_field": _name_column(ref, key),
        "fields": fields,
    }


def _named_codes(
    record: IndexProfile,
    references: list[IndexProfile],
    links: list[Link],
    keys: dict[str, str],
    fields: dict[str, dict[str, Any]],
) -> dict[str, Decision]:
    """A record column that alone holds a reference's codes, which the reference names ("UA" →
    "United Air Lines Inc.", genre 1 → "Rock"): the reference's noun is a word of the column ("by
    airline"); its names read as the codes (entities). A number key that repeats across the records
    (genre_id in tracks) is such a code too: grouped by, and said by its name."""
    found: dict[str, Decision] = {}
    for ref in references:
        key, name = keys[ref.index], _name_column(ref, keys[ref.index])
        mine = [link.column for link in links if link.reference == ref.index and link.by == key]
        # evidence: one column of codes, and a reference with a name column beside its key
        if len(mine) != 1 or name == key:
            continue
        field = fields[mine[0]]
        # the records hold the names too (customer_name beside customer_key): those are grouped by
        spelt = any(link.reference == ref.index and link.by == name for link in links)
        numbered = not spelt and _numbered_code(record.columns[mine[0]], record.rows, field["role"])
        if field["role"] != "dimension" and not numbered:
            continue
        noun = singular(phrase(row_name(ref.index)))
        said = [*field["synonyms"], noun, plural(noun)]
        if numbered:  # said by the name its number stands for ("genre", not "genre id")
            said = [noun, plural(noun)]
        field.update(role="dimension", synonyms=list(dict.fromkeys(said)))
        found[mine[0]] = Decision(
            "dimension",
            f"codes named in {ref.index} ({name})",
            outcome=f"dimension read by its names, said '{noun}'",
        )
    return found


def _numbered_code(column: Column, rows: int, role: str) -> bool:
    """A number key that repeats across the records (no record's own number): a track bought on
    several invoice lines."""
    return role == "identifier" and column.numeric and column.distinct < 0.9 * max(rows, 1)


def _links(record: IndexProfile, ref: IndexProfile, key: str, engine: Engine) -> list[Link]:
    """Record columns whose values (almost) all are the reference's names or keys."""
    name = _name_column(ref, key)
    held = {col: _all_values(engine, ref, col) for col in dict.fromkeys([name, key])}
    links = []
    for column in record.columns.values():
        # ids past the profile's list, words or numbers: read them all
        keys = _has(column.name, "id_words")
        if not (column.complete_values or keys) or column.type not in {
            "keyword",
            "integer",
            "long",
        }:
            continue
        values = _all_values(engine, record, column.name)
        for by, known in held.items():
            if by == key and column.numeric and not _related(column.name, ref.index, key):
                # numbers are in many ranges: a numeric key link needs the names to agree too
                continue
            if len(values) >= 2 and len(values & known) >= 0.9 * len(values):
                links.append(Link(column.name, ref.index, by))
                break
    return links


def _related(column: str, index: str, key: str) -> bool:
    """`customer_key` and index `customers` (or its key `customer_key`) share a word."""
    theirs = {singular(w) for w in [*words_of(index), *words_of(key)]} - {
        str(w) for w in _words()["id_words"]
    }
    return bool(theirs & {singular(w) for w in words_of(column)})


def _all_values(engine: Engine, ref: IndexProfile, column: str) -> set[str]:
    found = ref.columns[column]
    return (
        {str(v) for v, _ in found.values}
        if found.complete_values
        else distinct_values(engine, ref.index, column)
    )


def _linked(
    references: list[IndexProfile], links: list[Link], keys: dict[str, str]
) -> dict[str, Any]:
    """The references whose attributes filter the records (linked.py), by the record columns holding
    their keys."""
    found = {}
    for ref in references:
        fields = [
            link.column
            for link in links
            if link.reference == ref.index and link.by == keys[ref.index]
        ]
        drafted = linked_attributes(ref, keys[ref.index], fields, is_name_like) if fields else {}
        if drafted:
            found[ref.index] = drafted
    return found


def _entities(
    record: IndexProfile,
    references: list[IndexProfile],
    links: list[Link],
    keys: dict[str, str],
    engine: Engine,
) -> dict[str, Any]:
    entities: dict[str, Any] = {}
    linked = {link.column for link in links}
    for ref in references:
        mine = [link for link in links if link.reference == ref.index]
        named = ref.columns[_name_column(ref, keys[ref.index])]
        # numbers are no names: "1995" is a year
        if mine and named.type == "keyword" and is_name_like(named):
            entity = _reference_entity(ref, keys[ref.index], mine, engine)
            entities[singular(phrase(row_name(ref.index))).replace(" ", "_")] = entity
    for group in _value_groups(record, linked):
        entities[group[0].name] = _inline_entity(group)
    return entities


def _reference_entity(
    ref: IndexProfile, key: str, links: list[Link], engine: Engine
) -> dict[str, Any]:
    """Names of a reference object that filter the record: on its name column, else on its code.

    Where the record holds codes ("DL"), the code is the entity's value and the full names and their
    aliases name it ("Delta Air Lines Inc.", "Delta"); where it holds numeric keys, a name's row
    gives the key.
    """
    name = _name_column(ref, key)
    by_name = [link for link in links if link.by == name]
    noun = singular(phrase(row_name(ref.index)))
    entity: dict[str, Any] = {
        "object": ref.index,
        "name_field": name,
        "words": [noun, plural(noun)],
    }
    rows = [
        {k: "" if v is None else str(v) for k, v in row.items()}
        for row in index_rows(engine, ref.index, key)
    ]
    if by_name or key == name:
        entity["targets"] = [_target(link, None, len(by_name) > 1) for link in by_name or links]
        drafted = {row[name]: aliases(row[name]) for row in rows}
    elif ref.columns[key].type == "keyword":
        entity.update(name_field=key, extra_names=[name], say_names=True)
        entity["targets"] = [_target(link, None, len(links) > 1) for link in links]
        drafted = {row[key]: aliases(row[name]) for row in rows}
    else:
        entity["targets"] = [_target(link, key, len(links) > 1) for link in links]
        drafted = {}
    if any(drafted.values()):
        entity["values"] = {value: found for value, found in drafted.items() if found}
    return entity


def _target(link: Link, value_from: str | None, several: bool) -> dict[str, Any]:
    target: dict[str, Any] = {"field": link.column}
    if value_from:
        target["value_from"] = value_from
    cues = words_of(link.column)[:-1]
    if several and cues:
        target["cues"] = list(dict.fromkeys([*cues, *(plural(c) for c in cues)]))
    return target


def _value_groups(record: IndexProfile, linked: set[str]) -> list[list[Column]]:
    """Name and code columns of the record, those sharing most of their values grouped as one
    entity."""
    columns = [
        c
        for c in record.columns.values()
        if c.type == "keyword"
        and c.name not in linked
        and c.complete_values
        and role_of(c, record.rows, record.index) == "dimension"
        and not is_vocabulary(c)
        and (is_name_like(c) or is_code_like(c))
    ]
    groups: list[tuple[set[Any], list[Column]]] = []  # the first column's values, the group
    for column in columns:
        values = {v for v, _ in column.values}
        home = next(
            (g for first, g in groups if len(values) >= 5 and _overlap(values, first) >= 0.5),
            None,
        )
        if home is None:
            groups.append((values, [column]))
        else:
            home.append(column)
    return [group for _, group in groups]


def _overlap(a: set[Any], b: set[Any]) -> float:
    shared = len(a & b)
    return shared / max(1, len(a) + len(b) - shared)


def _inline_entity(group: list[Column]) -> dict[str, Any]:
    values: dict[str, list[str]] = {}
    for column in group:
        for value, _ in column.values:
            values.setdefault(str(value), aliases(str(value)))
    head = phrase(group[0].name)
    targets = [_target(Link(c.name, "", ""), None, len(group) > 1) for c in group]
    return {
        "values": values,
        "words": list(dict.fromkeys([head, plural(head)])),
        "targets": targets,
    }


def _measures(record: IndexProfile, fields: dict[str, dict[str, Any]]) -> dict[str, Any]:
    measures: dict[str, Any] = {}
    for name, field in fields.items():
        if field["role"] != "measure" or name == _noun(record.index).replace(" ", "_"):
            continue
        measures.update(_field_measures(record, name, field.get("unit")))
    # words a measure takes from the count: the takings words, and the records' own noun where an
    # amount is named after them ("salary" in salaries: "total salaries" sums salary)
    noun = _noun(record.index)
    takings = {str(w) for w in _words()["takings_words"]} | {noun, singular(noun), plural(noun)}
    claimed = takings & {w for m in measures.values() for w in m["words"]}
    named = {w for field in fields.values() for w in field["synonyms"]}
    return {
        _noun(record.index).replace(" ", "_"): _count_measure(record, claimed | named),
        **measures,
    }


def _count_measure(record: IndexProfile, claimed: set[str]) -> dict[str, Any]:
    """The record count; words a money measure claims ("sales" as takings) or a field's name are
    left to them: with "pizzas" a record noun, "how many pizzas" still counts rows, and "top 5
    pizzas" ranks the pizza names."""
    noun = _noun(record.index)
    head = noun.split()[-1]
    row, period = record_noun(record.index, record.columns), period_rows(record)
    said = [*(row.words if row else []), *([plural(period), period] if period else [])]
    said += row_nouns(record)
    counted = [
        noun,
        singular(noun),
        head,
        singular(head),
        *said,
        "how many",
        "number of",
        "count",
        "records",
        "rows",
    ]
    words = [
        w
        for w in dict.fromkeys(counted)
        if w not in claimed or w in {"how many", "number of", "count"}
    ]
    return {
        "agg": "count",
        "words": words,
        "label": _count_label(row, period, noun),
    }


def _count_label(row: RowNoun | None, period: str | None, noun: str) -> str:
    """What the record count is called: what a row is, else the periods it covers, else the
    file's noun."""
    if row:
        return row.label
    if period:
        return plural(period)
    return noun


def _field_measures(record: IndexProfile, name: str, unit: str | None) -> dict[str, Any]:
    """One measure for a quantity; money on sale records gets both its sum (takings) and its
    average."""
    column = record.columns[name]
    agg = aggregation(column)
    said = said_whole(name, record.columns)
    words = list(dict.fromkeys([phrase(name), plural(phrase(name)), said, plural(said)]))
    label = f"{'average' if agg == 'avg' else 'total'} {said}"
    measures = {name: {"agg": agg, "field": name, "words": words, "label": label}}
    money = _money_on_sales(record, column) or _is_money(
        column, {"integer", "long", "float", "double"}
    )
    if money or counts_time(column):
        # evidence: money (name cue, non-negative numbers) or a count of days ("hospdays"): sum
        # and average both, on sales the sum is the takings
        measures = _money_measures(record, name, words)
    if unit:
        for measure in measures.values():
            measure["unit"] = unit
    return measures


def _money_measures(record: IndexProfile, name: str, words: list[str]) -> dict[str, Any]:
    """The sum (named with the takings words where this column is the takings) and the average."""
    said = said_whole(name, record.columns)
    total = f"total {said}"
    takings = [str(w) for w in _words()["takings_words"]] if _takings_column(record) == name else []
    # a price-like name alone means its average ("price by size"); an amount-like name alone its sum
    averaged_by_name = _has(name, "avg_words") and not _has(name, "sum_words")
    totals = _words()["totals_named"]  # "payroll": the total of salaries has a name of its own
    named = [str(w) for word in words_of(name) for w in totals.get(word, [])]
    sum_words = [*takings, total, *named, *([] if averaged_by_name else words)]
    avg_words = [f"average {said}", *(words if averaged_by_name else [])]
    sum_key, avg_key = name, f"average_{name}"
    if averaged_by_name:  # the column's own name is the average; the sum takes another
        sum_key, avg_key = (takings[0] if takings else f"total_{name}"), name
    summed = {
        "agg": "sum",
        "field": name,
        "words": list(dict.fromkeys(sum_words)),
        "label": takings[0] if takings else total,
    }
    averaged = {
        "agg": "avg",
        "field": name,
        "words": list(dict.fromkeys(avg_words)),
        "label": f"average {said}",
    }
    return {sum_key: summed, avg_key: averaged}


def _takings_column(record: IndexProfile) -> str | None:
    """The money column the takings words name: the one named with one of them, else the first money
    column."""
    money = [
        c.name
        for c in record.columns.values()
        if _money_on_sales(record, c) and not is_statistic(c.name)
    ]
    named = [name for name in money if _has(name, "takings_words")]
    chosen = named or money
    return chosen[0] if chosen else None


def _money_on_sales(record: IndexProfile, column: Column) -> bool:
    """Money: a money word in the name and non-negative decimals; sales: a sale word in the records'
    name."""
    return _is_money(column, {"float", "double"}) and _has(record.index, "sale_words")


def _is_money(column: Column, types: set[str]) -> bool:
    """A money word in the name, no id word, and non-negative numbers of these types."""
    numbers = column.type in types and column.low is not None and column.low >= 0
    return numbers and _has(column.name, "money_words") and not _has(column.name, "id_words")


def _measure_verbs(measures: dict[str, dict[str, Any]]) -> list[str]:
    """The verbs said of what the measures count ("home_goals": scored, score), from
    draft_words.yaml."""
    known: dict[str, list[str]] = _words()["measure_verbs"]
    nouns = {word for spec in measures.values() for word in words_of(str(spec.get("field") or ""))}
    return list(
        dict.fromkeys(str(verb) for noun in sorted(nouns & set(known)) for verb in known[noun])
    )


def _time(record: IndexProfile, fields: dict[str, dict[str, Any]]) -> dict[str, Any]:
    dates = [c for c in record.columns.values() if c.type == "date"]
    if not dates:
        return {"default_field": next(iter(fields)), "fields": {}}
    # the fullest date column; of equals, the one that starts first (an order is placed before it
    # ships)
    default = min(dates, key=lambda c: (-c.present, str(c.low), c.name))
    words = {c.name: _date_words(c.name) for c in dates}
    words[default.name] += [str(w) for w in _words()["start_verbs"]]
    return {"default_field": default.name, "fields": words}


def _date_words(name: str) -> list[str]:
    """A date column's verbs and nouns: "ship_date" → ship, shipped, ship date."""
    words = [w for w in words_of(name) if w not in {"date", "time", "at", "on", "dt", "ts", "day"}]
    found = [phrase(name)]
    for word in words:
        found += [word, _past(word)]
    return list(dict.fromkeys(found))


def _past(word: str) -> str:
    """ship → shipped, order → ordered, receive → received (regular verbs only)."""
    if word.endswith("e"):
        return word + "d"
    one_syllable = len(re.findall(r"[aeiou]+", word)) == 1
    if one_syllable and re.search(r"[^aeiou][aeiou][^aeiouwxy]$", word):
        return word + word[-1] + "ed"
    return word + "ed"
