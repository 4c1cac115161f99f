"""Links: a filter on an attribute of a linked object ("TEU carried by Ocean Alliance members"), and
a question that lists the linked objects themselves ("which carriers belong to the Gemini
Cooperation").

The catalog's `links` say which record field holds which object's key and which of the object's
attributes a question may name, with their words. A value of such an attribute (a word of its
vocabulary, or a name the catalog already knows, such as a country) reads as a link when the words
around it ask for it: a cue of the attribute ("flagged in", "based in") or a word for the object
("ports in Korea"); a value that names nothing else needs neither ("Ocean Alliance"). The record
field is picked as a name's is: by the objects the value selects (`when`), a word naming one field
("shippers"), then the cue before it ("from" ports, "into" ports).

    >>> read_links(spans("shipments on vessels flagged in Panama"), composer, meaning)   # doctest:
    +SKIP
    >>> meaning.links[0].condition                                                       # doctest:
    +SKIP
    Condition(field='flag', values=['PA'], …)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from bosun.catalog import Catalog
from bosun.catalog.schema import LinkSpec, Target
from bosun.understanding.compose import Composer
from bosun.understanding.grammar import Tag
from bosun.understanding.inflections import singular
from bosun.understanding.meaning import Condition, Link, Meaning
from bosun.understanding.names import Found, normalize
from bosun.understanding.tagger import Span, tokens
from bosun.understanding.timewords import find_time_range

WINDOW_BEFORE = 4  # spans before a value where its cue or object word may stand ("ports in Korea")
WINDOW_AFTER = 2  # and after it ("Ocean Alliance members", "Panama-flagged")
_NUMERIC = {"integer", "long", "float", "double"}
_BOUNDS = ("gt", "gte", "lt", "lte")
_LABELS = {"keyword", "text"}  # attributes whose values are labels to group by, not amounts
# last words of an attribute's cue, not of its name ("based in", "part of", "built")
_CUE_ENDS = {"in", "of", "at", "to", "from", "by", "for", "on", "with", "based", "built"}


@dataclass(frozen=True)
class LinkValue:
    """One value of a linked object's attribute: carriers' alliance "Ocean Alliance"."""

    object: str
    attribute: str
    value: str


@dataclass(frozen=True)
class Mark:
    """A phrase of the question naming link values, for the tagger to place before names."""

    start: int
    end: int
    tags: tuple[Tag, ...]


@dataclass(frozen=True)
class Evidence:
    """What around a value asks for one link: a cue of the attribute (strong, or a small word such
    as "in"), and the word naming the objects."""

    strong: list[int]
    weak: list[int]
    object_at: int | None

    @property
    def score(self) -> tuple[bool, bool, bool]:
        return bool(self.strong), self.object_at is not None, bool(self.weak)


class LinkWords:
    """The catalog's link vocabulary, read once: phrases of values, cue words, and words for each
    object."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.specs: dict[str, LinkSpec] = catalog.spec.links

    @cached_property
    def phrases(self) -> dict[str, list[LinkValue]]:
        """normalised phrase → the values it names."""
        found: dict[str, list[LinkValue]] = {}
        for name, spec in self.specs.items():
            for attribute in spec.attributes:
                for value, words in self.catalog.link_values(name, attribute).items():
                    for word in words:
                        found.setdefault(normalize(word), []).append(
                            LinkValue(name, attribute, value)
                        )
        return found

    @cached_property
    def longest(self) -> int:
        return max((len(p.split()) for p in self.phrases), default=0)

    def cues(self, name: str, attribute: str) -> set[str]:
        return self._cues[(name, attribute)]

    @cached_property
    def _cues(self) -> dict[tuple[str, str], set[str]]:
        """(link, attribute) → its cue words, normalised once: they are asked at every value."""
        return {
            (name, attribute): {normalize(w) for w in spec.attributes[attribute].words}
            for name, spec in self.specs.items()
            for attribute in spec.attributes
        }

    @cached_property
    def generic(self) -> dict[str, set[str]]:
        """object → words naming its objects as such ("ports", "carriers", "members")."""
        words: dict[str, set[str]] = {}
        for name, spec in self.specs.items():
            obj = self.catalog.object(name)
            found = {*spec.words, *obj.synonyms}
            found |= {
                w for e in self.catalog.spec.entities.values() if e.object == name for w in e.words
            }
            words[name] = {normalize(w) for w in found}
        return words

    @cached_property
    def group_words(self) -> dict[tuple[str, str], set[str]]:
        """(object, attribute) → the words naming a groupable attribute (one whose values are
        labels): its name and its own words but cues ("alliance", "flag", "home country"; not "in",
        "based in")."""
        found: dict[tuple[str, str], set[str]] = {}
        for name, spec in self.specs.items():
            fields = self.catalog.object(name).fields
            for attribute, said in spec.attributes.items():
                if fields[attribute].type not in _LABELS:
                    continue
                named = {normalize(w) for w in said.words}
                named = {w for w in named if w.split()[-1] not in _CUE_ENDS}
                found[(name, attribute)] = named | {attribute.replace("_", " ")}
        return found

    def field_words(self, name: str) -> dict[str, set[str]]:
        """record field of the link → the words naming that field ("shippers": shipper_name)."""
        return self._field_words[name]

    @cached_property
    def _field_words(self) -> dict[str, dict[str, set[str]]]:
        fields = self.catalog.record.fields
        return {
            name: {
                t.field: {
                    normalize(w) for w in [*fields[t.field].synonyms, t.field.replace("_", " ")]
                }
                for t in spec.fields
            }
            for name, spec in self.specs.items()
        }

    def names_object(self, name: str, key: str) -> bool:
        """Whether a phrase names the link's objects, in any number ("shipper", "shippers")."""
        words = self._object_words[name]
        return key in words or singular(key) in words

    @cached_property
    def _object_words(self) -> dict[str, set[str]]:
        return {
            name: set().union(*self.field_words(name).values()) | self.generic[name]
            for name in self.specs
        }

    def named_by(self, entity: str) -> list[tuple[str, str]]:
        """(object, attribute) whose values the names of `entity` also name (countries: flags,
        headquarters)."""
        return [
            (name, attribute)
            for name, spec in self.specs.items()
            for attribute, words in spec.attributes.items()
            if words.names_from == entity
        ]


# -- tagging
# -----------------------------------------------------------------------------------------
def marks(text: str, words: LinkWords, names: list[Found]) -> list[Mark]:
    """The phrases of `text` that name link values, longest first, each with the name found at the
    same place (so that a rule can still read it as a name); none inside a longer name ("Ocean
    Network Express")."""
    toks = tokens(text)
    taken = [False] * len(toks)
    found: list[Mark] = []
    for size in range(min(words.longest, len(toks)), 0, -1):
        for i in range(len(toks) - size + 1):
            key = " ".join(t.norm for t in toks[i : i + size])
            if any(taken[i : i + size]) or normalize(key) not in words.phrases:
                continue
            start, end = toks[i].start, toks[i + size - 1].end
            if any(
                f.start <= start and end <= f.end and (f.start, f.end) != (start, end)
                for f in names
            ):
                continue
            same = [Tag("name", f) for f in names if (f.start, f.end) == (start, end)]
            values = [Tag("link_value", v) for v in words.phrases[normalize(key)]]
            found.append(Mark(start, end, (*values, *same)))
            taken[i : i + size] = [True] * size
    return found


# -- the rule
# ------------------------------------------------------------------------------------------
def read_links(spans: list[Span], c: Composer, meaning: Meaning, words: LinkWords) -> None:
    """ "shipments on vessels flagged in Panama", "built before 2010", "more than 15,000 TEU
    capacity": each value or range of a linked object's attribute asked for, as a Link on the record
    field that holds the object."""
    for i, span in enumerate(spans):
        if not span.used:
            _value_link(spans, i, c, meaning, words)
    for i, span in enumerate(spans):
        if not span.used:
            _range_link(spans, i, c, meaning, words)


def _options(span: Span, words: LinkWords) -> list[LinkValue]:
    options: list[LinkValue] = list(span.values("link_value"))
    found: Found | None = span.value("name")
    for candidate in found.candidates if found else ():
        options += [LinkValue(o, a, candidate.value) for o, a in words.named_by(candidate.entity)]
    return options


def _value_link(spans: list[Span], i: int, c: Composer, meaning: Meaning, words: LinkWords) -> None:
    options = _options(spans[i], words)
    if not options:
        return
    scored = [(_evidence(spans, i, o, c, words), o) for o in options]
    best = max(e.score for e, _ in scored)
    top = [(e, o) for e, o in scored if e.score == best]
    if len({(o.object, o.attribute) for _, o in top}) > 1:
        return  # "Denmark" alone: a flag or a headquarters, nothing says which
    evidence, value = top[0]
    if _by_name(spans[i], c) and not _asked(spans, evidence, i, _backed(spans[i], c)):
        # "imports from Korea", "the one operated by Ocean Network Express": the name, as ever
        return
    condition = Condition(field=value.attribute, values=[value.value], source=spans[i].text)
    _add(
        spans,
        [i, *evidence.strong, *evidence.weak],
        evidence.object_at,
        value.object,
        condition,
        c,
        meaning,
        words,
    )


def _by_name(span: Span, c: Composer) -> bool:
    """The value is (also) a name the catalog knows, or comes only from one: it is a link only when
    asked as one."""
    return _named(span) or not span.has("link_value")


def _backed(span: Span, c: Composer) -> bool:
    """A name of a reference object ("Maersk"), not of an inline vocabulary (a country)."""
    found: Found | None = span.value("name")
    return found is not None and any(
        c.catalog.spec.entities[x.entity].object
        for x in found.candidates
        if x.entity in c.catalog.spec.entities
    )


def _asked(spans: list[Span], evidence: Evidence, i: int, backed: bool) -> bool:
    """ "ports in Korea", "carriers headquartered in Taiwan", "Korean ports": the object's word with
    a cue, or right beside the value (not for a reference object's name: "Maersk vessels" are
    Maersk's shipments; nor a word that groups: "for every shipper, Japan …")."""
    at = evidence.object_at
    if at is None:
        return False
    beside = abs(at - i) == 1 and not backed and not (at > 0 and spans[at - 1].has("group_cue"))
    return bool(evidence.strong or evidence.weak or beside)


def _named(span: Span) -> bool:
    """The phrase is also a name as written (not by a loose match: "Gulf Coast" is no "GULF COAST
    CHEMICALS")."""
    found: Found | None = span.value("name")
    return found is not None and any(
        c.method in ("exact", "alias", "code") for c in found.candidates
    )


def _near(spans: list[Span], i: int, c: Composer) -> list[int]:
    """The spans around i within the windows, small words not counted ("vessels with more than …
    capacity")."""
    near: list[int] = []
    for step, width in ((-1, WINDOW_BEFORE), (1, WINDOW_AFTER)):
        j, counted = i + step, 0
        while 0 <= j < len(spans) and counted < width:
            near.append(j)
            counted += 0 if c.glue(spans[j]) else 1
            j += step
    return sorted(near)


def _evidence(
    spans: list[Span], i: int, value: LinkValue, c: Composer, words: LinkWords
) -> Evidence:
    near = _near(spans, i, c)
    cues = words.cues(value.object, value.attribute)
    cued = [j for j in near if spans[j].key in cues and not spans[j].used]
    objects = [
        j
        for j in near
        if words.names_object(value.object, spans[j].key)
        and not spans[j].used
        # used: another link's ("Chinese ports to the East Coast")
        and not _grouped(spans, j, [i, *cued])
    ]
    nearest = min(objects, key=lambda j: abs(j - i), default=None)
    return Evidence(
        [j for j in cued if not c.glue(spans[j])], [j for j in cued if c.glue(spans[j])], nearest
    )


def _grouped(spans: list[Span], j: int, phrase: list[int]) -> bool:
    """ "by carrier": a word after a grouping cue groups, and does not name the linked objects,
    unless the value or its cue follows it right away ("carried by carriers headquartered in
    Taiwan")."""
    return j > 0 and spans[j - 1].has("group_cue") and j + 1 not in phrase


def _range_link(spans: list[Span], j: int, c: Composer, meaning: Meaning, words: LinkWords) -> None:
    """A cue of a numeric attribute with its bound: "built before 2010", "capacity under 5000
    TEU"."""
    for name, spec in words.specs.items():
        for attribute in spec.attributes:
            kind = c.catalog.object(name).fields[attribute].type
            if kind not in _NUMERIC or spans[j].key not in words.cues(name, attribute):
                continue
            found = _years(spans, j, c) or _threshold(spans, j, c)
            if found is None:
                continue
            bounds, used = found
            evidence = _evidence(spans, j, LinkValue(name, attribute, ""), c, words)
            condition = Condition(field=attribute, source=spans[j].text, **bounds)
            _add(spans, [j, *used], evidence.object_at, name, condition, c, meaning, words)
            return


def _years(spans: list[Span], j: int, c: Composer) -> tuple[dict[str, float], list[int]] | None:
    """ "built before 2010": the years of the date range right after the cue (before 2010: under
    2010)."""
    if c.today is None or j + 1 >= len(spans):
        return None
    text = " ".join(s.text for s in spans[j + 1 : j + 6])
    found = find_time_range(text, c.today)
    if found is None or found.at != 0:
        return None
    used = [k for k in range(j + 1, min(len(spans), j + 6)) if _within(spans, j + 1, k, found.text)]
    bounds: dict[str, float] = {}
    if found.start is not None:
        bounds["gte"] = float(found.start.year)
    if found.end is not None:
        bounds["lt"] = float(found.end.year + 1)
    return (bounds, used) if bounds else None


def _within(spans: list[Span], first: int, k: int, text: str) -> bool:
    """Span k lies within `text` as read from span `first` on (the spans joined by single
    spaces)."""
    joined = " ".join(s.text for s in spans[first : k + 1])
    return len(joined) <= len(text)


def _threshold(spans: list[Span], j: int, c: Composer) -> tuple[dict[str, float], list[int]] | None:
    """ "with more than 15,000 TEU capacity", "a capacity under 5000 TEU", "priced over 100
    dollars"."""
    for k in range(max(0, j - 4), min(len(spans) - 1, j + 3)):
        op = spans[k].value("threshold")
        number = spans[k + 1].value("number")
        if op in _BOUNDS and number is not None and not spans[k].used:
            return {op: float(number)}, [k, k + 1, *_unit_at(spans, k + 2)]
    return None


def _unit_at(spans: list[Span], at: int) -> list[int]:
    """[at] when a unit is written there after a bound ("TEU", "dollars"), else []."""
    return [at] if at < len(spans) and _unit(spans[at]) else []


def _unit(span: Span) -> bool:
    """A unit written after a bound: "TEU", "dollars"."""
    return span.has("unit") or span.has("currency") or span.has("measure")


def _add(
    spans: list[Span],
    used: list[int],
    object_at: int | None,
    name: str,
    condition: Condition,
    c: Composer,
    meaning: Meaning,
    words: LinkWords,
) -> None:
    spec = words.specs[name]
    target = _target(
        spans,
        [*used, *([object_at] if object_at is not None else [])],
        object_at,
        name,
        condition,
        c,
        words,
    )
    for k in [*used, *([object_at] if object_at is not None else [])]:
        spans[k].used = True
    said = " ".join(
        spans[k].text for k in sorted({*used, *([object_at] if object_at is not None else [])})
    )
    for link in meaning.links:
        if (
            (link.object, link.field, link.condition.field) == (name, target.field, condition.field)
            and condition.values
            and link.condition.values
        ):
            link.condition.values.extend(
                v for v in condition.values if v not in link.condition.values
            )
            return
    meaning.links.append(
        Link(object=name, condition=condition, field=target.field, key=spec.key, words=said)
    )


def _target(
    spans: list[Span],
    at: list[int],
    object_at: int | None,
    name: str,
    condition: Condition,
    c: Composer,
    words: LinkWords,
) -> Target:
    """The record field the link filters: one the selected objects can be in, one a word names, else
    by cue."""
    spec = words.specs[name]
    usable = _usable(spec.fields, selected_rows(c.catalog, name, condition)) or spec.fields
    if object_at is not None and spans[object_at].key not in words.generic[name]:
        named = [
            t
            for t in usable
            if spans[object_at].key in words.field_words(name)[t.field]
            or singular(spans[object_at].key) in words.field_words(name)[t.field]
        ]
        if named:
            return named[0]
    before = [w for s in spans[max(0, min(at) - 3) : min(at)] for w in s.key.split()]
    cued = [(t, _cue_distance(before, t.cues)) for t in usable]
    near = [(d, t) for t, d in cued if d is not None]
    return min(near, key=lambda p: p[0])[1] if near else usable[0]


def _cue_distance(words: list[str], cues: list[str]) -> tuple[int, int] | None:
    """How far before the phrase a cue ends (0: right before it), longer cues first on a tie; None:
    no cue."""
    found = []
    for cue in cues:
        parts = normalize(cue).split()
        for end in range(len(words), len(parts) - 1, -1):
            if words[end - len(parts) : end] == parts:
                found.append((len(words) - end, -len(parts)))
                break
    return min(found) if found else None


def _usable(targets: list[Target], rows: list[dict[str, str]]) -> list[Target]:
    """The targets whose `when` holds for every selected object ("ports in Europe" are no U.S.
    port)."""
    return [
        t for t in targets if all(all(str(r.get(k)) == v for k, v in t.when.items()) for r in rows)
    ]


def selected_rows(catalog: Catalog, name: str, condition: Condition) -> list[dict[str, str]]:
    """The reference rows a condition on values selects (none for a range: those are left to the
    lookup)."""
    wanted = {str(v) for v in condition.values}
    return (
        [r for r in catalog.reference_rows(name) if str(r.get(condition.field)) in wanted]
        if wanted
        else []
    )


# -- listing the objects themselves
# -------------------------------------------------------------------------
def as_listing(spans: list[Span], meaning: Meaning, words: LinkWords) -> None:
    """ "which carriers belong to the Gemini Cooperation": links on one object, asked of the objects
    themselves (their word heads the question, no record, measure or date is asked), read as a
    search on their index."""
    objects = {link.object for link in meaning.links}
    if len(objects) != 1 or _about_records(spans, meaning):
        return
    (name,) = objects
    heads = [s for s in spans if words.names_object(name, s.key)]
    if not heads:
        return
    for span in heads:
        span.used = True
    meaning.index = words.catalog.object(name).index
    meaning.conditions = [link.condition for link in meaning.links]
    meaning.links, meaning.group_by, meaning.intent_type = [], [], "search"


def _about_records(spans: list[Span], meaning: Meaning) -> bool:
    asked: list[Any] = [
        meaning.measures,
        meaning.time,
        meaning.interval,
        meaning.conditions,
        meaning.entities,
        meaning.sort,
        meaning.compare,
    ]
    return any(asked) or any(s.has("record") for s in spans)


# -- checks
# ------------------------------------------------------------------------------------------------
def link_problems(meaning: Meaning, catalog: Catalog) -> list[str]:
    """Each link against the catalog's links: its object, record field, key and attribute."""
    problems = []
    for link in meaning.links:
        spec = catalog.spec.links.get(link.object)
        if spec is None:
            problems.append(f"{link.object!r} is not a linked object")
            continue
        if link.field not in {t.field for t in spec.fields}:
            problems.append(f"{link.field!r} does not hold {link.object!r}")
        if link.key != spec.key:
            problems.append(f"{link.object!r} is linked by {spec.key!r}, not {link.key!r}")
        if link.condition.field not in spec.attributes:
            problems.append(f"{link.object!r} has no linkable attribute {link.condition.field!r}")
        else:
            problems += _value_problems(link.object, link.condition, catalog)
    return problems


def link_group_problems(meaning: Meaning, catalog: Catalog) -> list[str]:
    """A grouping by a linked attribute: an attribute of the object, on a field that holds it."""
    group = meaning.link_group
    if group is None:
        return []
    spec = catalog.spec.links.get(group.object)
    if spec is None:
        return [f"{group.object!r} is not a linked object"]
    problems = []
    if group.field not in {t.field for t in spec.fields}:
        problems.append(f"{group.field!r} does not hold {group.object!r}")
    if group.attribute not in spec.attributes:
        problems.append(f"{group.object!r} has no linkable attribute {group.attribute!r}")
    if group.key != spec.key:
        problems.append(f"{group.object!r} is linked by {spec.key!r}, not {group.key!r}")
    return problems


def _value_problems(name: str, condition: Condition, catalog: Catalog) -> list[str]:
    """A value must be one the reference data holds or one the catalog has words for (a flag no
    vessel flies is a value; the lookup says that no vessel has it)."""
    known = {str(r.get(condition.field)) for r in catalog.reference_rows(name)}
    known |= set(catalog.link_values(name, condition.field))
    entity = catalog.spec.links[name].attributes[condition.field].names_from
    known |= set(catalog.spec.entities[entity].values) if entity else set()
    return [
        f"{name} {condition.field} has no value {v!r}"
        for v in condition.values
        if str(v) not in known
    ]


def listing_problems(meaning: Meaning, catalog: Catalog) -> list[str]:
    """A search on a reference object's index: conditions on its fields, nothing measured or
    grouped."""
    obj = next(
        (
            o
            for o in catalog.spec.objects.values()
            if o.index == meaning.index and o.kind == "reference"
        ),
        None,
    )
    if obj is None:
        return [f"unknown index {meaning.index!r}"]
    problems = [
        f"{meaning.index!r} has no field {c.field!r}"
        for c in meaning.conditions
        if c.field not in obj.fields
    ]
    if meaning.measures or meaning.group_by or meaning.links:
        problems.append(f"a listing of {meaning.index} measures, groups and links nothing")
    return problems
