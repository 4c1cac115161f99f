"""Language → meaning, behind one contract; the rules backend is the default (an LLM backend comes later)."""

from __future__ import annotations

from datetime import date
from typing import Protocol

from bosun.understanding.meaning import Meaning
from bosun.understanding.reading import PastTurn, Reading


class Understanding(Protocol):
    """What every backend does: read a turn against the thread's last turns; read one goal's text."""

    def read(self, text: str, history: list[PastTurn], today: date) -> Reading: ...

    def analyze(self, text: str, today: date) -> Meaning: ...

    def pick(self, reply: str, options: list[str], today: date) -> tuple[str | None, str]: ...
