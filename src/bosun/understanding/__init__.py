"""Language → meaning, behind one interface; the rules backend is the default (an LLM backend comes later)."""

from __future__ import annotations

from datetime import date
from typing import Protocol

from bosun.understanding.meaning import Meaning


class Understanding(Protocol):
    """What every backend does: read one data goal's text, on a given day, as a Meaning."""

    def analyze(self, text: str, today: date) -> Meaning: ...
