"""Fields of an index as the compiler sees them: column, type, and how text is matched."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NUMERIC = {"integer", "long", "short", "byte", "float", "double", "half_float", "scaled_float", "unsigned_long"}
INTEGRAL = {"integer", "long", "short", "byte", "unsigned_long"}


@dataclass(frozen=True)
class Field:
    """A mapped field (or sub-field) and the DuckDB column holding its values."""

    name: str
    type: str
    column: str

    @property
    def sql(self) -> str:
        """The column as Elasticsearch sees its values: `float` fields are single precision there."""
        if self.type in ("float", "half_float"):
            return f"CAST(CAST({quote(self.column)} AS FLOAT) AS DOUBLE)"
        return quote(self.column)

    @property
    def tokens(self) -> str:
        """The column of lower-cased tokens precomputed for text matching."""
        return quote(token_column(self.column))

    @property
    def is_text(self) -> bool:
        return self.type == "text"

    @property
    def is_numeric(self) -> bool:
        return self.type in NUMERIC

    @property
    def is_date(self) -> bool:
        return self.type == "date"


def quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def token_column(column: str) -> str:
    return f"__tok__{column}"


def flatten_mapping(mapping: dict[str, Any]) -> dict[str, Field]:
    """Every addressable field name (sub-fields included) → Field."""
    fields: dict[str, Field] = {}
    for name, spec in mapping.get("properties", {}).items():
        kind = spec.get("type", "object")
        fields[name] = Field(name, kind, name)
        for sub, sub_spec in spec.get("fields", {}).items():
            fields[f"{name}.{sub}"] = Field(f"{name}.{sub}", sub_spec.get("type", "keyword"), name)
    return fields


def text_columns(mapping: dict[str, Any]) -> list[str]:
    """Columns that need a token list: text fields and fields with a text sub-field."""
    return sorted({f.column for f in flatten_mapping(mapping).values() if f.is_text})
