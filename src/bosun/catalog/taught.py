"""Taught words (issue #25): vocabulary people add while they ask, laid over the catalog like its
own entries.

A taught word is one more synonym of a record field, a measure or an object, one more alias of a
name, or one more word for a field's value. It is added to the catalog's own lists (`with_taught`)
and the merged catalog is validated as a catalog file is, so a taught word can name only what the
catalog already holds: no index, no field outside the record's, no script, no setting.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from bosun.catalog.loader import Catalog, validation_problems
from bosun.catalog.schema import CatalogSpec

Kind = Literal["field", "measure", "object", "alias", "value"]
KINDS: tuple[Kind, ...] = ("field", "measure", "object", "alias", "value")
MAX_WORDS = 6  # as long as the longest name the name index reads
MAX_CHARS = 60
# Letters, digits, spaces and the marks names carry ("Hapag-Lloyd", "AT&T", "O'Neil", "St. Louis")
_SHAPE = re.compile(r"[\w][\w .&'’/-]*", re.UNICODE)


class TaughtWord(BaseModel):
    """One taught word: what it means in the catalog's terms, who taught it and when."""

    kind: Kind
    word: str
    target: str = Field(
        description="the field, measure or object name; the name an alias names; the value"
    )
    of: str | None = Field(
        None, description="alias: the entity whose name it is; value: the record field"
    )
    more: list[str] = Field(
        default_factory=list,
        description="value: further values of the same field that the "
        "word names together (“chillers” → container type 20RF or 40RF)",
    )
    by: str = "local"
    on: str = Field("", description="when it was taught, ISO date and time (UTC)")

    @property
    def values(self) -> list[str]:
        """The values a value word names (one, or several together)."""
        return [self.target, *self.more]

    def means(self) -> str:
        """What the word is read as, in the catalog's words."""
        if self.kind == "value":
            return f"{self.of} {' or '.join(self.values)}"
        return self.target.replace("_", " ") if self.kind == "field" else self.target


def shape_problems(word: str) -> list[str]:
    """A word must look like a word: a few words of letters, digits and the marks names carry."""
    if not word.strip():
        return ["the word is empty"]
    if len(word) > MAX_CHARS or len(word.split()) > MAX_WORDS:
        return [
            f"“{word[:MAX_CHARS]}…” is too long to be a word: at most {MAX_WORDS} words, "
            f"{MAX_CHARS} characters"
        ]
    if not _SHAPE.fullmatch(word.strip()):
        return [f"“{word}” is not a word: only letters, digits, spaces and - & ' . / may be taught"]
    return []


def targets(catalog: Catalog, text: str) -> list[TaughtWord]:
    """Everything `text` names in the catalog, as taught-word templates (the word left empty), best
    kind first."""
    key = _key(text)
    found = (
        _measures(catalog, key)
        + _fields(catalog, key)
        + _objects(catalog, key)
        + _values(catalog, key)
    )
    return found + _names(catalog, key)


def value_set(catalog: Catalog, text: str, joiners: list[str]) -> TaughtWord | None:
    """Several values of one field named together, joined by `joiners` (the grammar's "or", "and",
    ","): "container type 20RF or 40RF", "20RF, 40RF"; None unless every part is a value of that one
    field."""
    pattern = "|".join(rf"\b{re.escape(j)}\b" if j[0].isalnum() else re.escape(j) for j in joiners)
    parts = [_key(p) for p in re.split(pattern, text) if _key(p)] if joiners else []
    if len(parts) < 2:
        return None
    field, parts[0] = _field_named_first(catalog, parts[0])
    found = [_values(catalog, part) for part in parts]
    fields = {t.of for ts in found for t in ts}
    chosen = field or (fields.pop() if len(fields) == 1 else None)
    values = [next((t.target for t in ts if t.of == chosen), None) for ts in found]
    if chosen is None or any(v is None for v in values):
        return None
    return TaughtWord(
        kind="value", word="", target=str(values[0]), of=chosen, more=[str(v) for v in values[1:]]
    )


def _field_named_first(catalog: Catalog, key: str) -> tuple[str | None, str]:
    """("container_type", "20rf") for "container type 20rf": the field a phrase begins by naming,
    and the rest."""
    for name, spec in catalog.record.fields.items():
        for said in sorted({_key(name), *(_key(w) for w in spec.synonyms)}, key=len, reverse=True):
            if key.startswith(said + " "):
                return name, key[len(said) + 1 :]
    return None, key


def _fields(catalog: Catalog, key: str) -> list[TaughtWord]:
    return [
        TaughtWord(kind="field", word="", target=name)
        for name, spec in catalog.record.fields.items()
        if key in {_key(name), *(_key(w) for w in spec.synonyms)}
    ]


def _measures(catalog: Catalog, key: str) -> list[TaughtWord]:
    return [
        TaughtWord(kind="measure", word="", target=name)
        for name, spec in catalog.spec.measures.items()
        if key in {_key(name), _key(spec.label), *(_key(w) for w in spec.words)}
    ]


def _objects(catalog: Catalog, key: str) -> list[TaughtWord]:
    return [
        TaughtWord(kind="object", word="", target=name)
        for name, spec in catalog.spec.objects.items()
        if key in {_key(name), *(_key(w) for w in spec.synonyms)}
    ]


def _values(catalog: Catalog, key: str) -> list[TaughtWord]:
    return [
        TaughtWord(kind="value", word="", target=value, of=name)
        for name, spec in catalog.record.fields.items()
        for value, words in spec.values.items()
        if key in {_key(value), *(_key(w) for w in words)}
    ]


def _names(catalog: Catalog, key: str) -> list[TaughtWord]:
    """The names of entities `key` is (a name, or one of its aliases), exact names first."""
    exact: list[TaughtWord] = []
    aliased: list[TaughtWord] = []
    for entity, name, words in _entity_names(catalog):
        if _key(name) == key:
            exact.append(TaughtWord(kind="alias", word="", target=name, of=entity))
        elif key in {_key(w) for w in words}:
            aliased.append(TaughtWord(kind="alias", word="", target=name, of=entity))
    return exact or aliased


def phrases(catalog: Catalog) -> list[tuple[str, TaughtWord]]:
    """Every word of the catalog's measures, fields, objects and values, with what it names (the
    word empty)."""
    found = [
        (w, TaughtWord(kind="measure", word="", target=n))
        for n, m in catalog.spec.measures.items()
        for w in [m.label, *m.words]
    ]
    found += [
        (w, TaughtWord(kind="field", word="", target=n))
        for n, f in catalog.record.fields.items()
        for w in [n.replace("_", " "), *f.synonyms]
    ]
    found += [
        (w, TaughtWord(kind="object", word="", target=n))
        for n, o in catalog.spec.objects.items()
        for w in o.synonyms
    ]
    return found + [
        (w, TaughtWord(kind="value", word="", target=v, of=n))
        for n, f in catalog.record.fields.items()
        for v, words in f.values.items()
        for w in [v, *words]
    ]


def _entity_names(catalog: Catalog) -> list[tuple[str, str, list[str]]]:
    """(entity, name, its aliases) for every name the catalog's entities hold."""
    found = []
    for entity, spec in catalog.spec.entities.items():
        found += [
            (entity, value, [*words, *spec.aliases.get(value, [])])
            for value, words in spec.values.items()
        ]
        if not (spec.object and spec.name_field):
            continue
        for row in catalog.reference_rows(spec.object):
            aliases = (row.get(spec.alias_field) or "").split("|") if spec.alias_field else []
            value = row[spec.name_field]
            found.append((entity, value, [a for a in aliases if a] + spec.aliases.get(value, [])))
    return found


def with_taught(catalog: Catalog, taught: list[TaughtWord]) -> Catalog:
    """The catalog with the taught words added to its own lists, validated as a catalog file is."""
    if not taught:
        return catalog
    raw = catalog.spec.model_dump(exclude_defaults=False)
    for word in taught:
        _add(raw, catalog.spec.record, word)
    try:
        spec = CatalogSpec.model_validate(raw)
    except ValidationError as exc:
        raise ValueError(validation_problems(exc)[0]) from None
    # the reference rows stay: taught words change no row, and rows read again now could be read
    # with a caller's credential (BOSUN_ENGINE_AUTH=caller), not the service's
    return Catalog(spec, catalog.path, catalog.engine, catalog._rows)


def _add(raw: dict[str, Any], record: str, taught: TaughtWord) -> None:
    fields = raw["objects"][record]["fields"]
    if taught.kind == "field":
        fields[taught.target]["synonyms"].append(taught.word)
    elif taught.kind == "measure":
        raw["measures"][taught.target]["words"].append(taught.word)
    elif taught.kind == "object":
        raw["objects"][taught.target]["synonyms"].append(taught.word)
    elif taught.kind == "value":
        for value in taught.values:
            fields[str(taught.of)]["values"][value].append(taught.word)
    else:
        raw["entities"][str(taught.of)]["aliases"].setdefault(taught.target, []).append(taught.word)


def target_problems(catalog: Catalog, taught: TaughtWord) -> list[str]:
    """What the taught word's target does not name in the catalog (it may name nothing else)."""
    spec = catalog.spec
    known = {
        "field": lambda: taught.target in catalog.record.fields,
        "measure": lambda: taught.target in spec.measures,
        "object": lambda: taught.target in spec.objects,
        "value": lambda: (
            set(taught.values) <= set(catalog.record.fields.get(str(taught.of), _NO_FIELD).values)
        ),
        "alias": lambda: any(
            e == taught.of and n == taught.target for e, n, _ in _entity_names(catalog)
        ),
    }
    if known[taught.kind]():
        return []
    return [f"“{taught.target}” is not a {_KIND_WORDS[taught.kind]} of the catalog"]


_KIND_WORDS = {
    "field": "field",
    "measure": "measure",
    "object": "object",
    "value": "value word of a field",
    "alias": "name",
}


class _NoField(BaseModel):
    values: dict[str, list[str]] = Field(default_factory=dict)


_NO_FIELD = _NoField()


def catalog_yaml(taught: list[TaughtWord], record: str) -> dict[str, Any]:
    """The taught words as the catalog file would hold them (`bosun catalog vocabulary export`)."""
    out: dict[str, Any] = {}
    for word in taught:
        if word.kind == "field":
            _listed(out, ["objects", record, "fields", word.target, "synonyms"], word.word)
        elif word.kind == "measure":
            _listed(out, ["measures", word.target, "words"], word.word)
        elif word.kind == "object":
            _listed(out, ["objects", word.target, "synonyms"], word.word)
        elif word.kind == "value":
            for value in word.values:
                _listed(
                    out, ["objects", record, "fields", str(word.of), "values", value], word.word
                )
        else:
            _listed(out, ["entities", str(word.of), "aliases", word.target], word.word)
    return out


def _listed(out: dict[str, Any], path: list[str], word: str) -> None:
    node = out
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node.setdefault(path[-1], []).append(word)


def _key(text: str) -> str:
    return " ".join(re.findall(r"[\w&]+", text.lower().replace("_", " ")))
