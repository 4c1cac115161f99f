"""What a composition rule in a module of its own reads of `compose.Composer` (which imports those
modules, so they name it by this protocol rather than import it)."""

from __future__ import annotations

from datetime import date
from typing import Protocol

from bosun.catalog import Catalog
from bosun.understanding.grammar import Grammar
from bosun.understanding.meaning import Meaning, Measure
from bosun.understanding.tagger import Span


class ComposerView(Protocol):
    """The catalog's and grammar's helpers a rule uses, and the turn's day."""

    @property
    def grammar(self) -> Grammar: ...

    @property
    def catalog(self) -> Catalog: ...

    @property
    def today(self) -> date | None: ...

    wh_plural: bool | None  # "which carriers" (several) or "which carrier" (one)
    said: list[str]  # words read but not usable: reported as not understood
    records_named: bool  # the records are named ("shipments", "customs holds"): counted

    def after(self, spans: list[Span], i: int) -> int | None: ...

    def glue(self, span: Span) -> bool: ...

    def counting(self, span: Span) -> bool: ...

    def negated(self, spans: list[Span], i: int) -> bool: ...

    def dimension(self, span: Span, meaning: Meaning | None = None) -> str | None: ...

    def default_measure(self) -> Measure: ...

    def measure(self, name: str, agg: str | None = None) -> Measure: ...

    def field_measure(self, name: str, agg: str | None = None) -> Measure: ...
