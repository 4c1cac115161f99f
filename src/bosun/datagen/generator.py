"""A generic, deterministic record generator driven by a domain pack's `generator.yaml`.

Picks and random draws are vectorised numpy over one PCG64 stream in a fixed order, so the same
(rows, seed, as-of) give the same rows on any machine; derived columns are DuckDB SQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
from dateutil.relativedelta import relativedelta

from bosun.catalog import Catalog
from bosun.catalog.parts import part_sql
from bosun.catalog.schema import ObjectSpec
from bosun.datagen.spec import Factor, GeneratorSpec, Pick
from bosun.errors import CatalogError

_SQL_TYPES = {
    "keyword": "VARCHAR",
    "text": "VARCHAR",
    "date": "DATE",
    "integer": "BIGINT",
    "long": "BIGINT",
    "float": "DOUBLE",
    "double": "DOUBLE",
    "boolean": "BOOLEAN",
}


@dataclass(frozen=True)
class Source:
    """A table picks draw from: its Arrow form (to materialise) and its rows (to decide weights)."""

    table: pa.Table
    rows: list[dict[str, Any]]


def _sources(spec: GeneratorSpec, catalog: Catalog) -> dict[str, Source]:
    sources = {name: Source(pa.Table.from_pylist(rows), rows) for name, rows in spec.tables.items()}
    for name, obj in catalog.spec.objects.items():
        if obj.kind == "reference":
            table = catalog.reference_table(name)
            sources[name] = Source(table, table.to_pylist())
    return sources


def _ref(value: Any, picked: dict[str, str]) -> tuple[str, str] | None:
    """('alias', 'column') when `value` names an earlier pick's column, else None (a literal)."""
    if isinstance(value, str) and "." in value:
        alias, column = value.split(".", 1)
        if alias in picked:
            return alias, column
    return None


class _Picker:
    """Draws the rows of each pick, remembering indices so later picks can refer to them."""

    def __init__(self, sources: dict[str, Source], rng: np.random.Generator, n: int) -> None:
        self.sources, self.rng, self.n = sources, rng, n
        self.indices: dict[str, np.ndarray] = {}
        self.tables: dict[str, str] = {}

    def value(self, alias: str, column: str, row: int) -> Any:
        return self.sources[self.tables[alias]].rows[row][column]

    def pick(self, step: Pick) -> None:
        source = self._source(step.table)
        aliases = sorted(self._referenced_aliases(step))
        keys = np.zeros(self.n, dtype=np.int64)
        for alias in aliases:
            keys = keys * len(self.sources[self.tables[alias]].rows) + self.indices[alias]
        _, first, inverse, counts = np.unique(
            keys, return_index=True, return_inverse=True, return_counts=True
        )
        groups = np.split(np.argsort(inverse, kind="stable"), np.cumsum(counts)[:-1])
        chosen = np.empty(self.n, dtype=np.int64)
        for k, rows in enumerate(groups):
            context = {alias: int(self.indices[alias][first[k]]) for alias in aliases}
            weights = self._weights(step, source, context)
            chosen[rows] = self.rng.choice(len(weights), size=len(rows), p=weights / weights.sum())
        self.indices[step.alias] = chosen
        self.tables[step.alias] = step.table

    def _source(self, name: str) -> Source:
        if name not in self.sources:
            raise CatalogError(f"generator.yaml: picks: unknown table {name!r}")
        return self.sources[name]

    def _referenced_aliases(self, step: Pick) -> set[str]:
        values: list[Any] = [*step.where.values(), *step.within.values()]
        if step.factor:
            values += [*step.factor.match.values(), *(step.factor.same or {}).values()]
        return {ref[0] for v in values if (ref := _ref(v, self.tables))}

    def _resolve(self, value: Any, context: dict[str, int]) -> Any:
        ref = _ref(value, self.tables)
        return self.value(ref[0], ref[1], context[ref[0]]) if ref else value

    def _weights(self, step: Pick, source: Source, context: dict[str, int]) -> np.ndarray:
        where = {col: self._resolve(v, context) for col, v in step.where.items()}
        within = {
            col: set(str(self._resolve(v, context) or "").split(step.separator))
            for col, v in step.within.items()
        }
        weights = np.array(
            [
                (float(row[step.weight]) if step.weight else 1.0)
                * all(row[c] == v for c, v in where.items())
                * all(row[c] in vs for c, vs in within.items())
                * (self._factor(step.factor, row, context) if step.factor else 1.0)
                for row in source.rows
            ]
        )
        if weights.sum() <= 0:
            raise CatalogError(
                f"generator.yaml: pick {step.alias!r} has no candidate for {where or within}"
            )
        return weights

    def _factor(self, factor: Factor, candidate: dict[str, Any], context: dict[str, int]) -> float:
        def resolve(value: str) -> Any:
            if value.startswith("candidate."):
                return candidate[value.removeprefix("candidate.")]
            return self._resolve(value, context)

        wanted = {col: resolve(v) for col, v in factor.match.items()}
        if factor.same:
            wanted["same"] = resolve(factor.same["left"]) == resolve(factor.same["right"])
        for row in self.sources[factor.table].rows:
            if all(row[c] == v for c, v in wanted.items()):
                return float(row[factor.column])
        return 0.0

    def materialise(self, used: str) -> dict[str, pa.Array]:
        """`alias__column` arrays for every picked column that the text `used` mentions."""
        columns: dict[str, pa.Array] = {}
        for alias, indices in self.indices.items():
            table = self.sources[self.tables[alias]].table
            wanted = [name for name in table.column_names if f"{alias}__{name}" in used]
            taken = table.select(wanted).take(pa.array(indices))
            for name in wanted:
                columns[f"{alias}__{name}"] = taken.column(name).combine_chunks()
        return columns


def period_start(as_of: date, months: int) -> date:
    """First day of the span of `months` months that ends on `as_of`."""
    return as_of - relativedelta(months=months) + timedelta(days=1)


def generate_records(
    spec: GeneratorSpec,
    catalog: Catalog,
    rows: int,
    seed: int,
    as_of: date,
    *,
    piece: int = 0,
    first_row: int = 0,
) -> pa.Table:
    """The record table: `rows` rows, typed by the catalog, identical for identical arguments.

    `piece` and `first_row` make one piece of a larger table (see generate_pieces): its own random
    stream, and row numbers (which the columns may use, e.g. for unique ids) counted from
    `first_row`.
    """
    bits = np.random.PCG64(seed)
    rng = np.random.Generator(bits.jumped(piece) if piece else bits)
    picker = _Picker(_sources(spec, catalog), rng, rows)
    for step in spec.picks:
        picker.pick(step)
    columns = picker.materialise(" ".join(spec.columns.values()))
    for name in spec.draws:
        columns[name] = pa.array(rng.random(rows))
    columns["_row"] = pa.array(np.arange(first_row, first_row + rows, dtype=np.int64))
    return _derive(spec, catalog, pa.table(columns), seed, as_of)


def generate_pieces(
    spec: GeneratorSpec, catalog: Catalog, rows: int, seed: int, as_of: date, piece_rows: int
) -> Iterator[pa.Table]:
    """The record table in pieces of at most `piece_rows` rows, so memory holds one piece, not every
    row.

    The first piece is generate_records' table of that size; each later piece draws from a stream of
    its own (the seed's PCG64 jumped by the piece's number), so the same arguments give the same
    pieces, and a table of up to `piece_rows` rows is the one generate_records makes.
    """
    for piece, first_row in enumerate(range(0, rows, piece_rows)):
        size = min(piece_rows, rows - first_row)
        yield generate_records(spec, catalog, size, seed, as_of, piece=piece, first_row=first_row)


def _expression(record: ObjectSpec, name: str) -> str:
    """The column itself, or the date part the catalog derives it from (the same as `data load`
    writes)."""
    derived = record.fields[name].derived
    if derived is None:
        return name
    return part_sql(derived.of, derived.part, clock=record.fields[derived.of].type != "date")


def _derive(
    spec: GeneratorSpec, catalog: Catalog, drawn: pa.Table, seed: int, as_of: date
) -> pa.Table:
    record = catalog.object(spec.record)
    missing = [
        f for f, field in record.fields.items() if f not in spec.columns and field.derived is None
    ]
    if missing:
        raise CatalogError(f"generator.yaml: columns: no expression for {', '.join(missing)}")
    inner = ", ".join(f"{expr} AS {name}" for name, expr in spec.columns.items())
    outer = ", ".join(
        f"CAST({_expression(record, name)} AS {_SQL_TYPES[f.type]}) AS {name}"
        for name, f in record.fields.items()
    )
    start = period_start(as_of, spec.span_months)
    params = {"as_of": as_of, "start": start, "span_days": (as_of - start).days + 1, "seed": seed}
    used = {k: v for k, v in params.items() if f"${k}" in inner}
    with duckdb.connect() as con:
        con.execute("SET enable_progress_bar = false")
        con.register("drawn", drawn)
        sql = f"SELECT {outer} FROM (SELECT _row, {inner} FROM drawn) ORDER BY _row"
        try:
            result = con.sql(sql, params=used).to_arrow_table()
        except duckdb.Error as exc:
            raise CatalogError(f"generator.yaml: columns: {exc}".splitlines()[0]) from None
    return result.cast(catalog.arrow_schema(spec.record))
