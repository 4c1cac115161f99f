"""A grouping by an attribute of a linked object: "TEU by alliance", "which alliance carried the
most TEU", "revenue by customer segment".

The word after a grouping cue ("by", "per", "for each") or a question word ("which") names an
attribute of one linked object (a word of the attribute's own, or its name: "alliance", "segment"),
alone or after a word for the object ("customer segment"). The record field that holds the object
is the one that word names, else the first one the link always holds. A word of a record field is
read as that field first: this reads only what no field names.

    >>> read_link_groups(spans("TEU by alliance"), composer, meaning, words)  # doctest: +SKIP
    >>> meaning.group_by, meaning.link_group.field                             # doctest: +SKIP
    (['alliance'], 'carrier_name')
"""

from __future__ import annotations

from dataclasses import dataclass

from bosun.catalog import Catalog
from bosun.catalog.schema import Target
from bosun.understanding.compose import Composer
from bosun.understanding.inflections import singular
from bosun.understanding.links import LinkWords
from bosun.understanding.meaning import LinkGroup, Meaning
from bosun.understanding.tagger import Span, is_plural

_GROUPABLE = {"keyword", "text"}  # attributes whose values are labels, not amounts


@dataclass(frozen=True)
class Attribute:
    """One groupable attribute of a linked object."""

    object: str
    name: str


def read_link_groups(spans: list[Span], c: Composer, meaning: Meaning, words: LinkWords) -> None:
    """The first grouping cue followed by an attribute of one linked object groups by it."""
    for i, span in enumerate(spans):
        if span.used or not (span.has("group_cue") or _ranks(span, spans)):
            continue
        j = c.after(spans, i)
        if j is not None and span.has("wh") and spans[j].has("number"):  # "which 2 alliances"
            c.wh_count, spans[j].used = int(spans[j].value("number")), True
            j = c.after(spans, j)
        if j is None or spans[j].used:
            continue
        found = _attribute_at(spans, j, words, c.dimension(spans[j]) is not None)
        if found is None:
            continue
        attribute, at = found
        _group(spans, i, at, attribute, c, meaning, words)
        return
    _head_group(spans, c, meaning, words)


def _head_group(spans: list[Span], c: Composer, meaning: Meaning, words: LinkWords) -> None:
    """ "top 3 flags by TEU", "alliance with the fewest shipments": an attribute heading a question
    that measures something (after a ranking word and its number) names the groups ranked."""
    heads = [k for k, s in enumerate(spans) if not (c.glue(s) or s.has("rank") or s.has("number"))]
    if not heads or not any(s.has("measure") for s in spans):
        return
    j = heads[0]
    if spans[j].used:
        return
    found = _attribute_at(spans, j, words, c.dimension(spans[j]) is not None)
    if found is not None:
        attribute, at = found
        _group(spans, None, at, attribute, c, meaning, words)


def _ranks(span: Span, spans: list[Span]) -> bool:
    """A question word asks for groups when something is measured ("which alliance carried the most
    TEU"), not of one object ("which city is Contoso in")."""
    return span.has("wh") and any(s.has("measure") for s in spans)


def _attribute_at(
    spans: list[Span], j: int, words: LinkWords, field: bool
) -> tuple[Attribute, list[int]] | None:
    """The attribute spans j (and j+1) name ("alliance", "home country"), or the object word at j
    and the attribute right after it ("customer segment"); None when no attribute, or several of
    different objects, fit. A word naming a record `field` is that field unless an attribute
    follows it."""
    pair = j + 1 < len(spans) and not spans[j + 1].used
    if pair:
        two = _named(f"{spans[j].key} {spans[j + 1].key}", words)
        if len(two) == 1:
            return two[0], [j, j + 1]
    named = _named(spans[j].key, words)
    if len(named) == 1 and not field:
        return named[0], [j]
    if not pair:
        return None
    after = [
        a for a in _named(spans[j + 1].key, words) if words.names_object(a.object, spans[j].key)
    ]
    return (after[0], [j, j + 1]) if len(after) == 1 else None


def _named(key: str, words: LinkWords) -> list[Attribute]:
    return [
        Attribute(obj, attribute)
        for (obj, attribute), said in words.group_words.items()
        if key in said or singular(key) in said
    ]


def _group(
    spans: list[Span],
    cue: int | None,
    at: list[int],
    attribute: Attribute,
    c: Composer,
    meaning: Meaning,
    words: LinkWords,
) -> None:
    """Group by the attribute named at `at` (after the grouping cue or question word `cue`)."""
    object_word = spans[at[0]].key if len(at) > 1 else None
    target = _target(object_word, attribute, words.specs[attribute.object].fields, words)
    said = " ".join(spans[k].text for k in at)
    meaning.link_group = LinkGroup(
        object=attribute.object,
        attribute=attribute.name,
        field=target.field,
        key=words.specs[attribute.object].key,
        words=said,
    )
    meaning.group_by.append(attribute.name)
    # "which alliance carried the most", "alliance with the fewest shipments": one
    if cue is None or spans[cue].has("wh"):
        c.wh_plural = is_plural(spans[at[-1]])
    for k in [*([cue] if cue is not None else []), *at]:
        spans[k].used = True


def _target(
    object_word: str | None, attribute: Attribute, targets: list[Target], words: LinkWords
) -> Target:
    """The record field the object word names ("shipper country"), else the first one the link
    holds without a condition on the object; never one whose condition fixes the attribute grouped
    by (US ports of unlading all have region us)."""
    varied = [t for t in targets if attribute.name not in t.when] or targets
    if object_word is not None:
        fields = words.field_words(attribute.object)
        named = [t for t in varied if object_word in fields[t.field]]
        if named:
            return named[0]
    return _plain(varied)


def _plain(targets: list[Target]) -> Target:
    """The first target without a condition on the object, else the first."""
    return ([t for t in targets if not t.when] or targets)[0]


def link_group_of(name: str, catalog: Catalog) -> LinkGroup | None:
    """The grouping by `name` when it is no record field but a groupable attribute of exactly one
    linked object (a model's reading groups by "alliance"), on the first field that always holds
    the object.

        >>> link_group_of("alliance", maritime).field                          # doctest: +SKIP
        'carrier_name'
    """
    if name in catalog.record.fields:
        return None
    owners = [
        (obj, spec)
        for obj, spec in catalog.spec.links.items()
        if name in spec.attributes and catalog.object(obj).fields[name].type in _GROUPABLE
    ]
    if len(owners) != 1:
        return None
    obj, spec = owners[0]
    varied = [t for t in spec.fields if name not in t.when] or spec.fields
    field = _plain(varied).field
    return LinkGroup(object=obj, attribute=name, field=field, key=spec.key, words=name)
