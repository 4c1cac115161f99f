"""F01's rules over a turn's spans: its goals — data questions, definitions of terms, questions
about fields.

>>> # "what's a reefer and how many reefer shipments went to Oakland?" → a definition, then a data
goal
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from bosun.catalog import Catalog
from bosun.understanding.grammar import Grammar
from bosun.understanding.inflections import singular
from bosun.understanding.names import normalize
from bosun.understanding.tagger import Span

# Spans inside a definition that only join the terms ("the difference between TEU and FEU").
_JOINING = frozenset({"function", "filler", "neutral", "conj", "compare", "meaning", "quantifier"})


@dataclass(frozen=True)
class Part:
    """One goal's words: the spans and the text they cover."""

    spans: list[Span]
    text: str


def split(spans: list[Span], text: str, grammar: Grammar) -> list[Part]:
    """ "what's a shipment and find me shipments …": a conjunction before a word that starts a
    question."""
    starts = set(grammar.goal_starts)
    parts: list[list[Span]] = [[]]
    # where each part's text ends: at the conjunction that ends it, or the question's end
    cuts: list[int] = []
    for i, span in enumerate(spans):
        following = spans[i + 1] if i + 1 < len(spans) else None
        starting = following is not None and following.key.split()[0] in starts
        if span.has("conj") and parts[-1] and starting and _asks(parts[-1]):
            cuts.append(span.start)
            parts.append([])
            continue
        parts[-1].append(span)
    cuts.append(len(text))
    return [
        Part(p, text[p[0].start : cut].strip().rstrip(",;"))
        for p, cut in zip(parts, cuts, strict=True)
        if p
    ]


def _asks(spans: list[Span]) -> bool:
    """A part that says something of its own, not just "and" or "also"."""
    return any(not s.quiet for s in spans)


def definition(part: Part, grammar: Grammar, lexicon_quiet: set[str]) -> list[str] | None:
    """The glossary terms a part asks to define ("whats a bill of lading", "explain SCAC", "TEU
    meaning").

    A pattern of only common words ("what is *") needs the whole rest to be terms; one with a word
    of its own ("define", "explain", "mean") takes any rest that names no data, as an unknown term
    ("explain demurrage").
    """
    keys = [s.key for s in part.spans]
    for pattern in grammar.definitions:
        middle = _middle(keys, pattern)
        if middle is None:
            continue
        inside = part.spans[middle[0] : middle[1]]
        content = [s for s in inside if not _joins(s)]
        if not content:
            continue
        terms = list(dict.fromkeys(t for s in inside for t in s.values("term")))
        if all(s.has("term") for s in content):
            return terms
        strong = any(w not in lexicon_quiet for w in normalize(pattern.replace("*", " ")).split())
        if strong and not any(_names_data(s) for s in inside):
            return [" ".join(s.text for s in content)]
    return None


@cache
def _pattern_words(pattern: str) -> tuple[list[str], list[str]]:
    prefix, _, suffix = pattern.partition("*")
    return normalize(prefix).split(), normalize(suffix).split()


def _middle(keys: list[str], pattern: str) -> tuple[int, int] | None:
    """Where the `*` of a pattern falls in the part's spans, skipping politeness before it."""
    before, after = _pattern_words(pattern)
    words = [w for k in keys for w in k.split()]
    for skip in range(min(4, len(words))):  # politeness before: "pls define …"
        for tail in range(min(3, len(words) - skip)):  # a word after: "what does X mean here?"
            rest = words[skip : len(words) - tail]
            if rest[: len(before)] == before and (not after or rest[-len(after) :] == after):
                return _span_range(keys, skip + len(before), len(words) - tail - len(after))
            if not after:
                break
    return None


def _span_range(keys: list[str], first_word: int, last_word: int) -> tuple[int, int] | None:
    """The spans that hold words [first_word, last_word); a span that runs on past the first word
    is inside ("difference between 2025 and 2024 TEU": the years' span holds "between")."""
    position, first, last = 0, None, None
    for i, key in enumerate(keys):
        position += len(key.split())
        if position > first_word and first is None:
            first = i
        if position <= last_word:
            last = i + 1
    if first is None or last is None or first >= last:
        return None
    return first, last


def _joins(span: Span) -> bool:
    return span.quiet or (bool(span.tags) and all(t.kind in _JOINING for t in span.tags))


def _names_data(span: Span) -> bool:
    """A span that asks something of the data; a record noun alone does not ("the fields of
    shipments")."""
    if span.has("record"):
        return False
    return any(
        span.has(k) for k in ("name", "value", "measure", "time", "rank", "group_cue", "interval")
    )


def fields_asked(part: Part, grammar: Grammar, catalog: Catalog) -> list[str] | None:
    """ "what fields do you have?" (all), "what does transit_days mean?", "which fields describe the
    consignee?"."""
    said = f" {' '.join(s.key for s in part.spans)} "
    asks_fields = any(f" {normalize(w)} " in said for w in grammar.field_questions)
    # "transit_days"
    named = [s.key for s in part.spans if s.key in catalog.record.fields and not s.has("term")]
    if named and not asks_fields:
        return named if _asks_meaning_of(part, grammar, set(named)) else None
    if not asks_fields or any(_names_data(s) for s in part.spans):
        return None
    subject = {
        singular(w)
        for s in part.spans
        if not _joins(s)
        and not s.has("record")
        and f" {s.key} " not in {f" {normalize(w)} " for w in grammar.field_questions}
        for w in s.key.split()
    }
    return [
        name
        for name, spec in catalog.record.fields.items()
        if subject & _field_words(name, spec.synonyms)
    ]


def _asks_meaning_of(part: Part, grammar: Grammar, fields: set[str]) -> bool:
    """ "what does transit_days mean?": a definition pattern around nothing but the fields' own
    names."""
    keys = [s.key for s in part.spans]
    for pattern in grammar.definitions:
        middle = _middle(keys, pattern)
        inside = part.spans[middle[0] : middle[1]] if middle else []
        if inside and all(s.key in fields or _joins(s) for s in inside):
            return True
    return False


def _field_words(name: str, synonyms: list[str]) -> set[str]:
    return {singular(w) for s in [name.replace("_", " "), *synonyms] for w in normalize(s).split()}
