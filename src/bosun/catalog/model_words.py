"""`catalog init --llm`: a chat model proposes descriptions and synonyms for the drafted record
fields, and only what holds against the data is kept (issue #24 item 3).

The offline draft decides every role and measure; the model only words them. A synonym is refused
where it is already another field's name or word, a measure's word or the records' noun, or where
the model gives it to two fields; a description is refused where it names a field the data does not
have (a snake_case word or a `quoted` name that is no field). Each kept or refused proposal is one
line of the printed decisions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml
from pydantic import BaseModel, Field

from bosun.chat import ChatClient

_NAMED = re.compile(r"`([^`]+)`|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b")  # `name` or a snake_case word
MOST_SYNONYMS = 5
MOST_DESCRIPTION = 300


class FieldWords(BaseModel):
    """The words proposed for one field."""

    field: str = Field(description="the field's name, exactly as listed")
    description: str = Field(
        "", description="one sentence saying what the field holds, for a business user"
    )
    synonyms: list[str] = Field(
        default_factory=list, description="other words a user says for this field"
    )


class DraftWords(BaseModel):
    """Descriptions and synonyms for the listed fields."""

    fields: list[FieldWords]


@dataclass(frozen=True)
class Worded:
    """The catalog text with the kept words, and one line per proposal kept or refused."""

    text: str
    notes: list[str]


def with_model_words(text: str, client: ChatClient) -> Worded:
    """The drafted catalog `text` with the model's checked words for its record fields."""
    catalog: dict[str, Any] = yaml.safe_load(text)
    fields: dict[str, Any] = catalog["objects"][catalog["record"]]["fields"]
    asked = client.ask(
        "catalog_words", DraftWords, {"index": catalog["record"], "fields": _listing(fields)}
    )
    if asked.value is None:
        return Worded(
            text,
            [
                f"--llm: the model's words were refused ({'; '.join(asked.problems)}); the offline "
                "draft is kept"
            ],
        )
    notes = _apply(catalog, fields, asked.value)
    return Worded(yaml.safe_dump(catalog, sort_keys=False, allow_unicode=True, width=120), notes)


def _listing(fields: dict[str, Any]) -> str:
    return "\n".join(
        f"- {name} ({spec['type']}, {spec['role']}): {spec.get('description', '')}"
        for name, spec in fields.items()
    )


def _apply(catalog: dict[str, Any], fields: dict[str, Any], proposed: DraftWords) -> list[str]:
    taken = _taken(catalog, fields)
    twice = _given_twice(proposed)
    notes = []
    for words in proposed.fields:
        if words.field not in fields:
            notes.append(f"--llm {words.field}: refused, no such field")
            continue
        notes += _description(fields, words)
        notes += _synonyms(fields[words.field], words, taken, twice)
    return notes


def _taken(catalog: dict[str, Any], fields: dict[str, Any]) -> dict[str, str]:
    """Every word already said for something → what it names."""
    taken: dict[str, str] = {}
    for name, spec in fields.items():
        for word in [name, name.replace("_", " "), *spec.get("synonyms", [])]:
            taken.setdefault(word.lower(), f"field {name}")
    for name, measure in catalog.get("measures", {}).items():
        for word in measure.get("words", []):
            taken.setdefault(str(word).lower(), f"measure {name}")
    for word in catalog["objects"][catalog["record"]].get("synonyms", []):
        taken.setdefault(str(word).lower(), "the records")
    return taken


def _given_twice(proposed: DraftWords) -> set[str]:
    seen: dict[str, str] = {}
    twice = set()
    for words in proposed.fields:
        for word in {w.strip().lower() for w in words.synonyms}:
            if seen.setdefault(word, words.field) != words.field:
                twice.add(word)
    return twice


def _description(fields: dict[str, Any], words: FieldWords) -> list[str]:
    said = " ".join(words.description.split())
    if not said:
        return []
    named = {a or b for a, b in _NAMED.findall(said)}
    unknown = sorted(n for n in named if n not in fields)
    if unknown:
        return [
            f"--llm {words.field}: description refused, it names {', '.join(unknown)}, no field of "
            "the data"
        ]
    if len(said) > MOST_DESCRIPTION:
        return [
            f"--llm {words.field}: description refused, longer than {MOST_DESCRIPTION} characters"
        ]
    fields[words.field]["description"] = said
    return [f'--llm {words.field}: description "{said}"']


def _synonyms(
    spec: dict[str, Any], words: FieldWords, taken: dict[str, str], twice: set[str]
) -> list[str]:
    notes, kept = [], []
    mine = f"field {words.field}"
    for word in dict.fromkeys(" ".join(w.split()).lower() for w in words.synonyms[:MOST_SYNONYMS]):
        owner = taken.get(word)
        if not word or owner == mine:
            continue
        if owner is not None:
            notes.append(f"--llm {words.field}: synonym '{word}' refused, it already names {owner}")
        elif word in twice:
            notes.append(
                f"--llm {words.field}: synonym '{word}' refused, proposed for another field too"
            )
        else:
            kept.append(word)
            taken[word] = mine
    if kept:
        spec["synonyms"] = [*spec.get("synonyms", []), *kept]
        notes.append(f"--llm {words.field}: synonyms {', '.join(repr(w) for w in kept)} added")
    return notes
