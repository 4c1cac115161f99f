"""Build a domain's data into an engine, record what was built, and export it as Parquet."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from bosun.catalog import Catalog
from bosun.datagen.spec import GeneratorSpec, load_generator_spec
from bosun.engines.base import Engine
from bosun.engines.staged import SEQ, StagedRows
from bosun.errors import BosunError, CatalogError, LoadError, quoting

if TYPE_CHECKING:
    import pyarrow as pa

    from bosun.datagen.files import LoadedFile
    from bosun.datagen.intake import FileLimits

# pyarrow, the file readers and the generator are imported by the functions that load or build:
# every question reads the sample info, and none needs them.

META_INDEX = "bosun_meta"
_META_MAPPING = {
    "properties": {
        "domain": {"type": "keyword"},
        "as_of": {"type": "date"},
        "seed": {"type": "long"},
        "rows": {"type": "long"},
    }
}
Progress = Callable[[str], None]
# records generated at once (about 1.6 GB at peak); a larger sample is built piece by piece
PIECE_ROWS = 1_000_000


@dataclass(frozen=True)
class SampleInfo:
    """What `data generate` built: the domain, its as-of date ("today" for questions), seed and
    rows."""

    domain: str
    as_of: date
    seed: int
    rows: int


def generator_spec_for(catalog: Catalog) -> GeneratorSpec:
    path = catalog.path.parent / "generator.yaml"
    if not path.exists():
        raise CatalogError(
            f"no generator.yaml beside {catalog.path.name}: this domain has no sample generator"
        )
    return load_generator_spec(path)


def build(
    engine: Engine,
    catalog: Catalog,
    rows: int,
    seed: int,
    as_of: date,
    progress: Progress = lambda _: None,
    piece_rows: int = PIECE_ROWS,
    scratch: Path | None = None,
) -> SampleInfo:
    """Generate the record table, load it and every reference table, then record the sample info.

    Past `piece_rows` records the table is generated a piece at a time into a staging file under
    `scratch` (the temp directory by default), then copied in by the engine's staged load: memory
    holds one piece.
    """
    import pyarrow as pa

    from bosun.datagen.generator import generate_records

    spec = generator_spec_for(catalog)
    for name, obj in catalog.spec.objects.items():
        if obj.kind == "reference":
            progress(f"loading {obj.index}")
            engine.bulk_load(
                obj.index, catalog.reference_table(name), catalog.mapping_for(name), obj.id_field
            )
    info = SampleInfo(catalog.spec.domain, as_of, seed, rows)
    progress(f"generating {rows:,} {catalog.record.index}")
    if rows <= piece_rows:
        table = generate_records(spec, catalog, rows, seed, as_of)
        progress(f"loading {catalog.record.index}")
        engine.bulk_load(
            catalog.record.index, table, catalog.mapping_for(spec.record), catalog.record.id_field
        )
    else:
        _build_in_pieces(engine, catalog, spec, info, piece_rows, scratch, progress)
    meta = pa.table(
        {
            "domain": [info.domain],
            "as_of": pa.array([as_of], pa.date32()),
            "seed": [seed],
            "rows": [rows],
        }
    )
    engine.bulk_load(META_INDEX, meta, _META_MAPPING, "domain")
    return info


def _build_in_pieces(
    engine: Engine,
    catalog: Catalog,
    spec: GeneratorSpec,
    info: SampleInfo,
    piece_rows: int,
    scratch: Path | None,
    progress: Progress,
) -> None:
    """The record table generated piece by piece into a DuckDB staging file, then loaded from it in
    one step."""
    from bosun.datagen.generator import generate_pieces

    index = catalog.record.index
    with tempfile.TemporaryDirectory(prefix="bosun-generate-", dir=scratch) as folder:
        staged = StagedRows(Path(folder) / "records.duckdb", index, info.rows)
        pieces = generate_pieces(spec, catalog, info.rows, info.seed, info.as_of, piece_rows)
        _stage(pieces, staged)
        progress(f"loading {index}")
        engine.load_staged(index, staged, catalog.mapping_for(spec.record))


def _stage(pieces: Iterator[pa.Table], staged: StagedRows) -> None:
    """Append each piece to the staged table, numbering its rows in load order (column SEQ)."""
    import duckdb
    import numpy as np
    import pyarrow as pa

    done = 0
    with duckdb.connect(str(staged.path)) as con:
        con.execute("SET enable_progress_bar = false")
        for piece in pieces:
            numbered = piece.append_column(SEQ, pa.array(np.arange(done, done + piece.num_rows)))
            con.register("__piece", numbered)
            verb = f'INSERT INTO "{staged.table}"' if done else f'CREATE TABLE "{staged.table}" AS'
            con.execute(f"{verb} SELECT * FROM __piece")
            con.unregister("__piece")
            done += piece.num_rows


def read_sample_info(engine: Engine) -> SampleInfo | None:
    """The recorded sample info, or None when the engine holds no generated sample."""
    try:
        if META_INDEX not in engine.indices():
            return None
        hits = engine.search(META_INDEX, {"size": 1})["hits"]["hits"]
    except BosunError:
        return None
    if not hits:
        return None
    source: dict[str, Any] = hits[0]["_source"]
    return SampleInfo(
        source["domain"],
        date.fromisoformat(str(source["as_of"])[:10]),
        int(source["seed"]),
        int(source["rows"]),
    )


def export(engine: Engine, catalog: Catalog, out: Path) -> list[Path]:
    """Write every object of the catalog as `out/<index>.parquet`, rows in load order."""
    import pyarrow.parquet as pq

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, obj in catalog.spec.objects.items():
        table = read_table(engine, obj.index, obj.id_field).cast(catalog.arrow_schema(name))
        path = out / f"{obj.index}.parquet"
        pq.write_table(table, path, compression="zstd", write_statistics=True)
        written.append(path)
    return written


def read_table(engine: Engine, index: str, id_field: str | None) -> pa.Table:
    """Every row of an index: the embedded engine's table directly, a cluster paged by
    search_after."""
    to_arrow = getattr(engine, "to_arrow", None)
    if to_arrow is not None:
        table: pa.Table = to_arrow(index)
        return table
    return _scroll(engine, index, id_field)


def _scroll(engine: Engine, index: str, id_field: str | None) -> pa.Table:
    """Page through a remote index with search_after, sorted by the id field."""
    import pyarrow as pa

    rows: list[dict[str, Any]] = []
    body: dict[str, Any] = {
        "size": 5000,
        "sort": [{id_field or "_doc": "asc"}],
        "track_total_hits": False,
    }
    while True:
        hits = engine.search(index, body)["hits"]["hits"]
        rows.extend(h["_source"] for h in hits)
        if len(hits) < body["size"]:
            return pa.Table.from_pylist(rows)
        body["search_after"] = hits[-1]["sort"]


LoadMode = Literal["create", "replace", "append"]


def load_files(
    engine: Engine,
    paths: list[Path],
    index: str | None = None,
    mode: LoadMode = "create",
    progress: Progress = lambda _: None,
    limits: FileLimits | None = None,
) -> list[tuple[str, int, tuple[str, ...]]]:
    """Load data files: each path into the index named after it, or all of them into `index`.

    Each index loaded comes back as (index, rows, notes): what reading decided that the user should
    hear.

    Every file is read and checked before anything is written, and each index is replaced in one
    step, so a failed load leaves what was loaded before as it was.
    """
    from bosun.datagen.files import default_index, files_of, read_files
    from bosun.datagen.intake import FileLimits, checked_index

    groups = (
        [(index, [f for p in paths for f in files_of(p)])]
        if index
        else [(default_index(p), files_of(p)) for p in paths]
    )
    for name, _ in groups:
        checked_index(name or "", {META_INDEX})
    limits = limits or FileLimits.default()
    spill = limits.memory.temp_dir
    if spill is not None:
        spill.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bosun-load-", dir=spill) as folder:
        loaded_files = []
        for name, files in groups:
            assert name is not None
            progress(
                f"reading {files[0].name}" + (f" (+{len(files) - 1})" if len(files) > 1 else "")
            )
            loaded_files.append(read_files(files, name, Path(folder), limits))
        return _written(engine, loaded_files, mode, progress)


def _written(
    engine: Engine, loaded_files: list[LoadedFile], mode: LoadMode, progress: Progress
) -> list[tuple[str, int, tuple[str, ...]]]:
    existing = set(engine.indices())
    for loaded in loaded_files:
        if loaded.index in existing and mode == "create":
            raise LoadError(
                f"index {loaded.index!r} exists already: add --replace to replace it or --append "
                "to add "
                "rows to it"
            )
    done = []
    for loaded in loaded_files:
        progress(f"loading {loaded.staged.rows:,} rows into {loaded.index}")
        if mode == "append" and loaded.index in existing:
            rows = _appended(engine, loaded)
        else:
            rows = engine.load_staged(loaded.index, loaded.staged, loaded.mapping)
        done.append((loaded.index, rows, loaded.notes))
    return done


def _appended(engine: Engine, loaded: LoadedFile) -> int:
    """The new rows added after the index's own, under the index's own mapping: by the engine in SQL
    when it can, else the index's rows and the new ones loaded anew."""
    before = set(engine.mapping(loaded.index).get("properties", {}))
    if before != set(loaded.mapping["properties"]):
        raise LoadError(
            f"{loaded.sources[0]}: its columns differ from index {loaded.index!r}'s; use --replace"
        )
    append = getattr(engine, "append_staged", None)
    try:
        rows: int = append(loaded.index, loaded.staged) if append else _reloaded(engine, loaded)
    except LoadError as exc:
        raise LoadError(f"{loaded.sources[0]}: {exc}") from None
    return rows


def _reloaded(engine: Engine, loaded: LoadedFile) -> int:
    """The index loaded anew with its rows and the new ones (an engine that takes rows)."""
    import pyarrow as pa

    table = read_table(engine, loaded.index, None)
    try:
        added = loaded.staged.to_arrow().select(table.column_names).cast(table.schema)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
        raise LoadError(
            f"its values do not fit index {loaded.index!r}: {quoting(str(exc))}"
        ) from None
    engine.bulk_load(loaded.index, pa.concat_tables([table, added]), engine.mapping(loaded.index))
    return added.num_rows
