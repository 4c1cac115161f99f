"""Words that narrow a measure's records where they stand before it: a name or a catalog value
said between an aggregation word and its measure ("total steel tonnage", "the average Maersk
transit time", "max reefer weight") is a filter of the records, not a word of its own, so the
aggregation word still reads as the measure's.

    >>> from bosun.understanding.grammar import Tag
    >>> from bosun.understanding.tagger import Span
    >>> reefer = Tag("value", ("container_type", "20RF"))
    >>> narrows(Span(1, 2, "reefer", "reefer", tags=[reefer])), narrows(Span(0, 1, "of", "of"))
    (True, False)
"""

from __future__ import annotations

from bosun.understanding.tagger import Span

# a name found in the question, or a value of a catalog field
_NARROWING = ("name", "value")


def narrows(span: Span) -> bool:
    """Whether the span names records (a name or a field's value) rather than asking anything."""
    return any(span.has(kind) for kind in _NARROWING)
