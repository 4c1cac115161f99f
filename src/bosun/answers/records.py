"""What an answer's rows and records are called: "carriers", "days of the week", "shipments with
carrier MAERSK and arrival date 2026-05-01 to 2026-05-31"."""

from __future__ import annotations

from dataclasses import dataclass

from bosun.answers.grammar import writing
from bosun.answers.readback import constraints_in_text, listed_noun
from bosun.catalog import Catalog
from bosun.query import Table
from bosun.understanding import Meaning
from bosun.understanding.inflections import plural, singular


@dataclass(frozen=True)
class Over:
    """The records a figure was computed over, in the reading's words: "shipments", "carrier
    MAERSK", …"""

    records: str
    said: list[str]
    catalog: Catalog

    @classmethod
    def of(cls, meaning: Meaning, catalog: Catalog) -> Over:
        # listings too
        return cls(
            listed_noun(meaning.index, catalog), constraints_in_text(meaning, catalog), catalog
        )

    @property
    def which(self) -> str:
        """ "with port of unlading CHARLESTON and arrival date 2026-05-01 to 2026-05-31", or "in
        all"."""
        words = writing().records
        if not self.said:
            return words.in_all
        listed = ", ".join(self.said[:-1])
        constraints = listed + writing().shared.and_word + self.said[-1] if listed else self.said[0]
        return words.narrowed.format(constraints=constraints)

    @property
    def named(self) -> str:
        """ "the shipments with carrier MAERSK", or "all shipments" when nothing narrows them."""
        words = writing().records
        if self.said:
            return words.these.format(records=self.records, which=self.which)
        return words.all.format(records=self.records)


def noun(meaning: Meaning, catalog: Catalog, count: int) -> str:
    """What a grouping's rows are called, agreeing with their count: the grouped field's first
    synonym ("carrier"), its plural among the synonyms ("carriers"), else the field's name."""
    if not meaning.group_by:
        return _periods(meaning, count)
    if meaning.link_group is not None and meaning.link_group.attribute == meaning.group_by[0]:
        return _linked_noun(meaning.link_group.attribute, count)
    spec = catalog.record.fields.get(meaning.group_by[0])
    if spec is not None and spec.derived is not None:  # "days of the week"
        one, several = writing().records.part_nouns[spec.derived.part]
        return one if count == 1 else several
    if spec is None or not spec.synonyms:
        return meaning.group_by[0].replace("_", " ")
    first = spec.synonyms[0]
    plural = next((s for s in spec.synonyms if s != first and singular(s) == first), None)
    return first if count == 1 or plural is None else plural


def _linked_noun(attribute: str, count: int) -> str:
    """A linked attribute's groups: "alliance", "alliances"."""
    one = attribute.replace("_", " ")
    return one if count == 1 else plural(one)


def _periods(meaning: Meaning, count: int) -> str:
    """ "month", "months"; "periods" without an interval."""
    if not meaning.interval:
        return writing().records.periods
    return meaning.interval if count == 1 else f"{meaning.interval}s"


def rows_named(table: Table, meaning: Meaning) -> int:
    """How many things the rows are: the groups (each once, whatever its periods), else the
    rows."""
    if not meaning.group_by:
        return len(table.rows)
    return len({table.key(row) for row in table.rows})
