"""A refusal of a question mostly unread offers words to ask by, and never an empty list of them
("Ask about surveys in other words, for example by ." was said where the catalog had no word to
offer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from bosun import answers
from bosun.catalog import load_catalog

CATALOG: dict[str, Any] = {
    "domain": "samples",
    "description": "A file of samples.",
    "record": "samples",
    "objects": {
        "samples": {
            "kind": "record",
            "index": "samples",
            "description": "One sample.",
            "fields": {
                "code_id": {"type": "integer", "role": "identifier", "description": "Code."},
                "weight": {"type": "double", "role": "measure", "description": "Weight."},
            },
        }
    },
    "entities": {},
    "measures": {"samples": {"agg": "count", "words": [], "label": "samples"}},
    "time": {"default_field": "code_id", "fields": {}},
    "defaults": {"measure": "samples"},
}


def _refusal(tmp_path: Path, catalog: dict[str, Any]) -> str:
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(catalog))
    return answers.mostly_unread("blorp flimflam", ["blorp", "flimflam"], load_catalog(path))


def test_with_no_names_dimensions_or_measure_words_the_fields_are_offered(tmp_path: Path) -> None:
    said = _refusal(tmp_path, CATALOG)
    assert said.endswith("Ask about samples in other words, for example by code id, weight."), said


def test_with_nothing_to_offer_the_refusal_still_says_something_true(tmp_path: Path) -> None:
    fields = CATALOG["objects"]["samples"]["fields"]
    blank = {name: {**spec, "synonyms": [" "]} for name, spec in fields.items()}
    catalog = {
        **CATALOG,
        "objects": {"samples": {**CATALOG["objects"]["samples"], "fields": blank}},
    }
    said = _refusal(tmp_path, catalog)
    assert "for example by ." not in said
    assert said.endswith(
        "Ask about samples in other words, naming one of their fields or a measure."
    )
