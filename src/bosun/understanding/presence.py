"""Rules for "with / without / missing X" where X is a field that is not a measure: the records
where it holds a value, or where it holds none.

    "how many shipments have no arrival date" → arrival_date is missing
    "shipments without an eta"                → eta_date is missing
    "orders missing a ship date"              → ship_date is missing
    "shipments with an eta"                   → eta_date has a value

A measured X ("without a declared value") is having.py's: NOT X > 0. A field followed by a value
or a bound ("with vessel MSC ANNA"), or a date field followed by dates ("with an eta in June"), is a
filter of its own, not a presence. The words are en.yaml's `having`.
"""

from __future__ import annotations

from bosun.understanding.bounds import Reader
from bosun.understanding.having import past_articles
from bosun.understanding.meaning import Condition, Meaning
from bosun.understanding.tagger import Span

# what may follow the field in a filter of its own: then the field is not merely had or lacked
_FILTERING = ("value", "name", "number", "threshold", "compare", "degree", "rank")


def presence(spans: list[Span], c: Reader, meaning: Meaning) -> None:
    """ "without an eta", "no arrival date", "with an eta": the field is missing, or is not."""
    words = c.grammar.having
    for i, cue in enumerate(spans):
        if cue.used or cue.key not in (*words.has, *words.lacks):
            continue
        lacks = cue.key in words.lacks
        at = past_articles(spans, i + 1, c)
        lacks = lacks or any(s.key in words.none for s in spans[i + 1 : at])
        # "with" joins many things ("carriers with the most TEU") and "have" is an auxiliary ("have
        # arrived"): they say presence only before an article or "no" ("with an eta")
        bare = not lacks and at == i + 1
        field = None if bare else _field(spans, at, c)
        if field is None:
            continue
        meaning.conditions.append(Condition(field=field, exists=not lacks, source=cue.text))
        for span in spans[i : at + 1]:
            span.used = True


def _field(spans: list[Span], at: int, c: Reader) -> str | None:
    """The field the span at `at` names, if it is not a measure, nothing has read it, and no value
    or bound follows it."""
    if at >= len(spans) or spans[at].used:
        return None
    following = spans[at + 1 : at + 2]
    if any(s.has(kind) for s in following for kind in _FILTERING):
        return None
    field = next((f for f in _fields(spans[at], c) if c.role(f) != "measure"), None)
    # "with an eta in June" dates the eta; "without a store in 2025" dates the question
    if field is not None and c.role(field) == "date" and any(s.has("time") for s in following):
        return None
    return field


def _fields(span: Span, c: Reader) -> list[str]:
    return [f for f in span.values("field") if f in c.catalog.record.fields]
