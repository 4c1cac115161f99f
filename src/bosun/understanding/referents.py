"""The last answer's rows as the next turn's subject (issue 36): what a turn points at, decided from
the grammar's `referents` words and the rows the thread kept, never from the wording of a question.

>>> from bosun.understanding.grammar import english
>>> words = english().referents
>>> pointing("which of them is quickest?", words)
Pointed(said='of them', rest=False)
>>> pointing("and the rest combined?", words)
Pointed(said='the rest', rest=True)
>>> pointing("who is slowest?", words)
Pointed(said='who', rest=False)
>>> pointing("and so which had the fewest?", words)
Pointed(said='which', rest=False)
>>> pointing("and in Seattle?", words) is None
True
>>> pointing("what about the top 3?", words) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal

from dateutil.relativedelta import relativedelta

from bosun.understanding.grammar import ReferentWords, english
from bosun.understanding.inflections import plural
from bosun.understanding.meaning import (
    Condition,
    HasNone,
    Meaning,
    Measure,
    Referent,
    TimeFilter,
)
from bosun.understanding.names import normalize
from bosun.understanding.reading import AnswerRows
from bosun.understanding.setlogic import other_levels

_SHOWN = 10  # the keys pointed at that a reading lists


@dataclass(frozen=True)
class Pointed:
    """The words of a turn that point at the last answer's rows; whether at the rows left out."""

    said: str
    rest: bool


def pointing(text: str, words: ReferentWords) -> Pointed | None:
    """What `text` points at: every row but the last answer's ("the rest"), its rows ("which of
    them", "those"), or its rows picked among by a question word that starts the turn ("who is
    slowest?"); None when it points at none."""
    padded = f" {normalize(text)} "
    rest = _first_said(padded, words.rest)
    if rest is not None:
        return Pointed(rest, rest=True)
    among = _first_said(padded, words.among)
    if among is not None:
        return Pointed(among, rest=False)
    said = padded.split()
    while said and said[0] in words.openers:
        said = said[1:]
    opening = f" {' '.join(said)} "
    picked = [p for p in words.pick if opening.startswith(f" {normalize(p)} ")]
    return Pointed(max(picked, key=len), rest=False) if picked else None


def _first_said(padded: str, phrases: list[str]) -> str | None:
    """The longest of `phrases` said as words in `padded` (" of them " before " them ")."""
    found = [p for p in phrases if f" {normalize(p)} " in padded]
    return max(found, key=len, default=None)


def referent(
    rows: AnswerRows | None, pointed: Pointed, things: str, words: ReferentWords
) -> Referent | None:
    """The rows pointed at, as a goal carries them to its query: the grouping field's values of
    the last answer (all but them for "the rest"). None when the last answer had no rows of a field
    (periods, records) or more than a turn keeps: its own filters then stand for them."""
    if rows is None or rows.field is None or rows.cut or not rows.keys:
        return None
    template = words.said_rest if pointed.rest else words.said
    if len(rows.keys) == 1 and not pointed.rest:
        template = words.said_one
    said = template.format(count=len(rows.keys), things=plural(things), thing=things)
    return Referent(field=rows.field, keys=list(rows.keys), negate=pointed.rest, words=said)


def way_asked(text: str, words: ReferentWords) -> int | None:
    """+1 when the turn asks the highest row on the figure shown ("which month was the peak?"), -1
    the lowest, None when it says neither with the grammar's `referents` words."""
    padded = f" {normalize(text)} "
    if _first_said(padded, words.highest) is not None:
        return 1
    if _first_said(padded, words.lowest) is not None:
        return -1
    return None


@dataclass(frozen=True)
class Ranking:
    """How a turn ranks the rows it points at: on which measure, which way, how many."""

    measure: Measure
    order: Literal["asc", "desc"]
    n: int


def ranked_among(
    previous: Meaning, own: Meaning, ranking: Ranking, pointed_at: Referent | None, title: str
) -> Meaning:
    """ "who is quickest?" after carriers by TEU: the last answer's groups (or periods), only those
    it showed, ranked on the measure the turn names, the first `ranking.n`; the last question's
    filters and dates kept, the turn's own ones replacing those on the same fields."""
    return _among(
        previous,
        own,
        pointed_at,
        own.conditions,
        text=title,
        measures=[ranking.measure],
        group_by=previous.group_by[:1],
        interval=None if previous.group_by else previous.interval,
        top_n=ranking.n,
        order=ranking.order,
    )


def _among(
    previous: Meaning,
    own: Meaning,
    pointed_at: Referent | None,
    added: list[Condition],
    replaced: str | None = None,
    **shape: Any,
) -> Meaning:
    """The last question built on: its filters kept but those on the fields of the `added` ones
    (and on `replaced`), which those replace; the turn's dates, else the last ones; the rows
    pointed at said; no ranking, sort, step or page but what `shape`, the reading's own parts, sets.
    """
    named = {c.field for c in added} | ({replaced} if replaced else set())
    named |= other_levels(previous.entities, own.entities, named)
    said = [f"“{pointed_at.words}”: {_listed(pointed_at)}"] if pointed_at else []
    plain: dict[str, Any] = {
        "intent_type": "aggregation",
        "interval": None,
        "top_n": None,
        "order": "desc",
        "sort": [],
        "compare": [],
        "steps": [],
        "periods": [],
        "page": 1,
        "lookup": None,
        "conditions": [c for c in previous.conditions if c.field not in named] + list(added),
        "time": own.time or previous.time,
        "entities": [e for e in previous.entities if e.field not in named] + own.entities,
        "referent": pointed_at,
        "not_understood": own.not_understood,
        "assumptions": list(dict.fromkeys([*previous.assumptions, *own.assumptions, *said])),
    }
    return previous.model_copy(update={**plain, **shape})


def _listed(pointed_at: Referent) -> str:
    """The keys pointed at, the first ten and how many more."""
    keys = [str(k) for k in pointed_at.keys or []]
    shown = ", ".join(keys[:_SHOWN])
    if len(keys) <= _SHOWN:
        return shown
    return english().phrases.more_values.format(shown=shown, more=len(keys) - _SHOWN)


def never_said(text: str, words: ReferentWords) -> bool:
    """The turn asks for the rows with no record of its filters ("which of them never …")."""
    return _first_said(f" {normalize(text)} ", words.never) is not None


def kept_among(
    previous: Meaning,
    own: Meaning,
    measure: Measure,
    pointed_at: Referent | None,
    never: bool,
) -> Meaning:
    """ "which of those also called at Charleston?" after vessels into Savannah: those vessels that
    have records of the turn's own filters (which replace the last question's on the same fields);
    with `never`, those with none of them (the last question's filters all kept), as set logic on
    the groups."""
    absent = [c for c in own.conditions if never or c.negate]
    present = [c for c in own.conditions if c not in absent]
    steps = [_none_of(c) for c in absent if c.values]
    return _among(
        previous,
        own,
        pointed_at,
        present,
        measures=[measure],
        group_by=previous.group_by[:1],
        order=previous.order,
        steps=[*steps, *(s for s in own.steps if isinstance(s, HasNone))],
    )


def _none_of(condition: Condition) -> HasNone:
    return HasNone(field=condition.field, values=list(condition.values))


def rest_of(
    previous: Meaning, own: Meaning, measure: Measure, pointed_at: Referent, together: bool
) -> Meaning:
    """ "and the rest combined?" after the top 3 carriers by TEU: the TEU of every other carrier,
    one figure when `together`, else those carriers ranked ("show the rest"); the last question's
    filters kept but the one on the rows' field, which the rows replace."""
    return _among(
        previous,
        own,
        pointed_at,
        own.conditions,
        replaced=pointed_at.field,
        measures=[measure],
        group_by=[] if together else previous.group_by[:1],
    )


def listed_among(
    previous: Meaning,
    own: Meaning,
    pointed_at: Referent | None,
    group_by: list[str],
    count: Measure,
) -> Meaning:
    """ "list their shipments" after the top 3 shippers: those shippers' records, within the last
    question's filters; "which vessels did they use there?" (`group_by`): the vessels of those
    records, each with its count."""
    return _among(
        previous,
        own,
        pointed_at,
        own.conditions,
        intent_type="aggregation" if group_by else "search",
        measures=[count] if group_by else [],
        group_by=group_by,
    )


def regrouped_among(
    previous: Meaning,
    own: Meaning,
    measures: list[Measure],
    pointed_at: Referent | None,
) -> Meaning:
    """ "give me monthly TEU for each one" after the top 3 carriers by TEU: those carriers, each
    by month (the turn's period, its measure else the one shown). The last question's filters and
    dates kept, the turn's own ones replacing those on the same fields."""
    return _among(
        previous,
        own,
        pointed_at,
        own.conditions,
        measures=measures,
        group_by=previous.group_by[:1],
        interval=own.interval,
    )


Earlier = Literal["year", "stretch"]


def earlier_said(text: str, words: ReferentWords) -> tuple[Earlier, str] | None:
    """Whether the turn moves the last dates a year back ("the same stretch a year before", "the
    same part of 2025") or to the stretch as long just before ("the 30 days before that"), and the
    words that say it; None when it says neither.

    >>> words = english().referents
    >>> earlier_said("versus the same stretch a year before", words)
    ('year', 'a year before')
    >>> earlier_said("and the 12 months before that?", words)
    ('stretch', 'before that')
    >>> earlier_said("and over the same stretch of 2025?", words)
    ('year', '2025')
    >>> earlier_said("and in 2025?", words) is None
    True
    """
    padded = f" {normalize(text)} "
    before = _first_said(padded, words.before_that)
    if before is not None:
        return "stretch", before
    if _first_said(padded, words.same) is None:
        return None
    back = _first_said(padded, words.year_back)
    if back is not None:
        return "year", back
    year = next((w for w in padded.split() if len(w) == 4 and w.isdigit()), None)
    return ("year", year) if year is not None else None


def earlier_window(time: TimeFilter, earlier: Earlier, year: int | None) -> TimeFilter | None:
    """The last dates moved: to `year` (else a year back) on the same days, or to the stretch as
    long just before them. None for dates open at either end.

    >>> from datetime import date
    >>> last_30 = TimeFilter(field="d", start=date(2026, 5, 17), end=date(2026, 6, 15), text="")
    >>> moved = earlier_window(last_30, "stretch", None)
    >>> moved.start, moved.end
    (datetime.date(2026, 4, 17), datetime.date(2026, 5, 16))
    >>> moved = earlier_window(last_30, "year", None)
    >>> moved.start, moved.end
    (datetime.date(2025, 5, 17), datetime.date(2025, 6, 15))
    """
    if time.start is None or time.end is None:
        return None
    if earlier == "stretch":
        length = time.end - time.start + timedelta(days=1)
        start, end = time.start - length, time.start - timedelta(days=1)
    else:
        back = relativedelta(years=time.start.year - year if year else 1)
        start, end = time.start - back, time.end - back
    text = f"{start.isoformat()} to {end.isoformat()}"
    return time.model_copy(update={"start": start, "end": end, "text": text})
