"""The catalog's schema: everything Bosun knows about a domain, validated (DESIGN §4)."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

FieldType = Literal["keyword", "text", "date", "integer", "long", "float", "double", "boolean"]
Role = Literal["dimension", "measure", "date", "identifier", "text", "attribute"]
Agg = Literal["count", "sum", "avg", "min", "max", "cardinality"]


MAX_VOCABULARY_SHOWN = 30


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Adjectives(Strict):
    """Domain adjectives of a field or measure, by direction: more: [heavy], less: [light] (base
    forms)."""

    more: list[str] = Field(default_factory=list)
    less: list[str] = Field(default_factory=list)


DatePartName = Literal["weekday", "month", "hour"]
Better = Literal["higher", "lower"]
BETTER_HELP = (
    "which way the figure is better: 'lower' for a transit time, 'higher' for an on-time rate; "
    "unset, "
    "answers call a figure highest or lowest and never best or worst (`catalog init` never guesses "
    "it)"
)


class DerivedPart(Strict):
    """A field the loader derives from another: `arrival_date_weekday` is {part: weekday, of:
    arrival_date}.

    weekday: ISO day of the week (Monday 1 … Sunday 7); month: month of the year (1–12); hour: hour
    of the day (0–23), of a timestamp or of an HHMM clock column. Plain values any engine filters
    and groups with terms and range queries (Bosun runs no scripts).
    """

    part: DatePartName
    of: str


class FieldSpec(Strict):
    """One field of a business object."""

    type: FieldType
    role: Role = "attribute"
    description: str
    synonyms: list[str] = Field(default_factory=list)
    unit: str | None = None
    subfields: dict[str, Literal["text", "keyword"]] = Field(default_factory=dict)
    values: dict[str, list[str]] = Field(
        default_factory=dict,
        description="canonical value → words that name it (small vocabularies)",
    )
    list_separator: str | None = Field(None, description="a column holding a list, e.g. '|'")
    adjectives: Adjectives = Field(default_factory=Adjectives)
    better: Better | None = Field(None, description=BETTER_HELP)
    derived: DerivedPart | None = Field(
        None, description="a date part the loader derives from another field"
    )
    level: bool = Field(
        False,
        description="a level, not an amount: a duration or price per record, a rate, a "
        "population at a date. Averaged, or taken at a period; never summed into a total",
    )

    def line(self, name: str) -> str:
        """The field in one line, as a chat model is shown it: its values when they are a small
        vocabulary, never a column's data."""
        line = f"- {name} ({self.type}, {self.role}): {self.description}"
        if self.values and len(self.values) <= MAX_VOCABULARY_SHOWN:
            line += " values: " + ", ".join(
                f"{v} ({', '.join(words[:3])})" for v, words in self.values.items()
            )
        return line


class ObjectSpec(Strict):
    """A business object: the record index, or a reference table loaded from a CSV."""

    kind: Literal["record", "reference"]
    index: str
    description: str
    synonyms: list[str] = Field(default_factory=list)
    id_field: str | None = None
    title_field: str | None = None
    source: str | None = Field(
        None, description="CSV path relative to the catalog file; none: read from the index"
    )
    fields: dict[str, FieldSpec]

    @model_validator(mode="after")
    def _known_keys(self) -> ObjectSpec:
        for key in (self.id_field, self.title_field):
            if key is not None and key not in self.fields:
                raise ValueError(f"{key!r} is not one of this object's fields")
        return self


class Target(Strict):
    """A record field that an entity's name filters, and when it applies."""

    field: str
    value_from: str | None = Field(
        None, description="reference column giving the value; default the name"
    )
    when: dict[str, str] = Field(default_factory=dict, description="condition on the reference row")
    cues: list[str] = Field(
        default_factory=list, description="words before the name that pick this field"
    )


class EntitySpec(Strict):
    """Names people use in questions and what they resolve to."""

    object: str | None = None
    name_field: str | None = None
    alias_field: str | None = None
    code_fields: list[str] = Field(default_factory=list)
    extra_names: list[str] = Field(
        default_factory=list, description="more columns whose values name it"
    )
    values: dict[str, list[str]] = Field(
        default_factory=dict,
        description="inline names: canonical value → aliases (no reference object)",
    )
    words: list[str] = Field(
        default_factory=list, description="nouns for the kind: 'carrier', 'shipping line'"
    )
    aliases: dict[str, list[str]] = Field(
        default_factory=dict,
        description="name → more words people use for it ('notebooks' for the laptops heading)",
    )
    say_names: bool = Field(
        False,
        description="the record holds codes: answers say each with its name, the first of "
        "extra_names ('UA (United Air Lines Inc.)')",
    )
    targets: list[Target]

    @model_validator(mode="after")
    def _has_names(self) -> EntitySpec:
        if not self.values and not (self.object and self.name_field):
            raise ValueError("needs either object and name_field, or inline values")
        return self


class LinkAttribute(Strict):
    """An attribute of a linked object that questions filter the records by ("Ocean Alliance
    members", "vessels flagged in Panama"): the words that ask for it and the words that name its
    values."""

    words: list[str] = Field(
        default_factory=list, description="words that ask for it: 'flagged', 'based in'"
    )
    values: dict[str, list[str]] = Field(
        default_factory=dict,
        description="value as the reference data holds it → words that name it",
    )
    names_from: str | None = Field(
        None, description="an entity whose names also name its values (country codes, carriers)"
    )
    from_data: bool = Field(
        False, description="each value the reference data holds names itself ('Ocean Alliance')"
    )


class LinkSpec(Strict):
    """Record fields that hold a reference object's key, and the object's attributes questions
    filter on.

    `carriers: {key: carrier_name, fields: [{field: carrier_name}], attributes: {alliance: …}}`: the
    record's carrier_name holds carriers.carrier_name. Several fields (port of lading, of unlading)
    are picked by their cues and their `when` on the reference row, as an entity's targets are.
    """

    key: str
    fields: list[Target] = Field(min_length=1)
    words: list[str] = Field(
        default_factory=list, description="more words for the objects ('members')"
    )
    attributes: dict[str, LinkAttribute]


class MeasureSpec(Strict):
    """A named measure: 'volume' → sum of teu. With `share`, a ratio measure: the measure over the
    records of those values as a fraction of it over all ('held share': {agg: count, share: {status:
    [held]}})."""

    agg: Agg
    field: str | None = None
    words: list[str]
    label: str
    unit: str | None = None
    assumption: str | None = None
    adjectives: Adjectives = Field(default_factory=Adjectives)
    better: Better | None = Field(None, description=BETTER_HELP)
    share: dict[str, list[str]] | None = Field(
        None,
        description="the part of a ratio measure: record field → values (a condition on the "
        "record)",
    )


class TimeSpec(Strict):
    default_field: str
    fields: dict[str, list[str]] = Field(description="date field → verbs and nouns that select it")
    ahead: list[str] = Field(
        default_factory=list,
        description="date fields whose dates can lie after today (an "
        "ETA): a range after today on any other date field asks about the future",
    )


class Defaults(Strict):
    top_n: int = 10
    page_size: int = 20
    measure: str
    figure: str | None = Field(
        None,
        description="the measure that a ranking or grouping naming none uses, where "
        "rows are already summaries ('which store sold the most'); default: measure",
    )
    bound_field: str | None = Field(
        None,
        description="the record field a bare number after a bound word and the records' noun "
        "is of ('people over 60': age); default: none, the number is said not understood",
    )
    fuzzy_min_score: float = Field(
        80.0,
        ge=0.0,
        le=100.0,
        description="how alike (0-100) a misspelt name must be to the name it is read as",
    )
    ambiguity_margin: float = Field(
        3.0,
        ge=0.0,
        le=100.0,
        description="names at most this many points (0-100) less similar than the nearest by "
        "vector are an ambiguity with it, asked about or assumed",
    )
    offer_min_score: float = Field(
        70.0,
        ge=0.0,
        le=100.0,
        description="how alike (0-100) a name must be to be offered in a question back: a name "
        "the question gives a role ('the shipper Cosko') or one only loosely like a name of "
        "another kind; never read without asking",
    )
    today: str | None = Field(
        None,
        description="'data': the last date in the data; 'real': the system date; or a date "
        "YYYY-MM-DD. Default: a generated sample's as-of, else the data's last date when it ends "
        "in the past",
    )

    @field_validator("today")
    @classmethod
    def _today(cls, value: str | None) -> str | None:
        if value not in (None, "data", "real"):
            date.fromisoformat(str(value))
        return value


class Glossary(Strict):
    source: str
    synonyms: dict[str, list[str]] = Field(default_factory=dict)


class CatalogSpec(Strict):
    """The whole catalog file."""

    domain: str
    description: str
    record: str = Field(description="the record object that questions are about")
    objects: dict[str, ObjectSpec]
    entities: dict[str, EntitySpec] = Field(default_factory=dict)
    measures: dict[str, MeasureSpec] = Field(default_factory=dict)
    time: TimeSpec
    defaults: Defaults
    glossary: Glossary | None = None
    links: dict[str, LinkSpec] = Field(
        default_factory=dict, description="reference object → how records link it"
    )
    verbs: list[str] = Field(
        default_factory=list,
        description="verbs of this domain that add nothing to a question "
        "('how many goals were scored'): read and not reported, as English's neutral verbs",
    )
    asks: dict[str, str] = Field(
        default_factory=dict,
        description="question words → the record field each asks of the records of the last "
        "answer ('where are they?': the port they are at or headed to)",
    )

    @model_validator(mode="after")
    def _references(self) -> CatalogSpec:
        record = self.objects.get(self.record)
        if record is None:
            raise ValueError(f"record {self.record!r} is not one of the objects")
        _check_fields(
            record, [self.time.default_field, *self.time.fields, *self.time.ahead], "time"
        )
        _check_fields(record, [m.field for m in self.measures.values() if m.field], "measures")
        _check_fields(record, list(self.asks.values()), "asks")
        bound = [self.defaults.bound_field] if self.defaults.bound_field else []
        _check_fields(record, bound, "defaults")
        _check_fields(
            record, [f.derived.of for f in record.fields.values() if f.derived], "derived"
        )
        for name, measure in self.measures.items():
            _check_share(record, measure.share or {}, f"measures.{name}.share")
        for name, entity in self.entities.items():
            _check_fields(record, [t.field for t in entity.targets], f"entities.{name}.targets")
            if entity.object and entity.object not in self.objects:
                raise ValueError(
                    f"entities.{name}.object: {entity.object!r} is not one of the objects"
                )
        for name, link in self.links.items():
            _check_link(self, name, link)
        for key, named in (("measure", self.defaults.measure), ("figure", self.defaults.figure)):
            if named is not None and named not in self.measures:
                raise ValueError(f"defaults.{key}: {named!r} is not one of the measures")
        return self


def _check_link(spec: CatalogSpec, name: str, link: LinkSpec) -> None:
    obj = spec.objects.get(name)
    if obj is None or obj.kind != "reference":
        raise ValueError(f"links.{name}: {name!r} is not one of the reference objects")
    _check_fields(
        obj,
        [link.key, *link.attributes, *(k for t in link.fields for k in t.when)],
        f"links.{name}",
    )
    _check_fields(spec.objects[spec.record], [t.field for t in link.fields], f"links.{name}.fields")
    for attribute, words in link.attributes.items():
        if words.names_from is not None and words.names_from not in spec.entities:
            raise ValueError(
                f"links.{name}.attributes.{attribute}.names_from: {words.names_from!r} is not one "
                "of "
                "the entities"
            )


def _check_fields(obj: ObjectSpec, names: list[str], where: str) -> None:
    for name in names:
        if name not in obj.fields:
            raise ValueError(f"{where}: {name!r} is not a field of {obj.index}")


def _check_share(obj: ObjectSpec, part: dict[str, list[str]], where: str) -> None:
    """A ratio measure's part names record fields, and values of their vocabulary where they have
    one."""
    _check_fields(obj, list(part), where)
    for name, values in part.items():
        vocabulary = obj.fields[name].values
        unknown = [v for v in values if vocabulary and v not in vocabulary]
        if not values or unknown:
            raise ValueError(
                f"{where}.{name}: {unknown or 'no values'} not among the field's values"
            )


def source_path(catalog_file: Path, source: str) -> Path:
    return (catalog_file.parent / source).resolve()
