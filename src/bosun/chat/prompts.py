"""The prompts of prompts.yaml, loaded once and filled with data (never with instructions)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

import yaml

from bosun.errors import ConfigError

PROMPTS = Path(__file__).with_name("prompts.yaml")


@dataclass(frozen=True)
class Prompt:
    """One node's prompt: the schema its answer fills, and the system and human templates."""

    name: str
    schema: str
    system: str
    human: str

    def render(self, values: dict[str, str]) -> tuple[str, str]:
        """The system and human messages; a value the template lacks, or a gap without a value, is a
        bug."""
        try:
            return Template(self.system).substitute(values), Template(self.human).substitute(values)
        except KeyError as missing:
            raise ConfigError(f"prompt {self.name!r} needs a value for {missing}") from None


@dataclass(frozen=True)
class Prompts:
    entries: dict[str, Prompt]
    retry: str

    def __getitem__(self, name: str) -> Prompt:
        return self.entries[name]

    def retry_message(self, problems: list[str]) -> str:
        return Template(self.retry).substitute(problems="; ".join(problems))


@cache
def load_prompts(path: Path = PROMPTS) -> Prompts:
    raw: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    retry = str(raw.pop("retry"))
    entries = {
        name: Prompt(name=name, schema=e["schema"], system=e["system"], human=e["human"])
        for name, e in raw.items()
    }
    return Prompts(entries, retry)
