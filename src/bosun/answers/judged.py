"""Best and worst from the catalog: a ranking's first group is judged only where a measure says
which way is better.

"EVERGREEN has the best average transit days, the lowest, with 18.70" when the catalog's
transit_days has `better: lower`; with nothing said, "has the highest average transit days": a
longer transit time is no lead. A named measure's own `better` comes first, then its field's; a
count or a distinct count of a field is not the field's figure, so the field's direction does not
apply to it.
"""

from __future__ import annotations

from bosun.answers.grammar import writing
from bosun.catalog import Catalog
from bosun.catalog.schema import Better
from bosun.understanding import Measure


def better_way(catalog: Catalog, measure: Measure) -> Better | None:
    """Which way the measure's figure is better, as the catalog says; None when it says nothing."""
    named = catalog.spec.measures.get(measure.name)
    if named is not None and named.better is not None:
        return named.better
    if (
        measure.share is not None
        or measure.agg in ("count", "cardinality")
        or measure.field is None
    ):
        return None
    field = catalog.record.fields.get(measure.field)
    return field.better if field is not None else None


def verdict(label: str, better: Better | None, side: str, highest: bool) -> str | None:
    """ "has the best average transit days, the lowest," for the group at the top of a ranking
    (`highest`: its figure is the highest); None when the catalog does not say which way is better.
    """
    if better is None:
        return None
    good = highest == (better == "higher")
    return writing().rankings.judged["best" if good else "worst"].format(label=label, side=side)
