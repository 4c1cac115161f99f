"""The grammar as data: en.yaml's English and the catalog's domain words, as one lexicon of tagged
phrases.

A phrase (lower-case words) maps to every tag it can carry: "most" is a ranking word and a degree
word, "arrivals" a record noun and a date word. The tagger picks phrases; the composition rules pick
tags.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict

from bosun.catalog import Catalog
from bosun.catalog.schema import Adjectives, DatePartName
from bosun.understanding.inflections import degrees, phrase_forms
from bosun.understanding.meaning import RefusalReason
from bosun.understanding.names import normalize
from bosun.yamltext import load_yaml


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True)


class AggWords(_Data):
    words: list[str]
    order: str = "desc"


class Degree(_Data):
    comparative_words: list[str]
    superlative_words: list[str]
    lowering_words: list[str]


class FollowUp(_Data):
    more: list[str]
    all: list[str]
    show: list[str]
    sort: list[str]
    ascending: list[str]
    descending: list[str]
    refine: list[str]
    top_one: list[str]
    shift: dict[str, int]
    compare: list[str]


class StepWords(_Data):
    """Words of the steps after grouping (en.yaml `steps`)."""

    running: list[str]
    change: list[str]
    percent: list[str]
    # after a change word: "growth %", "growth rate"
    percent_after: list[str]
    previous: list[str]
    within: list[str]
    # a coarser period after one of these holds a ranked period too ("the busiest week by quarter")
    holding: list[str]
    # said when "average monthly <field>" averages the period totals of a field's sum
    per_period_read: str
    over_groups: list[str]


class PeriodWords(_Data):
    """en.yaml `periods`: relative periods, change words with their direction, percent words."""

    shifts: dict[str, str]
    change: dict[str, int]
    percent: list[str]


class PeriodNames(_Data):
    """en.yaml `period_names`: how a period is written ("January 2025", "Q1 2026", "week of 6 Jan
    2025")."""

    formats: dict[str, str]
    dense: dict[str, str]
    short_months: dict[int, str]


class SetWords(_Data):
    """en.yaml `sets`: words of set logic over the values a question names."""

    every: list[str]
    every_joins: list[str]
    none: list[str]
    union: list[str]


class ReferentWords(_Data):
    """en.yaml `referents`: words that point at the last answer's rows, and how to say them."""

    among: list[str]
    partitive: list[str]
    one_row: list[str]
    # "that week", "that carrier": a word before a noun of the rows that points at the one row
    one_row_pointers: list[str]
    one_record: list[str]
    rest: list[str]
    pick: list[str]
    openers: list[str]
    highest: list[str]
    lowest: list[str]
    also: list[str]
    never: list[str]
    instead: list[str]
    each: list[str]
    whole: list[str]
    same: list[str]
    year_back: list[str]
    before_that: list[str]
    stretch: list[str]
    said: str
    said_one: str
    said_rest: str


class HavingWords(_Data):
    """en.yaml `having`: "had / with / without X", X a measured thing."""

    has: list[str]
    lacks: list[str]
    articles: list[str]
    none: list[str]


class BaselineWords(_Data):
    """en.yaml `baselines`: a group held against the overall figure ("more TEU than average")."""

    more: list[str]
    less: list[str]
    than: list[str]
    whole: list[str]


class QualifierWords(_Data):
    """en.yaml `qualifiers`: a participle that qualifies a noun ("used cars")."""

    participles: list[str]
    auxiliaries: list[str]


class ScopeWords(_Data):
    """en.yaml `scope`: words that say one figure over every group or one per group."""

    pooled: list[str]
    separate: list[str]
    among: list[str]
    # at the question's start, "among" too: "Of the carriers into Seattle, which …"
    opening: list[str] = []
    ranked_by: list[str]


class DifferenceWords(_Data):
    """en.yaml `differences`: words that ask one side's figure minus the other's."""

    nouns: list[str]
    minus: list[str]
    than: list[str]
    asks: list[str]


class Replies(_Data):
    option_words: list[str]
    attribute_cues: list[str]
    agree: list[str]


class Phrases(_Data):
    """A meaning's parts in words: templates around the catalog's names (en.yaml `phrases`)."""

    interval: str
    negated: str
    present: dict[str, str]
    either: str
    more_values: str
    bounds: dict[str, str]
    between: str
    exactly: str  # both bounds one number: "cost 1.99"
    both_bounds: str
    truth: dict[str, str]
    span: str
    since: str
    until: str
    dated: str
    # how a word read as another is said: kind of repair → template (candidates.py)
    repaired: dict[str, str] = {}


class Clock(_Data):
    """Clock times of a question: "10pm", "10 am", "noon"; the words that bound or span hours by
    them."""

    suffixes: dict[str, int]
    named: dict[str, int]
    after: list[str]
    before: list[str]
    between: list[str]
    joins: list[str]


class DateParts(_Data):
    """Words of the parts of a date (en.yaml `date_parts`): what groups by a part, what filters on
    its values."""

    units: dict[str, DatePartName]
    values: dict[DatePartName, dict[str, list[int]]]
    names: dict[DatePartName, dict[int, str]]
    said: dict[DatePartName, str]
    clock: Clock


class MeasureKindWords(_Data):
    """Words of the measure kinds (en.yaml `measure_kinds`): percentiles, shares, first/last
    dates."""

    median: list[str]
    percentile: list[str]
    percentile_prefixes: list[str]
    ordinal_suffixes: list[str]
    share: list[str]
    dated: list[str]
    median_label: str
    percentile_label: str
    share_label: str
    # a sum said outright ("add up"): of a level it is refused (levels.py)
    summed: list[str]
    # "total" before a level the catalog averages: the answer's note that no total was made
    level_total_read: str
    # unit of the catalog's measures → words of things counted in it ("revenue" → USD)
    unit_words: dict[str, list[str]]
    # unit → verbs that ask a measure in it, before a number ("cost 1.99", "weighing 12 kg")
    value_verbs: dict[str, list[str]]


class VerbPlace(_Data):
    """Where English puts a verb: after the question's subject (or a relative word after it) and
    before what the verb does to, which starts with one of `objects` or a ranking."""

    relatives: list[str]
    objects: list[str]


class Grammar(_Data):
    """en.yaml, typed."""

    # "by {word} i mean {target}": a chat line that teaches a word (issue #25)
    teaching: list[str] = []
    # "20RF or 40RF": several values one taught word names together
    teaching_joiners: list[str] = []

    filler: list[str]
    # "wk" → week: shorthand of the grammar's words (understanding/shorthand.py)
    abbreviations: dict[str, str] = {}
    function_words: list[str]
    neutral_verbs: list[str]
    verb_place: VerbPlace
    structure_words: list[str]
    meaning_words: list[str]
    quantifiers: list[str]
    refusals: dict[RefusalReason, list[str]]
    judgements: list[str]
    aggregations: dict[str, AggWords]
    aggregation_labels: dict[str, str]
    phrases: Phrases
    ranking: dict[str, list[str]]
    degree: Degree
    numbers: dict[str, float]
    ordinals: dict[str, int]
    scales: dict[str, float]
    currency: list[str]
    group_cues: list[str]
    interval_units: dict[str, str]
    interval_words: dict[str, str]
    unsupported_groupings: list[str]
    date_parts: DateParts
    compare: list[str]
    negation: list[str]
    thresholds: dict[str, str]
    units: dict[str, tuple[str, float]]
    goal_starts: list[str]
    conjunctions: list[str]
    back_references: list[str]
    pointing: list[str]
    definitions: list[str]
    field_questions: list[str]
    about: list[str]
    wh_words: list[str]
    wh_persons: list[str]
    list_cues: list[str]
    ratio_cues: list[str]
    follow_up: FollowUp
    referents: ReferentWords
    replies: Replies
    pages: list[str]
    ability: list[str]
    order_words: dict[str, list[str]]
    sort_cues: list[str]
    ordering_after: list[str]
    range_words: list[str]
    range_joins: list[str]
    recency: dict[str, list[str]]
    share_words: list[str]
    steps: StepWords
    measure_kinds: MeasureKindWords
    periods: PeriodWords
    period_names: PeriodNames
    sets: SetWords
    scope: ScopeWords
    differences: DifferenceWords
    having: HavingWords
    # a unit said before the measure it counts, and the words between ("years of education")
    measured_in: list[str] = []
    measured_joins: list[str] = []
    qualifiers: QualifierWords
    baselines: BaselineWords


@cache
def english() -> Grammar:
    text = resources.files("bosun.understanding").joinpath("en.yaml").read_text(encoding="utf-8")
    return Grammar.model_validate(load_yaml(text))


@dataclass(frozen=True)
class Tag:
    """One thing a phrase can be: `kind` (see Lexicon) and its value (a field, an aggregation, a
    number…)."""

    kind: str
    value: Any = None


# Tags that carry no content: a span with only these is never reported as not understood.
QUIET = frozenset({"filler", "function", "neutral", "structure"})


@dataclass
class Lexicon:
    """Every phrase the grammar and the catalog know, normalised → its tags."""

    phrases: dict[str, list[Tag]] = field(default_factory=dict)
    longest: int = 1
    scales: tuple[str, ...] = ()  # written right after a number: "1.5M", "20k"
    # a range's words around its two bounds: "between" 10 "and" 20
    range_words: tuple[str, ...] = ()
    range_joins: tuple[str, ...] = ()
    # the grammar's shorthand, spelt out where the date grammar reads: "last mo" (shorthand.py)
    abbreviations: dict[str, str] = field(default_factory=dict)
    _forms: dict[str, str] | None = field(default=None, repr=False)

    def add(self, phrase: str, tag: Tag) -> None:
        key = normalize(phrase) if phrase.strip() not in ("$", "#", ";", "%") else phrase.strip()
        if not key:
            return
        tags = self.phrases.setdefault(key, [])
        if tag not in tags:
            tags.append(tag)
        self.longest = max(self.longest, len(key.split()))
        self._forms = None

    def add_all(self, phrases: list[str] | dict[str, Any], kind: str, value: Any = None) -> None:
        for phrase in phrases:
            self.add(phrase, Tag(kind, value))

    def get(self, phrase: str) -> list[Tag]:
        return self.phrases.get(phrase, [])

    def read(self, phrase: str) -> list[Tag]:
        """The phrase's tags, or those of the phrase it inflects ("invoice lines" → "invoice
        line")."""
        return self.phrases.get(phrase) or self.phrases.get(self.forms.get(phrase, ""), [])

    @property
    def forms(self) -> dict[str, str]:
        """Each other inflection of a phrase's last word → the phrase ("transits" → "transit"),
        built on the first look-up after the lexicon changed."""
        if self._forms is None:
            self._forms = inferred_forms(self.phrases)
        return self._forms


def inferred_forms(phrases: Mapping[str, list[Tag]]) -> dict[str, str]:
    """Each other inflection of a phrase's last word → the phrase, where every phrase that inflects
    to it means the same: "departing" reads as "departed" and "depart" do, but "shipping" is not
    inferred where "ship" names vessels and "shipped" a date.

    >>> date, vessel = [Tag("date_word", "departure")], [Tag("object", "vessels")]
    >>> inferred_forms({"depart": date, "departed": date, "ship": vessel + date, "shipped": date})
    {'departing': 'depart', 'departs': 'depart'}
    """
    sources: dict[str, list[str]] = {}
    for phrase in phrases:
        for form in phrase_forms(phrase):
            if form not in phrases:
                sources.setdefault(form, []).append(phrase)
    meanings = {phrase: sorted(map(repr, tags)) for phrase, tags in phrases.items()}
    inferred = {
        form: min(held)
        for form, held in sorted(sources.items())
        if all(meanings[phrase] == meanings[held[0]] for phrase in held)
    }
    quiet = {form: _quiet_source(held, phrases) for form, held in sources.items()}
    return inferred | {
        form: phrase for form, phrase in quiet.items() if phrase and form not in inferred
    }


# Kinds of words that ask nothing where they stand: a form of one reads as quiet as its source.
_QUIET = frozenset({"filler", "function", "neutral"})


def _quiet_source(held: list[str], phrases: Mapping[str, list[Tag]]) -> str | None:
    """The phrase a form inflects when its phrases differ only in how quietly they ask nothing
    ("see" a filler and a neutral verb, "seen" a neutral verb: "sees" reads as "seen"): the one
    whose tags are all quiet and held by every other, or None.

    >>> quiet, verb = Tag("filler"), Tag("neutral")
    >>> _quiet_source(["see", "seen"], {"see": [quiet, verb], "seen": [verb]})
    'seen'
    """
    kinds = {phrase: {tag.kind for tag in phrases[phrase]} for phrase in held}
    if not set.union(*kinds.values()) <= _QUIET:
        return None
    shared = set.intersection(*kinds.values())
    return next((phrase for phrase in sorted(held) if kinds[phrase] == shared), None)


def build_lexicon(catalog: Catalog, grammar: Grammar | None = None) -> Lexicon:
    grammar = grammar or english()
    lexicon = english_lexicon(grammar)
    _catalog(lexicon, catalog, grammar)
    return lexicon


def english_lexicon(grammar: Grammar) -> Lexicon:
    """The grammar's own words, without a catalog's: what no catalog or taught word may redefine."""
    lexicon = Lexicon()
    _english(lexicon, grammar)
    return lexicon


def _english(lexicon: Lexicon, g: Grammar) -> None:
    lexicon.add_all(g.filler, "filler")
    lexicon.add_all(g.function_words, "function")
    lexicon.add_all(g.neutral_verbs, "neutral")
    lexicon.add_all(g.structure_words, "structure")
    lexicon.add_all(g.meaning_words, "meaning")
    lexicon.add_all(g.quantifiers, "quantifier")
    for reason, words in g.refusals.items():
        lexicon.add_all(words, "refusal", reason)
    lexicon.add_all(g.judgements, "judgement")
    for agg, agg_words in g.aggregations.items():
        lexicon.add_all(agg_words.words, "agg", (agg, agg_words.order))
    for direction, words in g.ranking.items():
        lexicon.add_all(words, "rank", direction)
    for phrase, number in g.numbers.items():
        lexicon.add(phrase, Tag("number", number))
    for phrase, ordinal in g.ordinals.items():
        lexicon.add(phrase, Tag("ordinal", ordinal))
    for phrase, scale in g.scales.items():
        lexicon.add(phrase, Tag("scale", scale))
    lexicon.scales = tuple(g.scales)
    lexicon.range_words, lexicon.range_joins = tuple(g.range_words), tuple(g.range_joins)
    lexicon.abbreviations = g.abbreviations
    lexicon.add_all(g.currency, "currency")
    lexicon.add_all(g.group_cues, "group_cue")
    for phrase, unit in g.interval_units.items():
        lexicon.add(phrase, Tag("interval_unit", unit))
    for phrase, unit in g.interval_words.items():
        lexicon.add(phrase, Tag("interval", unit))
    lexicon.add_all(g.unsupported_groupings, "unsupported")
    for phrase, part in g.date_parts.units.items():
        lexicon.add(phrase, Tag("part_unit", part))
    for part, named in g.date_parts.values.items():
        for phrase, numbers in named.items():
            lexicon.add(phrase, Tag("part_value", (part, tuple(numbers))))
    lexicon.add_all(g.steps.running, "step", "running")
    lexicon.add_all(g.steps.change, "step", "change")
    lexicon.add_all(g.compare, "compare")
    lexicon.add_all(g.negation, "negation")
    for phrase, op in g.thresholds.items():
        lexicon.add(phrase, Tag("threshold", op))
    for phrase, (unit, factor) in g.units.items():
        lexicon.add(phrase, Tag("unit", (unit, factor)))
    _degree_words(lexicon, g.degree)
    lexicon.add_all(g.back_references, "backref")
    lexicon.add_all(g.about, "about")
    lexicon.add_all(g.wh_words, "wh")
    lexicon.add_all(g.wh_persons, "who")
    lexicon.add_all(g.pages, "page")
    lexicon.add_all(g.conjunctions, "conj")
    lexicon.add_all(g.field_questions, "field_question")
    for direction, words in g.order_words.items():
        lexicon.add_all(words, "direction", direction)
    lexicon.add_all(g.sort_cues, "sort_cue")
    for direction, words in g.recency.items():
        lexicon.add_all(words, "recency", direction)
    _measure_kind_words(lexicon, g.measure_kinds)
    _analysis_words(lexicon, g)


def _measure_kind_words(lexicon: Lexicon, words: MeasureKindWords) -> None:
    lexicon.add_all(words.median, "median", 50.0)
    lexicon.add_all(words.percentile, "percentile")
    lexicon.add_all(words.share, "share")
    lexicon.add_all(words.dated, "dated")
    lexicon.add_all(words.summed, "summed")
    for unit, verbs in words.value_verbs.items():
        lexicon.add_all(verbs, "value_verb", unit)


def _analysis_words(lexicon: Lexicon, g: Grammar) -> None:
    """Words of periods compared and of set logic (issue 23)."""
    for phrase, unit in g.periods.shifts.items():
        lexicon.add(phrase, Tag("period_shift", unit))
    for phrase, direction in g.periods.change.items():
        lexicon.add(phrase, Tag("change", direction))
    lexicon.add_all(g.periods.percent, "change_percent")
    for kind, words in (
        ("every", g.sets.every),
        ("every_join", g.sets.every_joins),
        ("none", g.sets.none),
        ("union", g.sets.union),
    ):
        lexicon.add_all(words, "set", kind)
    for kind, words in (
        ("pooled", g.scope.pooled),
        ("separate", g.scope.separate),
        ("among", g.scope.among),
    ):
        lexicon.add_all(words, "scope", kind)
    _difference_words(lexicon, g.differences)


def _difference_words(lexicon: Lexicon, words: DifferenceWords) -> None:
    """A word of a difference the grammar does not read yet is one span ("ahead of"); one it reads
    keeps its reading alone ("than" still joins "heavier than 20 tons", "exceeds" still bounds), and
    sides.py knows it by its words."""
    for phrase in [*words.nouns, *words.minus, *words.than, *words.asks]:
        if not lexicon.get(normalize(phrase)):
            lexicon.add(phrase, Tag("difference"))


def _degree_words(lexicon: Lexicon, degree: Degree) -> None:
    for word in degree.comparative_words:
        lexicon.add(
            word, Tag("degree", ("comparative", -1 if word in degree.lowering_words else 1))
        )
    for word in degree.superlative_words:
        lexicon.add(
            word, Tag("degree", ("superlative", -1 if word in degree.lowering_words else 1))
        )


def _catalog(lexicon: Lexicon, catalog: Catalog, g: Grammar) -> None:
    spec = catalog.spec
    lexicon.add_all(spec.verbs, "neutral")
    lexicon.add_all(catalog.record.synonyms, "record")
    for name, obj in spec.objects.items():
        if name != spec.record:
            lexicon.add_all(obj.synonyms, "object", name)
    for name, fspec in catalog.record.fields.items():
        lexicon.add_all([*fspec.synonyms, name.replace("_", " "), name], "field", name)
        for value, words in fspec.values.items():
            typed: Any = (value == "true") if fspec.type == "boolean" else value
            lexicon.add_all(words, "value", (name, typed))
        _adjectives(lexicon, fspec.adjectives, ("field", name))
    for name, measure in spec.measures.items():
        lexicon.add_all(measure.words, "measure", name)
        _adjectives(lexicon, measure.adjectives, ("measure", name))
    for date_field, words in spec.time.fields.items():
        lexicon.add_all(words, "date_word", date_field)
    for name, entity in spec.entities.items():
        lexicon.add_all(entity.words, "entity_word", name)
    for link in spec.links.values():  # "flagged in", "based in": a cue no other word list holds
        cues = [w for attribute in link.attributes.values() for w in attribute.words]
        lexicon.add_all([w for w in cues if not lexicon.get(normalize(w))], "link_cue")
    synonyms = spec.glossary.synonyms if spec.glossary else {}
    for term in catalog.glossary:
        lexicon.add_all([term, *synonyms.get(term, [])], "term", term)


def _adjectives(lexicon: Lexicon, adjectives: Adjectives, target: tuple[str, str]) -> None:
    """Each base form with its comparative and superlative: heavy → heavier, heaviest."""
    for direction, words in ((1, adjectives.more), (-1, adjectives.less)):
        for word in words:
            lexicon.add(word, Tag("adjective", (*target, direction, "base")))
            comparatives, superlatives = degrees(word)
            for comparative in comparatives:
                lexicon.add(comparative, Tag("adjective", (*target, direction, "comparative")))
            for superlative in superlatives:
                lexicon.add(superlative, Tag("adjective", (*target, direction, "superlative")))
