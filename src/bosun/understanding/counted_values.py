"""A catalog value said as a plural noun names the records it keeps, as the record noun would:
"customs holds by carrier" counts the held shipments of each carrier, "reefers per port" the reefer
shipments of each port. Without it a grouping with no measure lists only the groups.

    >>> from bosun.understanding.grammar import Tag
    >>> from bosun.understanding.tagger import Span
    >>> held = Tag("value", ("status", "held"))
    >>> holds = Span(0, 2, "customs holds", "customs holds", tags=[held], used=True)
    >>> names_records([holds]), names_records([Span(0, 1, "held", "held", tags=[held], used=True)])
    (True, False)
"""

from __future__ import annotations

from bosun.understanding.meaning import Meaning
from bosun.understanding.rulekit import ComposerView
from bosun.understanding.tagger import Span, is_plural


def plural_values(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """A composition rule: a grouped question whose records are named by a plural value."""
    if (meaning.group_by or meaning.interval) and names_records(spans):
        c.records_named = True


def names_records(spans: list[Span]) -> bool:
    """Whether a value read as a filter is said as a plural noun ("holds", "reefers")."""
    return any(span.used and span.has("value") and is_plural(span) for span in spans)
