"""Rules for "had / with / without X" (issue 34), where X is a measured thing: the records that
have some of it, never a sum of X beside the count.

    "how many shipments with containers …"        → container_count > 0
    "how many shipments without a declared value" → NOT declared_value_usd > 0 (missing values kept)
    "how many shipments had reefer boxes"         → the reefer filter; "boxes" is the noun it
                                                     qualifies, not a measure
    "stores without headphone sales"              → "sales" likewise; the set rules read "without"

The words are en.yaml's `having`; a measure is the catalog's.
"""

from __future__ import annotations

from bosun.understanding.bounds import Reader, measure_field
from bosun.understanding.meaning import Condition, Meaning
from bosun.understanding.qualifiers import read_with
from bosun.understanding.tagger import Span


def past_articles(spans: list[Span], at: int, c: Reader) -> int:
    """Where the thing had or lacked stands, past "a", "an", "any", "no" after the cue."""
    words = c.grammar.having
    while at < len(spans) and spans[at].key in (*words.articles, *words.none):
        at += 1
    return at


def having(spans: list[Span], c: Reader, meaning: Meaning) -> None:
    """ "with containers", "had any TEU", "without a declared value": X > 0 or its negation."""
    words = c.grammar.having
    for i, cue in enumerate(spans):
        if cue.used or cue.key not in (*words.has, *words.lacks):
            continue
        qualified = past_articles(spans, i + 1, c)
        lacks = cue.key in words.lacks or any(s.key in words.none for s in spans[i + 1 : qualified])
        j = qualified
        while j < len(spans) and (spans[j].has("value") or spans[j].has("name")):
            j += 1  # "had reefer boxes", "without headphone sales": the filter is the value's
        measured = _measured(spans, j, c)
        if measured is None:
            continue
        spans[j].used = True
        if j > qualified:
            read_with(meaning, spans[j - 1], spans[j])
        # "had sales": a record noun that also names a measure says the records, not some of it
        if j == qualified and not spans[j].has("record"):
            meaning.conditions.append(
                Condition(field=measured, gt=0, negate=lacks, source=cue.text)
            )
            for span in spans[i:qualified]:
                span.used = True


def _measured(spans: list[Span], at: int, c: Reader) -> str | None:
    """The measure field the span at `at` names, where nothing has read it and no bound follows
    ("with a weight over 20 tons" is a threshold, not a mere presence)."""
    if at >= len(spans) or spans[at].used:
        return None
    following = spans[at + 1 : at + 2]
    if any(s.has("threshold") or s.has("number") for s in following):
        return None
    return measure_field(spans[at], c)
