"""What an answer says it assumed: a word read one way of several, the dates a time word without a
year was read as, how a percentile was computed, periods cut short and left out of a ranking, the
objects a link read.

"“last month” read as May 2026"; "“Ocean Alliance members” read as the carriers with alliance Ocean
Alliance: CMA CGM, COSCO, EVERGREEN, OOCL".
"""

from __future__ import annotations

import re

from bosun import query
from bosun.answers import measures
from bosun.answers.choices import option_words
from bosun.answers.grammar import Assumed, writing
from bosun.catalog import Catalog
from bosun.understanding import Ambiguity, Meaning
from bosun.understanding.meaning import Link, TopEach
from bosun.understanding.phrases import condition_words, date_span

_YEAR = re.compile(r"\b\d{4}\b")


def assumptions(
    meaning: Meaning, unsure: list[Ambiguity], engine_kind: str, catalog: Catalog
) -> list[str]:
    """What a table of results says it assumed, besides what the reading assumed (`meaning` as the
    query answered it)."""
    meaning = query.counted(meaning, catalog)
    # a doubt an earlier answer of the thread said is offered as a choice, not said again
    fresh = [a for a in unsure if not a.said_before]
    assumed = [_assumed(a, meaning, catalog) for a in fresh]
    if not any(a.kind == "field" and meaning.time and a.term == meaning.time.text for a in fresh):
        assumed += _dates(meaning)
    assumed += measures.notes(meaning, engine_kind)
    if meaning.interval not in (None, "day") and _ranks_periods(meaning):
        assumed.append(_words().whole_periods.format(interval=meaning.interval))
    assumed += _weeks_held(meaning)
    return assumed


def _ranks_periods(meaning: Meaning) -> bool:
    """The periods themselves are ranked: over everything, or inside each coarser period."""
    nested = any(isinstance(step, TopEach) and step.within for step in meaning.steps)
    return nested or bool(meaning.top_n and not meaning.group_by)


def _weeks_held(meaning: Meaning) -> list[str]:
    """Weeks ranked inside months, quarters or years: which one holds a week across two."""
    holders = [step.within for step in meaning.steps if isinstance(step, TopEach) and step.within]
    if meaning.interval != "week" or not holders:
        return []
    return [_words().week_held.format(holder=holders[0])]


def _assumed(ambiguity: Ambiguity, meaning: Meaning, catalog: Catalog) -> str:
    """Scenario 1, option B: go on with the default, and say which others it could have been, in
    the catalog's words ("arrival date", not arrival_date)."""
    words = _words()
    default = option_words(ambiguity, ambiguity.default or "", catalog)
    others = words.either.join(
        option_words(ambiguity, o, catalog) for o in ambiguity.options if o != ambiguity.default
    )
    dated = meaning.time is not None and ambiguity.term == meaning.time.text and _dates(meaning)
    dates = f", {_span(meaning)}" if dated else ""
    return words.read_as.format(term=ambiguity.term, default=default, dates=dates, others=others)


def _dates(meaning: Meaning) -> list[str]:
    """Time words that give no year ("last month", "in March", "Q3") are said with the dates they
    were read as."""
    time = meaning.time
    if time is None or _YEAR.search(time.text):
        return []
    words = _words()
    return [words.dates_read_as.format(words=time.text or words.the_dates, span=_span(meaning))]


def _span(meaning: Meaning) -> str:
    assert meaning.time is not None
    return date_span(meaning.time.start, meaning.time.end) or _words().until_now


def linked(link: Link, keys: list[str], catalog: Catalog) -> str:
    """What a link read: "“Ocean Alliance members” read as the carriers with alliance Ocean
    Alliance: CMA CGM, COSCO, EVERGREEN, OOCL"."""
    obj = catalog.object(link.object)
    asked = condition_words(link.condition, catalog)
    return _words().linked.format(
        words=link.words, objects=obj.index, condition=asked, keys=", ".join(keys)
    )


def _words() -> Assumed:
    return writing().assumed
