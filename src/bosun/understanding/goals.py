"""F01's rules: split a turn into standalone goals — questions about terms, and questions about data."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bosun.catalog import Catalog
from bosun.understanding.names import normalize

_ASKS_MEANING = re.compile(r"^\s*(?:what(?:'s| is| are)\s+(?:an?\s+|the\s+)?|define\s+|what does\s+|meaning of\s+|"
                           r"what's the difference between\s+|what is the difference between\s+)", re.I)


_ASKS_FIELDS = re.compile(r"\b(?:what|which|list|show)\b.*\b(?:fields|columns|attributes)\b|"
                          r"\bwhat does\s+([\w.]+)\s+mean\b", re.I)


_BACK_REFERENCE = re.compile(r"\b(?:their|its|those|them|they|these)\b", re.I)


@dataclass(frozen=True)
class GoalText:
    kind: str  # "helpdesk", "explain" or "data"
    text: str
    terms: tuple[str, ...] = ()


def glossary_terms(text: str, catalog: Catalog) -> list[str]:
    """Glossary terms (or their synonyms) the text names, longest first, without overlaps."""
    lowered = f" {normalize(text)} "
    synonyms = catalog.spec.glossary.synonyms if catalog.spec.glossary else {}
    found: list[str] = []
    names = [(term, normalize(term)) for term in catalog.glossary]
    names += [(term, normalize(s)) for term, words in synonyms.items() for s in words if term in catalog.glossary]
    for term, name in sorted(names, key=lambda t: -len(t[1])):
        if name and f" {name} " in lowered and term not in found:
            found.append(term)
            lowered = lowered.replace(f" {name} ", " _ ")
    return found


def split_turn(text: str, catalog: Catalog) -> list[GoalText]:
    """One goal per intention: "what's a shipment and find me shipments …" is two."""
    parts = re.split(r"\s+and\s+(?=(?:find|show|list|give|get|how|what|which|tell)\b)", text.strip(), flags=re.I)
    goals: list[str] = []
    for part in (p for p in parts if p.strip()):
        if goals and _BACK_REFERENCE.search(part):  # "… and what was their total TEU?" stays one goal
            goals[-1] = f"{goals[-1]} and {part}"
        else:
            goals.append(part)
    return [_goal(part, catalog) for part in goals]


_ABOUT = re.compile(r"\b(?:describe|describes|about|for|of|on|related to|concerning|regarding)\s+(?:the\s+|an?\s+)?"
                    r"([\w\s]+?)\s*[?.!]*$", re.I)


def _fields_about(part: str, catalog: Catalog) -> tuple[str, ...]:
    """ "which fields describe the consignee": the fields whose name or synonyms hold the subject's words."""
    subject = _ABOUT.search(part)
    if subject is None:
        return ()
    words = {w.rstrip("s") for w in normalize(subject.group(1)).split() if len(w) > 2}
    def said(name: str, synonyms: list[str]) -> set[str]:
        return {w.rstrip("s") for s in [name.replace("_", " "), *synonyms] for w in normalize(s).split()}

    return tuple(name for name, spec in catalog.record.fields.items() if words & said(name, spec.synonyms))


_GLUE = {"a", "an", "the", "and", "or", "between", "difference", "mean", "means", "meaning", "of", "is", "are", "vs",
         "versus", "term", "word"}


def _goal(part: str, catalog: Catalog) -> GoalText:
    """A helpdesk goal asks only what terms mean: nothing is left once the terms are taken out."""
    fields = _ASKS_FIELDS.search(part)
    if fields and (fields.group(1) is None or fields.group(1).lower() in catalog.record.fields):
        named = (fields.group(1).lower(),) if fields.group(1) else _fields_about(part, catalog)
        return GoalText("explain", part, named)
    if _ASKS_MEANING.match(part):
        terms = glossary_terms(part, catalog)
        rest = f" {normalize(_ASKS_MEANING.sub('', part))} "
        synonyms = catalog.spec.glossary.synonyms if catalog.spec.glossary else {}
        for term in terms:
            for name in sorted([term, *synonyms.get(term, [])], key=len, reverse=True):
                rest = rest.replace(f" {normalize(name)} ", " ")
        if terms and not (set(rest.split()) - _GLUE):
            return GoalText("helpdesk", part, tuple(terms))
    return GoalText("data", part)
