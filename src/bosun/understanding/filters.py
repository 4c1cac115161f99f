"""Negations and numeric thresholds: "not from Maersk", "heavier than 20 tons", "over $1M declared value".

Which field a threshold is on comes from the catalog: a measure word or field synonym beside the
number, or the unit written after it ("20 tons" → the field whose unit is kg). Units convert by a
small table of physical and currency units, not by domain words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bosun.catalog import Catalog
from bosun.understanding.meaning import Condition
from bosun.understanding.names import normalize

_NEGATION = re.compile(r"\b(?:not|non|excluding|exclude|except|other than|without|apart from|no)\s+((?:\w+\s+){0,2})$")
_GLUE = {"from", "by", "to", "in", "into", "at", "via", "the", "any", "for", "of", "with", "on"}
_ABOVE = {"more than": "gt", "over": "gt", "above": "gt", "greater than": "gt", "exceeding": "gt",
          "in excess of": "gt", "heavier than": "gt", "longer than": "gt", "larger than": "gt", "bigger than": "gt",
          "at least": "gte", "less than": "lt", "under": "lt", "below": "lt", "fewer than": "lt", "lighter than": "lt",
          "shorter than": "lt", "smaller than": "lt", "at most": "lte", "no more than": "lte"}
_THRESHOLD = re.compile(
    rf"\b(?P<op>{'|'.join(sorted(_ABOVE, key=len, reverse=True))})\s+(?P<cur>\$|usd\s*)?"
    r"(?P<num>\d[\d,]*(?:\.\d+)?)(?:\s*(?P<scale>k|m|bn|thousand|million|billion)\b)?(?P<after>(?:\s+[a-z$%-]+){0,3})",
    re.I)
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}
# written unit → (catalog unit, factor)
_UNITS = {"t": ("kg", 1000.0), "ton": ("kg", 1000.0), "tons": ("kg", 1000.0), "tonne": ("kg", 1000.0),
          "tonnes": ("kg", 1000.0), "kg": ("kg", 1.0), "kgs": ("kg", 1.0), "kilograms": ("kg", 1.0),
          "usd": ("USD", 1.0), "dollars": ("USD", 1.0), "$": ("USD", 1.0), "day": ("days", 1.0),
          "days": ("days", 1.0)}


def negated(before: str, nouns: frozenset[str] = frozenset()) -> bool:
    """The words just before a name or value negate it: "not from X", "excluding shipments from X", "non-X".

    Only small words and the record's nouns may stand between: in "excluding China to LA" LA is not negated.
    """
    found = _NEGATION.search(f" {normalize(before)} ")
    return found is not None and set(found.group(1).split()) <= _GLUE | nouns


@dataclass(frozen=True)
class Threshold:
    condition: Condition
    phrase: str  # as written, to blank out of the text


def find_thresholds(text: str, catalog: Catalog) -> tuple[list[Threshold], list[str]]:
    """(thresholds on known fields, phrases whose field could not be told)."""
    found: list[Threshold] = []
    unknown: list[str] = []
    for match in _THRESHOLD.finditer(text):
        value = float(match.group("num").replace(",", "")) * _SCALE.get((match.group("scale") or "").lower(), 1.0)
        after = normalize(match.group("after"))
        written = "$" if match.group("cur") else (after.split() or [""])[0]
        before = normalize(text[max(0, match.start() - 40):match.start()])
        field = _field_near(after, catalog) or _field_of_unit(written, catalog) or _field_near(before, catalog, True)
        phrase = match.group(0).strip()
        named = re.search(r"((?:[\w$-]+\s+){1,3})$", text[:match.start()])
        if field and named and _field_near(normalize(named.group(1)), catalog) == field:
            phrase = f"{named.group(1)}{phrase}"  # "a declared value under 10k": the field's words go too
        if field is None:
            unknown.append(phrase)
            continue
        unit, factor = _UNITS.get(written, (None, 1.0))
        if unit is not None and unit == catalog.record.fields[field].unit:
            value *= factor
        op = _ABOVE[re.sub(r"\s+", " ", match.group("op").lower())]
        found.append(Threshold(Condition(field=field, **{op: value}, source=phrase), phrase))
    return found, unknown


def _field_near(words: str, catalog: Catalog, last: bool = False) -> str | None:
    """A measure field named in `words` by a measure word or a synonym (the last one when `last`)."""
    hits: list[tuple[int, str]] = []
    padded = f" {words} "
    for name, spec in catalog.record.fields.items():
        if spec.role != "measure":
            continue
        names = [*spec.synonyms, name.replace("_", " ")]
        names += [w for m in catalog.spec.measures.values() if m.field == name for w in m.words]
        hits += [(padded.rfind(f" {normalize(w)} "), name) for w in names if f" {normalize(w)} " in padded]
    if not hits:
        return None
    return max(hits)[1] if last else min(hits)[1]


def _field_of_unit(written: str, catalog: Catalog) -> str | None:
    """The one measure field whose unit is the written one ("8 TEU"), or converts from it ("20 tons" → kg)."""
    unit = _UNITS.get(written, (None, 1.0))[0]
    fields = [n for n, s in catalog.record.fields.items() if s.role == "measure" and s.unit and written
              and (s.unit == unit or normalize(s.unit) in (written, written.removesuffix("s")))]
    return fields[0] if len(fields) == 1 else None
