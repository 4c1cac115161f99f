"""The answer's English as data: answers/en.yaml, typed.

One model loads the reading said back with each result and the fixed sentences of the answer's
text, notes and refusals, as understanding/grammar.py loads the reader's en.yaml. A template is
filled with `str.format`; which one applies is the writer's code.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict

from bosun.catalog.schema import DatePartName
from bosun.understanding.meaning import RefusalReason
from bosun.yamltext import load_yaml

Order = Literal["desc", "asc"]


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PeriodsRead(_Data):
    compared: str
    joiner: str
    change: str
    change_percent: str
    ranked: dict[Order, str]


class SetsRead(_Data):
    has_all: str
    has_none: str
    both: str
    either: str


class ReadBack(_Data):
    """How a meaning is said back in words: templates around the catalog's names."""

    joiner: str
    grouping: str
    pooled: str
    ranked: dict[Order, str]
    counted: dict[Order, str]
    ordered: dict[str, str]
    sorted: dict[str, str]
    sorted_dates: dict[str, str]
    dated_in_text: str
    page: str
    steps: dict[str, str]
    part_order: dict[DatePartName, str]
    share_part: str
    share_of_all: str
    difference_ranked: dict[Order, str]
    periods: PeriodsRead
    sets: SetsRead


class Shared(_Data):
    sides: dict[Order, str]
    and_word: str
    no_rows: str
    more_rows: str
    not_available: str


class Records(_Data):
    in_all: str
    narrowed: str
    these: str
    all: str
    periods: str
    part_nouns: dict[DatePartName, tuple[str, str]]


class Summary(_Data):
    one_row: str
    counted: str
    one_figure: str
    figures: str
    found: str
    named_more: str
    showing: str
    next_page: str
    first: str
    first_sides: dict[Order, str]
    page: str
    page_more: str
    page_past: str
    values: str
    listing: str
    per_period: str
    groups_per_period: str
    fewer: str
    ranked: str
    grouped: str


class Rankings(_Data):
    tie: str
    lowest: str
    highest: str
    share: str
    leads: str
    has: str
    judged: dict[Literal["best", "worst"], str]
    sides: dict[Literal["least", "lowest", "most", "highest"], str]
    over_periods: str


class Trends(_Data):
    went: str
    directions: dict[Literal["up", "down", "flat"], str]
    cut_one: str
    cut_several: str
    too_few: str


class Steps(_Data):
    passed_of: str
    threshold: str
    against: str
    tested: str
    threshold_by_period: str
    among: str
    top_each: str
    in_all: str
    in_all_over: str
    period: str
    running: str
    running_by_group: str
    running_row: str
    running_total: str
    cut: str
    no_change: str
    change: str
    skipped: str
    changes: str
    change_row: str
    per_period: str
    per_period_by_group: str
    per_period_row: str
    per_period_all: str
    from_first: str
    partial_one: str
    partial_several: str
    ends: dict[Literal["first", "last"], str]
    per_group: str


class Compared(_Data):
    begin_after: str
    end_before: str
    begin_in: str
    end_in: str
    nothing: str
    of_records: str
    periods: str
    no_groups: str
    groups: str
    no_figure: str
    no_percent: str
    ranked: str
    how: dict[Literal["change", "percent"], str]
    order: dict[Order, str]
    of: str
    none_pass: str
    passed: str
    has_all: str
    has_none: str
    all_dates: str
    difference: str
    differences: str
    difference_row: str


class Measures(_Data):
    by_group: str
    share: str
    share_base: str
    percentile: str
    share_row: str
    percentile_row: str
    percentile_note: dict[Literal["embedded", "remote"], str]


class Assumed(_Data):
    whole_periods: str
    week_held: str
    read_as: str
    either: str
    dates_read_as: str
    the_dates: str
    until_now: str
    linked: str


class Refusals(_Data):
    reasons: dict[RefusalReason, str]
    level_total: str
    closest: str
    closest_level: str
    either: str
    this: str
    instead: str
    nothing_asked: str
    mostly_unread: str
    by_examples: str
    by_any_field: str
    unknown_term: str
    unknown_object: str
    not_in_glossary: str
    past_the_pages: str
    no_linked: str


class Diagnosis(_Data):
    none: str
    some: str
    term: str
    terms: str
    range: dict[str, str]
    negated: str
    negated_joiner: str


class CatalogWords(_Data):
    definition: str
    field: str
    derived: str
    fields_title: str
    field_columns: list[str]
    object_columns: list[str]
    attributes: str
    attribute: str
    described: str
    not_recorded: str


class Questions(_Data):
    which_one: str
    did_you_mean: str
    ambiguous: str


class Notes(_Data):
    taught: str
    remember: str
    model_text_unused: str
    model_clause_unused: str
    model_clause_read: str


class TurnWords(_Data):
    goal_failed: str
    failed: str
    done: str
    not_understood_one: str
    not_understood_many: str
    misread: str
    rest: str
    quoted: str


class ChoiceWords(_Data):
    date_field: str


class Writing(_Data):
    """answers/en.yaml, typed."""

    read_back: ReadBack
    shared: Shared
    records: Records
    summary: Summary
    rankings: Rankings
    trends: Trends
    steps: Steps
    compared: Compared
    measures: Measures
    assumed: Assumed
    refusals: Refusals
    diagnosis: Diagnosis
    catalog: CatalogWords
    questions: Questions
    notes: Notes
    turn: TurnWords
    choices: ChoiceWords


@cache
def writing() -> Writing:
    """The answer's English, read once."""
    text = resources.files("bosun.answers").joinpath("en.yaml").read_text(encoding="utf-8")
    return Writing.model_validate(load_yaml(text))
