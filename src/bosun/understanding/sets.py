"""Rules for set logic over the values a question names (issue 23): "vessels that called at both
Busan and Shanghai" (groups having every value), "shippers using MSC but never Maersk" (groups
having none of a value), "Maersk and MSC combined" (one total over the values, not a comparison).

They run after grouping and ranking and before `compose.comparison`, which would otherwise make two
values named together a comparison, one row each.
"""

from __future__ import annotations

from typing import Any

from bosun.understanding.meaning import HasAll, HasNone, Meaning
from bosun.understanding.rulekit import ComposerView
from bosun.understanding.tagger import Span


def sets(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "both A and B", "never Z", "A and B combined": set logic over the named values."""
    _union(spans, c, meaning)
    every = _said(spans, "every", "every_join")
    none = _said(spans, "none")
    if not every and not none:
        return
    if none:
        _has_none(spans, none[0], c, meaning)
    if every:
        _has_all(spans, every, c, meaning)


def _union(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "Maersk and MSC combined", "either Busan or Shanghai": the values are one set, not rows to
    compare; one total of them (the count when nothing else is measured)."""
    said = _said(spans, "union")
    if not said:
        return
    # "interest paid in total": nothing to put together, the answer is one total already
    if not meaning.compare:
        if not (meaning.group_by or meaning.interval or meaning.sort or meaning.top_n):
            # "hazmat shipments in total": the records counted
            meaning.measures = meaning.measures or [c.default_measure()]
            for span in said:
                span.used = True
        return
    meaning.compare = []
    if not meaning.measures and not meaning.group_by:
        meaning.measures.append(c.default_measure())
    for span in said:
        span.used = True


def _has_all(spans: list[Span], said: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "vessels that called at both Busan and Shanghai": keep the groups with records of each
    value."""
    listed = next((x for x in meaning.conditions if not x.negate and len(x.values) > 1), None)
    if listed is None:
        return
    group = _group(spans, spans.index(said[0]), listed.field, c, meaning)
    if group is None:
        return
    meaning.steps.append(HasAll(field=listed.field, values=list(listed.values)))
    meaning.compare = [f for f in meaning.compare if f != listed.field]
    for span in said:
        span.used = True


def _has_none(spans: list[Span], said: Span, c: ComposerView, meaning: Meaning) -> None:
    """ "carriers that never called at Savannah": keep the groups with no record of the values named
    after "never" / "but not" (a filter excluding those records would keep every group with any
    other record)."""
    at = spans.index(said)
    following = c.after(spans, at)
    if following is not None and spans[following].has("value"):
        return  # "with no reefer shipments into Seattle": the "no" negates the value it precedes
    named = _named_after(spans, at, meaning)
    if not named:
        return
    field = named[0][0]
    group = _group(spans, at, field, c, meaning)
    if group is None:
        return
    values = [v for f, v in named if f == field]
    _drop_values(meaning, field, values)
    meaning.steps.append(HasNone(field=field, values=values))
    said.used = True


def _named_after(spans: list[Span], at: int, meaning: Meaning) -> list[tuple[str, Any]]:
    """The (field, value) of each name the question says after position `at`."""
    terms = {s.text for s in spans[at + 1 :] if s.has("name")}
    return [(e.field, e.value) for e in meaning.entities if e.term in terms]


def _drop_values(meaning: Meaning, field: str, values: list[Any]) -> None:
    """The values leave the filters of `field` (a filter left empty goes), and so does a comparison
    of one value."""
    own = [condition for condition in meaning.conditions if condition.field == field]
    for condition in own:
        condition.values = [v for v in condition.values if v not in values]
    meaning.conditions = [x for x in meaning.conditions if x.values or x.field != field]
    if len([v for x in own if not x.negate for v in x.values]) < 2:
        meaning.compare = [f for f in meaning.compare if f != field]


def _group(spans: list[Span], at: int, field: str, c: ComposerView, meaning: Meaning) -> str | None:
    """The groups the set logic keeps: the question's grouping, else the noun it starts from
    ("vessels that …")."""
    found = meaning.group_by[0] if meaning.group_by else _noun(spans[:at], field, c)
    if found is None or found == field:
        return None
    meaning.group_by = meaning.group_by or [found]
    if not meaning.measures:
        meaning.measures.append(c.default_measure())
    return found


def _noun(spans: list[Span], field: str, c: ComposerView) -> str | None:
    """The first grouping noun before the set words that is not the field of the values ("vessels
    that …")."""
    for i, span in enumerate(spans):
        name = c.dimension(span) if not span.has("name") else None
        if name is not None and name != field:
            span.used = True
            # "customers who bought …": the pronoun is read with its noun
            for relative in spans[i + 1 : i + 2]:
                relative.used = relative.used or relative.has("who")
            return name
    return None


def _said(spans: list[Span], *kinds: str) -> list[Span]:
    return [s for s in spans if any(k in s.values("set") for k in kinds)]
