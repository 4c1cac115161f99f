"""The words of the overall figure groups were held against (issue 35): "only those with total TEU
above the average over all ports (12,911 TEU)", "average transit days below the average over all
shipments (19.03 days)"."""

from __future__ import annotations

from bosun.answers.figures import figure
from bosun.answers.grammar import writing
from bosun.catalog import Catalog
from bosun.understanding import Meaning
from bosun.understanding.inflections import singular
from bosun.understanding.meaning import Threshold
from bosun.understanding.phrases import field_name


def overall_words(step: Threshold, meaning: Meaning, catalog: Catalog, records: str) -> str | None:
    """The overall figure a threshold's bound is, in words with its value; None for a bound said
    as a number. `records`: what the records are called ("shipments")."""
    against = step.against
    if against is None or against.value is None:
        return None
    measure = meaning.measures[step.measure]
    noun = records if against.over == "records" else _groups(meaning, catalog)
    return writing().steps.against.format(noun=noun, figure=figure(against.value, measure.unit))


def _groups(meaning: Meaning, catalog: Catalog) -> str:
    """The groups averaged over, in the plural: "ports", "months"."""
    if not meaning.group_by:
        return f"{meaning.interval}s"
    name = meaning.group_by[0]
    synonyms = catalog.record.fields[name].synonyms
    plural = next((s for s in synonyms if singular(s) != s), None)
    return plural or field_name(name, catalog)
