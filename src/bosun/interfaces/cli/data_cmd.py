"""`bosun data generate`, `bosun data load` and `bosun data export`."""

from __future__ import annotations

import sys
import time
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from rich.progress import Progress

    from bosun.catalog import Catalog
    from bosun.datagen.intake import FileLimits
    from bosun.datagen.load import LoadMode, SampleInfo
    from bosun.engines.base import Engine

app = typer.Typer(no_args_is_help=True)


def _date(text: str | None) -> date:
    if text is None:
        return date.today()
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a date (YYYY-MM-DD)") from None


@app.command()
def generate(
    rows: Annotated[int, typer.Option(min=1, help="number of records")] = 50_000,
    seed: Annotated[int, typer.Option(help="random seed; same arguments, same data")] = 42,
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="the sample's today, YYYY-MM-DD")
    ] = None,
) -> None:
    """Build the sample domain and load it into the configured engine."""
    from bosun.catalog import load_catalog
    from bosun.datagen.load import build
    from bosun.engines.factory import open_engine
    from bosun.settings import load_settings

    settings = load_settings()
    catalog = load_catalog(settings.catalog)
    engine = open_engine(settings, read_only=False)
    try:
        if sys.stderr.isatty():
            info = _build_with_progress(engine, catalog, rows, seed, _date(as_of))
        else:
            info = build(engine, catalog, rows, seed, _date(as_of))
    finally:
        engine.close()
    typer.echo(
        f"loaded {info.rows:,} {catalog.record.index} (seed {info.seed}, as of {info.as_of}) "
        f"and {len(catalog.spec.objects) - 1} reference tables into the {settings.engine} engine"
    )


def _build_with_progress(
    engine: Engine, catalog: Catalog, rows: int, seed: int, as_of: date
) -> SampleInfo:
    """build(), with a progress bar: one step per table loaded plus generating the records."""
    from bosun.datagen.load import build

    with _bar(28) as bar:
        task = bar.add_task("starting", total=len(catalog.spec.objects) + 1)
        finished = [0]

        def step(message: str) -> None:  # a step starts when the previous one is finished
            bar.update(task, description=message, completed=finished[0])
            finished[0] += 1

        info = build(engine, catalog, rows, seed, as_of, step)
        bar.update(task, description="done", completed=len(catalog.spec.objects) + 1)
    return info


def _bar(width: int) -> Progress:
    """A progress bar on stderr whose step descriptions take `width` characters."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn(f"{{task.description:<{width}}}"),
        BarColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
    )


@app.command("load")
def load(
    paths: Annotated[
        list[Path],
        typer.Argument(help="CSV (.gz/.zip), Parquet, JSON or JSON Lines files, or folders"),
    ],
    index: Annotated[
        str | None, typer.Option("--index", help="load every path into this index")
    ] = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="replace an index that exists")
    ] = False,
    append: Annotated[
        bool, typer.Option("--append", help="add the rows to an index that exists")
    ] = False,
) -> None:
    """Load your own data files into the configured engine; each file's index is named after it."""
    if replace and append:
        raise typer.BadParameter("--replace and --append exclude each other")
    from bosun.datagen.intake import FileLimits
    from bosun.datagen.load import load_files
    from bosun.engines.factory import open_engine
    from bosun.settings import load_settings

    mode: LoadMode = "create"
    if replace:
        mode = "replace"
    elif append:
        mode = "append"
    settings = load_settings()
    limits = FileLimits.of(settings)
    engine = open_engine(settings, read_only=False)
    started = time.perf_counter()
    try:
        if sys.stderr.isatty():
            done = _load_with_progress(engine, paths, index, mode, limits)
        else:
            done = load_files(engine, paths, index, mode, limits=limits)
    finally:
        engine.close()
    seconds = time.perf_counter() - started
    for name, rows, notes in done:
        typer.echo(f"loaded {rows:,} rows into index {name!r} ({settings.engine} engine)")
        for note in notes:
            typer.echo(f"  {note}")
    typer.echo(
        f"{sum(rows for _, rows, _ in done):,} rows in {seconds:.1f} s; next: bosun catalog init "
        + " ".join(f"--index {name}" for name, _, _ in done)
        + " --out catalog.yaml"
    )


def _load_with_progress(
    engine: Engine, paths: list[Path], index: str | None, mode: LoadMode, limits: FileLimits
) -> list[tuple[str, int, tuple[str, ...]]]:
    """load_files(), with a progress bar: reading and loading each index are its steps."""
    from bosun.datagen.load import load_files

    steps = 2 if index else 2 * len(paths)
    with _bar(40) as bar:
        task = bar.add_task("starting", total=steps)
        finished = [0]

        def step(message: str) -> None:
            bar.update(task, description=message, completed=finished[0])
            finished[0] += 1

        done = load_files(engine, paths, index, mode, step, limits)
        bar.update(task, description="done", completed=steps)
    return done


OutDir = Annotated[
    Path, typer.Option("--out", file_okay=False, help="directory for the Parquet files")
]


@app.command("export")
def export_cmd(out: OutDir) -> None:
    """Write every table of the domain as Parquet: OUT/<table>.parquet."""
    from bosun.catalog import load_catalog
    from bosun.datagen.load import export
    from bosun.engines.factory import open_engine
    from bosun.settings import load_settings

    settings = load_settings()
    engine = open_engine(settings)
    try:
        written = export(engine, load_catalog(settings.catalog), out)
    finally:
        engine.close()
    for path in written:
        typer.echo(str(path))
