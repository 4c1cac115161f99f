"""The start screen: what the data holds, and questions to begin with, from the catalog and the data
alone."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, Field

from bosun.answers import days_span
from bosun.catalog import Catalog
from bosun.engines.base import Engine
from bosun.errors import BosunError
from bosun.understanding.reading import Reading
from bosun.understanding.rules import RulesUnderstanding

SUGGESTED = 6
_DIMENSIONS = 4  # grouping fields tried per template: enough to fill six, few enough to read fast


class Holding(BaseModel):
    """What the data holds: its records and their dates, the measures, the other objects."""

    records: str
    description: str
    count: int | None
    first: date | None
    last: date | None
    dates: str = Field(
        "", description="first to last in words, as a person reads them: 24 Jun 2024 to 15 Jun 2026"
    )
    measures: list[str]
    objects: list[str]


class StartScreen(BaseModel):
    holds: Holding
    questions: list[str]


@cache
def _templates() -> list[str]:
    text = (Path(__file__).with_name("suggestions.yaml")).read_text(encoding="utf-8")
    return list(yaml.safe_load(text)["questions"])


def start_screen(catalog: Catalog, engine: Engine, today: date) -> StartScreen:
    return StartScreen(
        holds=holding(catalog, engine), questions=suggestions(catalog, engine, today)
    )


def holding(catalog: Catalog, engine: Engine) -> Holding:
    spec, record = catalog.spec, catalog.record
    first, last = _date_range(catalog, engine)
    others = [o.description for name, o in spec.objects.items() if o.kind == "reference"]
    return Holding(
        records=spec.record,
        description=record.description,
        count=_count(catalog, engine),
        first=first,
        last=last,
        dates=_dates(first, last),
        measures=[m.label for m in spec.measures.values()],
        objects=others,
    )


def _dates(first: date | None, last: date | None) -> str:
    """The records' first and last days in words; "" unless both are known."""
    if first is None or last is None:
        return ""
    return days_span(first, last)


def suggestions(catalog: Catalog, engine: Engine, today: date) -> list[str]:
    """Up to six questions the rules read whole, one per template before any template is used
    twice."""
    reader = RulesUnderstanding(catalog)
    chosen: list[str] = []
    rounds = [
        list(_filled(template, catalog, engine, i)) for i, template in enumerate(_templates())
    ]
    for question in _alternating(rounds):
        if len(chosen) == SUGGESTED:
            break
        if question not in chosen and _read_whole(reader.read(question, [], today)):
            chosen.append(question)
    return chosen


def _alternating(rounds: list[list[str]]) -> Iterator[str]:
    """The first of every template's questions, then the second of each, and so on."""
    for group in itertools.zip_longest(*rounds):
        yield from (q for q in group if q is not None)


def _filled(template: str, catalog: Catalog, engine: Engine, shift: int) -> Iterator[str]:
    """The template filled with each grouping field and measure, beginning `shift` along both (for
    variety)."""
    spec = catalog.spec
    records = spec.measures[spec.defaults.measure].words[0]
    measures = [
        m.words[0] for name, m in spec.measures.items() if name != spec.defaults.measure and m.words
    ]
    for (field, one, several), measure in itertools.product(
        _turned(_dimensions(catalog), shift), _turned(measures or [records], shift)
    ):
        names = _top_values(catalog, engine, field) if "{name" in template else ["", ""]
        if len(names) == 2:
            yield template.format(
                measure=measure,
                records=records,
                dimension=one,
                dimensions=several,
                name=names[0],
                name2=names[1],
            )


def _turned(items: list[Any], shift: int) -> list[Any]:
    at = shift % len(items) if items else 0
    return items[at:] + items[:at]


def _dimensions(catalog: Catalog) -> list[tuple[str, str, str]]:
    """(field, singular word, plural word) of grouping fields with words, named fields first."""
    named = {t.field for e in catalog.spec.entities.values() for t in e.targets}
    found = []
    for name, spec in catalog.record.fields.items():
        if spec.role != "dimension" or not spec.synonyms:
            continue
        plural = next(
            (w for w in spec.synonyms if w.endswith("s") and w != spec.synonyms[0]),
            spec.synonyms[0],
        )
        found.append((name, spec.synonyms[0], plural))
    found.sort(key=lambda f: f[0] not in named)
    return found[:_DIMENSIONS]


def _top_values(catalog: Catalog, engine: Engine, field: str) -> list[str]:
    body = {"size": 0, "aggs": {"top": {"terms": {"field": field, "size": 2}}}}
    try:
        buckets = engine.search(catalog.record.index, body)["aggregations"]["top"]["buckets"]
    except BosunError:
        return []
    return [str(b["key"]) for b in buckets]


def _read_whole(reading: Reading) -> bool:
    if len(reading.goals) != 1 or reading.goals[0].meaning is None:
        return False
    meaning = reading.goals[0].meaning
    return not (
        meaning.not_understood or meaning.ambiguities or meaning.unknown_terms or meaning.refusal
    )


def _count(catalog: Catalog, engine: Engine) -> int | None:
    try:
        return engine.count(catalog.record.index)
    except BosunError:
        return None


def _date_range(catalog: Catalog, engine: Engine) -> tuple[date | None, date | None]:
    field = catalog.spec.time.default_field
    body: dict[str, Any] = {
        "size": 0,
        "aggs": {
            "first": {"min": {"field": field, "format": "yyyy-MM-dd"}},
            "last": {"max": {"field": field, "format": "yyyy-MM-dd"}},
        },
    }
    try:
        aggs = engine.search(catalog.record.index, body)["aggregations"]
    except BosunError:
        return None, None
    return _day(aggs["first"].get("value_as_string")), _day(aggs["last"].get("value_as_string"))


def _day(text: object) -> date | None:
    return date.fromisoformat(str(text)[:10]) if text else None
