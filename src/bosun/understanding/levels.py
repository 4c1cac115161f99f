"""Levels are never added up (issue 34): a level — a figure per record such as a duration or a
price, a rate, an average — is averaged or taken at a period, never summed into a total.

"total transit time" is the level as the catalog measures it (the Composer keeps a measure of a
level to its own aggregation). Refused with reason no_measure, saying what the data has instead:

- a sum said outright (the grammar's `measure_kinds.summed`): "sum of transit days", "add up the
  hold rates";
- a sum of levels made by aggregating: "add up the average order amount of each store", "the sum
  of the median transit times";
- a total of a level the catalog has no measure of: "total vessel capacity", "total unit price";
- a running total of a level: "running total of average transit time by month".

    >>> level_totals(spans("sum of transit days into Savannah"), c, meaning)  # doctest: +SKIP
    >>> meaning.refusal
    Refusal(reason='no_measure', words=['transit days'], total=True, instead=['transit_time'])
"""

from __future__ import annotations

from dataclasses import dataclass

from bosun.catalog import Catalog
from bosun.catalog.schema import MeasureSpec
from bosun.understanding.closest import closest_measures
from bosun.understanding.inflections import singular
from bosun.understanding.meaning import Meaning, Measure, Refusal, Running
from bosun.understanding.measure_kinds import Composer
from bosun.understanding.names import normalize
from bosun.understanding.tagger import Span

_NEAR = 6  # how far the level may follow the word that sums it, in spans
_ADDITIVE = ("sum", "count")
# words a sum word may stand apart from its level by: "sum of (the) Maersk transit days"
_PASSABLE = ("record", "name", "value", "object", "entity_word", "backref", "number", "ordinal")


def is_level(spec: MeasureSpec, catalog: Catalog) -> bool:
    """A measure of a level: a ratio, an average, an extreme, or any measure of a level field but
    a sum the catalog itself defines (a panel's total of a level, summed within one period)."""
    if spec.share is not None or spec.agg not in _ADDITIVE:
        return True
    measured = catalog.record.fields.get(spec.field) if spec.field else None
    return measured is not None and measured.level and not catalog_sums(spec.field, catalog)


def catalog_sums(field: str | None, catalog: Catalog) -> bool:
    """Whether the catalog defines a sum of `field` as a measure of its own: then summing it is
    what the catalog allows ("total population", within one year of a panel)."""
    measures = catalog.spec.measures.values()
    return field is not None and any(m.agg == "sum" and m.field == field for m in measures)


def summed_level(measure: Measure, catalog: Catalog) -> bool:
    """A measure whose figures are levels, so that adding them up means nothing: a share, an
    average, a percentile, an extreme, a distinct count, or any aggregation of a level field."""
    if measure.share is not None or measure.agg not in _ADDITIVE:
        return True
    measured = catalog.record.fields.get(measure.field) if measure.field else None
    return measured is not None and measured.level


def running_levels(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "running total of average transit time by month": a running total adds each period's
    figure to the last; of a level it is refused, as its sum is."""
    running = any(isinstance(step, Running) for step in meaning.steps)
    if not running or not meaning.measures or meaning.refusal is not None:
        return
    measure = meaning.measures[0]
    if summed_level(measure, c.catalog):
        instead = closest_measures(c.catalog, c.grammar, measure.label, measure.field)
        meaning.refusal = Refusal(
            reason="no_measure", words=[measure.label], total=True, instead=instead
        )


def level_fields(catalog: Catalog) -> dict[str, str]:
    """Each phrase naming a level field of any object (its name, synonyms, link words) → the
    field."""
    found: dict[str, str] = {}
    for obj in catalog.spec.objects.values():
        for name, spec in obj.fields.items():
            if spec.level and not catalog_sums(name, catalog):
                for phrase in [name.replace("_", " "), *spec.synonyms]:
                    found[normalize(phrase)] = name
    for link in catalog.spec.links.values():
        for name, attribute in link.attributes.items():
            if name in found.values():
                found.update({normalize(w): name for w in attribute.words})
    return found


@dataclass
class _Asked:
    """What a sum word sums: the spans that name it, the catalog's measure of it, its field."""

    spans: list[Span]
    measure: str | None
    field: str | None
    aggregated: bool = False  # an average, median or extreme before it: a sum of levels


def level_totals(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """A total of a level the catalog measures is that measure ("total" says nothing more); any
    other sum of a level is refused (see the module)."""
    levels = level_fields(c.catalog)
    for i, span in enumerate(spans):
        if span.used or not _sums(span):
            continue
        after = _asked_after(spans, i, c, levels)
        if after is not None and not _refused(after, span):
            _read_as_measured(span, after, c, meaning)
            continue
        asked = after or _asked_before(spans, i, c, levels)
        if asked is not None and _refused(asked, span):
            _refuse(span, asked, c, meaning)
            return


def _read_as_measured(said: Span, asked: _Asked, c: Composer, meaning: Meaning) -> None:
    """ "total transit time": the level as the catalog measures it; when that is an average, the
    answer says so, since the question asked for a total and gets none."""
    said.used = True
    measure = c.catalog.spec.measures.get(asked.measure) if asked.measure else None
    if measure is None or measure.agg != "avg":
        return  # "total hold rate": the rate itself, no total to miss
    template = c.grammar.measure_kinds.level_total_read
    words = " ".join([said.text, _words(asked.spans, c)])
    meaning.assumptions.append(template.format(words=words, measure=measure.label))


def _refuse(said: Span, asked: _Asked, c: Composer, meaning: Meaning) -> None:
    for span in (said, *asked.spans):
        span.used = True
    words = _words(asked.spans, c)
    instead = closest_measures(c.catalog, c.grammar, words, asked.field)
    meaning.refusal = Refusal(reason="no_measure", words=[words], total=True, instead=instead)


def _words(spans: list[Span], c: Composer) -> str:
    """The asked thing in the question's words, without a small word the phrase ends on
    ("capacity of")."""
    small = {*c.grammar.function_words, *c.grammar.structure_words}
    words = " ".join(s.text for s in spans).split()
    while len(words) > 1 and words[-1].lower() in small:
        words.pop()
    return " ".join(words)


def _sums(span: Span) -> bool:
    return span.has("summed") or any(agg == "sum" for agg, _ in span.values("agg"))


def _refused(asked: _Asked, said: Span) -> bool:
    """Said outright, a sum of aggregates, or a level the catalog does not measure."""
    return said.has("summed") or asked.aggregated or asked.measure is None


def _asked_after(spans: list[Span], i: int, c: Composer, levels: dict[str, str]) -> _Asked | None:
    """The level named after a sum word, past small words, names and aggregation words."""
    first: int | None = None  # where the asked thing starts: "(average) (order) amount"
    aggregated = False
    for j in range(i + 1, min(len(spans), i + 1 + _NEAR)):
        span = spans[j]
        asked = _named(span, c, levels, aggregated)
        if asked is not None:
            asked.spans = spans[j if first is None else first : j + 1]
            return asked
        if _aggregating(span):
            aggregated = True
            first = j if first is None else first
        elif span.has("record", "object", "entity_word"):
            first = j if first is None else first  # "total vessel capacity"
        elif span.has("group_cue") or _measure_word(span, c):
            return None  # "total TEU by …": a measure that adds up, or the sum's scope
        elif not (c.glue(span) or span.quiet or span.has(*_PASSABLE)):
            return None
        else:
            first = None  # a name or a small word between: "sum of (the) Maersk transit days"
    return None


def _asked_before(spans: list[Span], i: int, c: Composer, levels: dict[str, str]) -> _Asked | None:
    """A level just before a sum word said after it: "transit days added up"; a union word
    after values ("Maersk and MSC combined") sums nothing."""
    j = c.before(spans, i, limit=2)
    if j is None or "union" in spans[i].values("set"):
        return None
    return _named(spans[j], c, levels, aggregated=False)


def _named(span: Span, c: Composer, levels: dict[str, str], aggregated: bool) -> _Asked | None:
    """The level a span names: a catalog measure of one, a level field; after an aggregation
    word, any measure ("the average order amount")."""
    if span.used:
        return None
    if not aggregated and any(catalog_sums(f, c.catalog) for f in span.values("field")):
        return None  # the catalog defines a total of it ("total GSP" of a panel): summed as asked
    named = _named_measure(span, c, aggregated) or _named_field(span, c, aggregated)
    if named is not None:
        return named
    found = levels.get(normalize(span.key)) or levels.get(singular(normalize(span.key)))
    return _Asked([span], _measure_of(found, c), found, aggregated) if found else None


def _named_measure(span: Span, c: Composer, aggregated: bool) -> _Asked | None:
    """A catalog measure of a level the span names ("transit time"), any after an aggregation word;
    not the count a record noun names."""
    for name in span.values("measure"):
        measure = c.catalog.spec.measures[name]
        counted = span.has("record") and measure.agg == "count"
        if not counted and (aggregated or is_level(measure, c.catalog)):
            return _Asked([span], name, measure.field, aggregated)
    return None


def _named_field(span: Span, c: Composer, aggregated: bool) -> _Asked | None:
    """A level field the span names ("transit days"), any measure field after an aggregation
    word."""
    for name in c.fields_of(span, "measure"):
        if aggregated or c.catalog.record.fields[name].level:
            return _Asked([span], _measure_of(name, c), name, aggregated)
    return None


def _measure_of(name: str, c: Composer) -> str | None:
    """The catalog's measure of a field (not a share of it)."""
    measures = c.catalog.spec.measures.items()
    return next((m for m, spec in measures if spec.field == name and not spec.share), None)


def _aggregating(span: Span) -> bool:
    """An average, an extreme, a median or a percentile: what it makes of a measure is a level."""
    aggs = {agg for agg, _ in span.values("agg")}
    return bool(aggs - {"sum", "cardinality"}) or span.has("median", "percentile")


def _measure_word(span: Span, c: Composer) -> bool:
    """A word of a measure (not a level, which `_named` took first)."""
    return (span.has("measure") and not span.has("record")) or bool(c.fields_of(span, "measure"))
