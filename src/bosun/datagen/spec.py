"""The generator spec of a domain pack (`generator.yaml`), validated."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bosun.errors import CatalogError


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Factor(_Strict):
    """Multiplies a candidate's weight by a column of a small table, matched on row and candidate
    values."""

    table: str
    column: str
    match: dict[str, str] = Field(default_factory=dict)
    same: dict[Literal["left", "right"], str] | None = None


class Pick(_Strict):
    """Draw one row of `table` per record, optionally weighted and conditioned on earlier picks."""

    alias: str = Field(alias="as")
    table: str
    where: dict[str, Any] = Field(default_factory=dict)
    within: dict[str, str] = Field(
        default_factory=dict, description="column value must be in a list column"
    )
    weight: str | None = None
    factor: Factor | None = None
    separator: str = "|"


class GeneratorSpec(_Strict):
    record: str
    span_months: int = 24
    tables: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    picks: list[Pick]
    draws: dict[str, Literal["uniform"]] = Field(default_factory=dict)
    columns: dict[str, str]


def load_generator_spec(path: Path) -> GeneratorSpec:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        return GeneratorSpec.model_validate(raw)
    except OSError as exc:
        raise CatalogError(f"cannot read generator spec {path}: {exc.strerror}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise CatalogError(f"{path.name}: {where}: {first['msg']}") from None
