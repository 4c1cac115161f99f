"""A question that opens on things named in the plural, with no question word before them: the
things are listed, as after "which" (the grouping rule reads "which vessels …").

    "Vessels into Norfolk last week"           → by vessel
    "Carriers serving Honolulu last quarter"   → by carrier
    "List the shippers of apparel into LA"     → by shipper
    "Carrier shipments into Norfolk"           → not this rule: said in the singular
    "Top 10 consignees by TEU"                 → not this rule: the ranking reads it

Only the first content word counts: a thing named later ("shipments of vessels …") is what the
other rules make of it. A "who" the question opens with asks for the groups it reads, as "which"
does ("who were the top 3 shippers" is by shipper).
"""

from __future__ import annotations

from bosun.understanding.inflections import is_plural
from bosun.understanding.meaning import Meaning
from bosun.understanding.rulekit import ComposerView
from bosun.understanding.tagger import Span


def leading_things(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """Group by the field the question's first content word names, when nothing groups yet and
    that word is an unread thing in the plural."""
    if meaning.group_by or meaning.interval:
        return
    first = next((span for span in spans if not span.quiet), None)
    if first is None or first.used or not is_plural(first.text.lower()):
        return
    name = c.dimension(first, meaning)
    if name is None:
        return
    meaning.group_by.append(name)
    first.used = True
    c.wh_plural = True
    # "customers who bought …": the pronoun is read with its noun
    at = spans.index(first)
    for relative in spans[at + 1 : at + 2]:
        relative.used = relative.used or relative.has("who")


def who_asks_groups(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """An unread "who" before the thing grouped asks for those groups: it is read with them."""
    if not meaning.group_by:
        return
    for span in spans:
        if span.has("who") and not span.used and len(span.tags) == 1:
            span.used = True
