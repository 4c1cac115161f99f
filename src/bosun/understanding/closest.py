"""The catalog's measures closest to something a question asked that the data does not hold (issue
34): offered with the refusal, so a question the data cannot answer says what it can.

Closest first: the measures over the field asked (a level's own average), then those in the unit
the asked words are counted in (the grammar's `measure_kinds.unit_words`, the field's unit), then
those whose words are spelt like the asked ones (rapidfuzz), as a typo is.

    >>> closest_measures(maritime, english(), "revenue")   # doctest: +SKIP
    ['value']
"""

from __future__ import annotations

from rapidfuzz import fuzz

from bosun.catalog import Catalog
from bosun.understanding.grammar import Grammar
from bosun.understanding.names import normalize

MOST = 3  # measures offered
SPELT_LIKE = 80  # rapidfuzz ratio from which a measure's word is taken for a misspelling of it


def closest_measures(
    catalog: Catalog, grammar: Grammar, words: str, field: str | None = None
) -> list[str]:
    """Names of the catalog's measures closest to `words` (and to `field`, a field they name)."""
    found = _over(catalog, field) + _in_unit(catalog, _units(catalog, grammar, words, field))
    found += _spelt_like(catalog, words)
    return list(dict.fromkeys(found))[:MOST]


def _over(catalog: Catalog, field: str | None) -> list[str]:
    """The measures of the field itself (not its shares)."""
    measures = catalog.spec.measures.items()
    return [name for name, spec in measures if field and spec.field == field and not spec.share]


def _units(catalog: Catalog, grammar: Grammar, words: str, field: str | None) -> list[str]:
    """The units the asked thing is counted in: its field's, and those of the grammar's words it
    holds ("customs duties" → USD)."""
    said = f" {normalize(words)} "
    units = [
        unit
        for unit, named in grammar.measure_kinds.unit_words.items()
        if any(f" {normalize(w)} " in said for w in named)
    ]
    spec = next((o.fields[field] for o in catalog.spec.objects.values() if field in o.fields), None)
    return [spec.unit, *units] if spec is not None and spec.unit else units


def _in_unit(catalog: Catalog, units: list[str]) -> list[str]:
    measures = catalog.spec.measures.items()
    return [name for unit in units for name, spec in measures if spec.unit == unit]


def _spelt_like(catalog: Catalog, words: str) -> list[str]:
    """Measures one of whose words is spelt like the asked ones, best first."""
    asked = normalize(words)
    scored = []
    for name, spec in catalog.spec.measures.items():
        score = max(fuzz.ratio(asked, normalize(w)) for w in [*spec.words, spec.label])
        if score >= SPELT_LIKE:
            scored.append((score, name))
    return [name for _, name in sorted(scored, key=lambda pair: -pair[0])]
