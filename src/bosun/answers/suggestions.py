"""Questions to ask next after an answer with figures, each made from the answer's Meaning and
worded as the reading it would be read back as (`read_back`), so that the rules read it into the
Meaning it was made from:

    the figures by a grouping field the answer did not use   "total TEU · by port …"
    the figures of the period before, beside these           "… April 2026 vs May 2026 …"
    the records behind the first figure                      "shipments · carrier MSC …"
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta

from bosun.answers.readback import read_back
from bosun.catalog import Catalog
from bosun.understanding import Meaning
from bosun.understanding.meaning import Condition, TimeFilter
from bosun.understanding.phrases import date_span


def suggestions(meaning: Meaning, first_key: object, catalog: Catalog) -> list[Meaning]:
    """The Meanings of the questions to suggest after `meaning`'s figures (`first_key`: the first
    row's group, or None); `suggested` words each."""
    if not meaning.measures or meaning.links or meaning.lookup is not None:
        return []
    made = [_broken_down(meaning, catalog), _period_before(meaning), _records(meaning, first_key)]
    return [m for m in made if m is not None]


def suggested(meaning: Meaning, catalog: Catalog) -> str:
    """A suggestion's question: its Meaning as its reading says it."""
    return read_back(meaning, catalog)


def _broken_down(meaning: Meaning, catalog: Catalog) -> Meaning | None:
    """The same figures by the first grouping field with words that the answer neither grouped nor
    filtered by."""
    used = {*meaning.group_by, *(c.field for c in meaning.conditions), *meaning.compare}
    field = next(
        (
            name
            for name, spec in catalog.record.fields.items()
            if spec.role == "dimension" and spec.synonyms and name not in used
        ),
        None,
    )
    if field is None or meaning.interval is not None or meaning.periods or meaning.steps:
        return None
    return _fresh(meaning).model_copy(update={"group_by": [field], "top_n": None, "sort": []})


def _period_before(meaning: Meaning) -> Meaning | None:
    """These figures and those of the period as long just before, side by side."""
    time = meaning.time
    if time is None or time.start is None or time.end is None or meaning.interval is not None:
        return None
    if meaning.steps or meaning.top_n is not None:
        return None
    start, end = _before(time.start, time.end)
    before = TimeFilter(field=time.field, start=start, end=end, text=date_span(start, end))
    now = time.model_copy(update={"text": date_span(time.start, time.end)})
    return _fresh(meaning).model_copy(update={"time": None, "periods": [before, now]})


def _records(meaning: Meaning, first_key: object) -> Meaning | None:
    """The records the figures count: of the first group, when grouped by a field."""
    if meaning.interval is not None or meaning.periods or meaning.steps:
        return None
    conditions = list(meaning.conditions)
    if meaning.group_by and first_key is not None:
        conditions.append(Condition(field=meaning.group_by[0], values=[str(first_key)]))
    elif meaning.group_by:
        return None
    return _fresh(meaning).model_copy(
        update={
            "intent_type": "search",
            "measures": [],
            "group_by": [],
            "top_n": None,
            "sort": [],
            "compare": [],
            "conditions": conditions,
            "distinct": False,
        }
    )


def _fresh(meaning: Meaning) -> Meaning:
    """The meaning without what the answer said of its words: a question of its own."""
    return meaning.model_copy(
        update={
            "assumptions": [],
            "ambiguities": [],
            "not_understood": [],
            "unknown_terms": [],
            "page": 1,
        }
    )


def _before(start: date, end: date) -> tuple[date, date]:
    """The span as long just before: whole months (a month, quarter, year) by months, else by
    days."""
    if start.day == 1 and end.day == calendar.monthrange(end.year, end.month)[1]:
        months = (end.year - start.year) * 12 + end.month - start.month + 1
        first = _months_back(start, months)
        return first, start - timedelta(days=1)
    days = (end - start).days + 1
    return start - timedelta(days=days), start - timedelta(days=1)


def _months_back(day: date, months: int) -> date:
    """The first of the month `months` before `day`'s month."""
    index = day.year * 12 + day.month - 1 - months
    return date(index // 12, index % 12 + 1, 1)
