"""Words that qualify a noun of the catalog (issue 34): read with it where the catalog reads them,
reported where it does not, never dropped with an answer over every record.

    "used cars into Baltimore"        → "used" reported: a participle before the noun it qualifies
                                        says a kind of car the data does not hold
    "units of kitchen products"       → "products" read: the noun the value "kitchen" qualifies
    "refrigerated containers"         → container_type 20RF, 40RF: the glossary term "reefer"
                                        is a value word

The participles are en.yaml's `qualifiers`: verbs of the records after their noun ("shipments
delivered to Miami"), a kind of record before it.
"""

from __future__ import annotations

from bosun.catalog import Catalog
from bosun.understanding.meaning import Condition, Meaning
from bosun.understanding.names import normalize
from bosun.understanding.rulekit import ComposerView
from bosun.understanding.tagger import Span

_NOUNS = ("value", "name", "record", "field", "measure")
# what may stand before a participle that qualifies ("the used cars", "how many delivered orders")
_BEFORE = frozenset({"function", "filler", "quantifier", "meaning", "structure"})


def participles(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "used cars", "processed seafood", "delivered orders": a participle right before a catalog
    noun, with no subject before it ("which carriers delivered shipments"), is an attribute of the
    records the catalog does not read: said, so the answer says it left it out."""
    for i, span in enumerate(spans[:-1]):
        if span.used or span.key not in c.grammar.qualifiers.participles:
            continue
        following = spans[i + 1]
        # a noun of the catalog, or a word it does not know ("processed food")
        if following.tags and not any(following.has(kind) for kind in _NOUNS):
            continue
        before = spans[i - 1] if i > 0 else None
        if before is None or _qualifies_after(before, c):
            c.said.append(span.text)
            span.used = True


def _qualifies_after(before: Span, c: ComposerView) -> bool:
    """A word after which a participle qualifies the next noun: an article, a quantifier, a count
    word ("how many used cars"), not an auxiliary ("have delivered shipments")."""
    if before.key in c.grammar.qualifiers.auxiliaries:
        return False
    if c.counting(before):
        return True
    return bool(before.tags) and all(t.kind in _BEFORE for t in before.tags)


def head_nouns(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "units of kitchen products": a field's noun right after a value of another field, that
    nothing groups by, names the things the value qualifies; it is read with the value."""
    for i, span in enumerate(spans[1:], start=1):
        if span.used or not spans[i - 1].has("value"):
            continue
        noun = c.dimension(span)
        qualified = {name for name, _ in spans[i - 1].values("value")}
        if noun is not None and noun not in qualified and noun not in meaning.group_by:
            span.used = True
            read_with(meaning, spans[i - 1], span)


def read_with(meaning: Meaning, value: Span, noun: Span) -> None:
    """The noun a value qualifies ("kitchen products", "reefer boxes"), said with the value's
    filter: the reading carries the words it read (the coverage audit finds them there)."""
    for condition in meaning.conditions:
        if condition.source in (value.text, value.key):
            condition.source = f"{condition.source} {noun.text}"


def term_values(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "how many refrigerated containers …": a glossary word whose term is a field's value word
    ("reefer") filters as that value word would; a definition read as a data question is never a
    filter dropped."""
    for i, span in enumerate(spans):
        term = span.value("term")
        if span.used or term is None or span.has("value"):
            continue
        found = _values_named(c.catalog, str(term))
        if not found:
            continue
        negate = c.negated(spans, i)
        for name, values in found.items():
            meaning.conditions.append(
                Condition(field=name, values=values, source=span.key, negate=negate)
            )
        span.used = True


def _values_named(catalog: Catalog, word: str) -> dict[str, list[str | int | float | bool]]:
    """The values of each field the catalog words with `word` ("reefer": container_type 20RF and
    40RF), typed as the field is."""
    wanted = normalize(word)
    found: dict[str, list[str | int | float | bool]] = {}
    for name, spec in catalog.record.fields.items():
        for value, words in spec.values.items():
            if wanted in (normalize(w) for w in words):
                typed = value == "true" if spec.type == "boolean" else value
                found.setdefault(name, []).append(typed)
    return found
