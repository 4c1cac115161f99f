"""A thing named first and ranked after it: the things are the groups ranked, not one largest
value of the measure. The ranking rule then ranks them.

    "carriers with the most TEU"               → by carrier (the default top N)
    "the 2 shippers having the lowest weight"  → by shipper, 2 of them
    "the vessel with the fewest shipments"     → by vessel, 1 of them
    "for every origin port, the top 2 carriers" → not this rule: the ranking has a thing of its own

The joining words are quiet words and "that" (en.yaml's lists); what ranks is a `rank` tag
or a superlative adjective.
"""

from __future__ import annotations

from bosun.understanding.inflections import is_plural
from bosun.understanding.meaning import Meaning
from bosun.understanding.rulekit import ComposerView
from bosun.understanding.tagger import Span

_MOST_JOINING = 4  # "that had the": a thing stands at most this many words before its ranking


def ranked_heads(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """Each unread dimension followed, over joining words only, by a ranking word: grouped, as
    many ranked as the number before it says ("the 2 shippers with …"), else one when the thing is
    said in the singular ("the carrier with the most TEU")."""
    for i, span in enumerate(spans):
        name = _ranked_head(spans, i, c, meaning)
        if name is not None:
            meaning.group_by.append(name)
            span.used = True
            _how_many(spans, i, meaning)


def _ranked_head(spans: list[Span], i: int, c: ComposerView, meaning: Meaning) -> str | None:
    """The dimension spans[i] names, when it is unread, not yet grouped and ranked after."""
    if spans[i].used or _asked(spans, i, c):
        return None
    name = c.dimension(spans[i], meaning)
    if name is None or name in meaning.group_by:
        return None
    return name if _ranked_after(spans, i, c) else None


def _how_many(spans: list[Span], i: int, meaning: Meaning) -> None:
    """The number said before the thing ranks that many; a thing in the singular ranks one."""
    count = spans[i - 1] if i > 0 else None
    if count is not None and count.has("number") and not count.used:
        meaning.top_n = int(count.value("number"))
        count.used = True
    elif not is_plural(spans[i].text.lower()):
        meaning.top_n = 1


def _asked(spans: list[Span], i: int, c: ComposerView) -> bool:
    """A thing the grouping rule reads: after "which", "by", "for every", or "who ships"."""
    cue = i > 0 and any(spans[i - 1].has(kind) for kind in ("wh", "group_cue"))
    return cue or spans[i].key.split()[0] in c.grammar.wh_persons


def _ranked_after(spans: list[Span], i: int, c: ComposerView) -> bool:
    """A ranking word follows over joining words, and ranks no thing of its own ("port, the top 2
    carriers" ranks the carriers)."""
    for j in range(i + 1, min(len(spans), i + 2 + _MOST_JOINING)):
        if _ranks(spans[j]):
            return not _thing_after(spans, j, c)
        # "categories ranked by the priciest orders": a sorting cue joins too
        if not (spans[j].quiet or spans[j].has("backref") or spans[j].has("sort_cue")):
            return False
    return False


def _thing_after(spans: list[Span], j: int, c: ComposerView) -> bool:
    k = j + 1
    while k < len(spans) and (spans[k].quiet or spans[k].has("number")):
        k += 1
    return k < len(spans) and c.dimension(spans[k]) is not None


def _ranks(span: Span) -> bool:
    superlative = any(a[3] == "superlative" for a in span.values("adjective"))
    return span.has("rank") or superlative
