"""A catalog adjective in comparative or superlative form picks the measure it qualifies (brief U1).

    "carriers that had the slowest transits"      → ranks carriers by average transit days, not the
                                                     longest single transit of each
    "which commodity was heaviest on average"     → ranks commodities by average weight
    "are Maersk shipments heavier than MSC ones"  → Maersk's average weight minus MSC's

The words are the catalog's (FieldSpec.adjectives, MeasureSpec.adjectives), their forms come from
understanding.inflections; "on average" is en.yaml's `aggregations`.
"""

from __future__ import annotations

from typing import Protocol

from bosun.catalog import Catalog
from bosun.understanding.meaning import Meaning, Measure
from bosun.understanding.tagger import Span

Adjective = tuple[str, str, int, str]  # the tagger's: kind, name, direction, form


class Composer(Protocol):
    """What these rules use of compose's Composer (which calls them)."""

    @property
    def catalog(self) -> Catalog: ...

    def dimension(self, span: Span, meaning: Meaning | None = None) -> str | None: ...
    def field_measure(self, name: str, agg: str | None = None) -> Measure: ...
    def measure(self, name: str, agg: str | None = None) -> Measure: ...


def superlative(span: Span) -> bool:
    return any(a[3] == "superlative" for a in span.values("adjective"))


def ranks_named_groups(spans: list[Span], i: int, c: Composer) -> bool:
    """A superlative adjective after the thing grouped ranks the groups ("carriers that had the
    slowest transits"); one before a grouping cue is the largest value in each group ("the slowest
    transit per carrier")."""
    if not superlative(spans[i]):
        return False
    named_before = any(c.dimension(s) is not None for s in spans[:i])
    cue_after = any(s.has("group_cue") for s in spans[i + 1 :])
    return named_before and not cue_after


def averaged(spans: list[Span], after: int) -> Span | None:
    """An unread "on average" after a ranking or a comparison: what it compares is averaged."""
    for span in spans[after:]:
        if not span.used and any(agg[0] == "avg" for agg in span.values("agg")):
            return span
    return None


def average_ranked(spans: list[Span], after: int, c: Composer, meaning: Meaning) -> None:
    """ "which commodity was heaviest on average": the ranked measure's field, averaged; a level
    is averaged already ("which ships were slowest on average")."""
    said = averaged(spans, after)
    ranked = meaning.measures[0] if meaning.measures else None
    if said is None or ranked is None or ranked.field is None or ranked.agg not in ("sum", "avg"):
        return
    meaning.measures[0] = c.field_measure(ranked.field, "avg")
    said.used = True


def compared_measure(spans: list[Span], c: Composer) -> tuple[Measure, list[Span]] | None:
    """The measure a comparative adjective of two sides names, and the spans saying it: a field's
    adjective compares the sides' records, so its field is averaged ("Maersk shipments heavier than
    MSC shipments", "… more valuable than …"); a measure's is that measure ("was Savannah busier
    than Houston")."""
    for i in range(len(spans)):
        said = _comparative(spans, i)
        if not said or said[-1].used:
            continue
        kind, name = said[-1].values("adjective")[0][:2]
        if kind == "measure":
            return c.measure(name), said
        return c.field_measure(name, "avg"), said
    return None


def _comparative(spans: list[Span], i: int) -> list[Span]:
    """ "heavier", or "more valuable" (a degree word and the base adjective): its spans, else []."""
    span = spans[i]
    if any(a[3] == "comparative" for a in span.values("adjective")):
        return [span]
    degree = span.value("degree")
    following = spans[i + 1] if i + 1 < len(spans) else None
    if degree and degree[0] == "comparative" and following and following.has("adjective"):
        return [span, following]
    return []
