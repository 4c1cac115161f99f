"""`bosun catalog show`, `bosun catalog init` and `bosun catalog check`."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bosun.errors import MissingIndex, SettingsError

if TYPE_CHECKING:
    from rich.console import Console

    from bosun.catalog import Catalog
    from bosun.settings import Settings

app = typer.Typer(no_args_is_help=True)


@app.command()
def show(
    path: Annotated[
        Path | None, typer.Argument(help="catalog file; default: the configured one")
    ] = None,
) -> None:
    """Print the catalog readably: objects and fields, entities, measures, time words, glossary."""
    from rich.console import Console
    from rich.table import Table

    from bosun.catalog import load_catalog
    from bosun.settings import load_settings

    catalog = load_catalog(path or load_settings().catalog)
    console = Console()
    console.print(f"[bold]{catalog.spec.domain}[/] — {catalog.spec.description}  ({catalog.path})")
    for name, obj in catalog.spec.objects.items():
        table = Table(
            title=f"{name} ({obj.kind}, index {obj.index}): {obj.description}", title_justify="left"
        )
        for column in ("field", "type", "role", "unit", "synonyms", "description"):
            table.add_column(column)
        for field, spec in obj.fields.items():
            table.add_row(
                field,
                spec.type,
                spec.role,
                spec.unit or "",
                ", ".join(spec.synonyms[:5]),
                spec.description,
            )
        console.print(table)
    _summary(console, catalog)


def _summary(console: Console, catalog: Catalog) -> None:
    from rich.table import Table

    entities = Table(title="entities (names resolved in questions)", title_justify="left")
    for column in ("entity", "names from", "filters"):
        entities.add_column(column)
    for name, entity in catalog.spec.entities.items():
        source = (
            f"{entity.object}.{entity.name_field}"
            if entity.object
            else f"{len(entity.values)} inline names"
        )
        entities.add_row(name, source, ", ".join(t.field for t in entity.targets))
    console.print(entities)
    measures = Table(title="measures", title_justify="left")
    for column in ("measure", "means", "words"):
        measures.add_column(column)
    for name, m in catalog.spec.measures.items():
        measures.add_row(name, f"{m.agg}({m.field or '*'})", ", ".join(m.words))
    console.print(measures)
    for field, words in catalog.spec.time.fields.items():
        console.print(f"date field [bold]{field}[/]: {', '.join(words)}")
    console.print(
        f"default date field: {catalog.spec.time.default_field}; glossary: {len(catalog.glossary)} "
        "terms"
    )


@app.command()
def init(
    index: Annotated[
        list[str],
        typer.Option(
            "--index",
            help="live index; repeat it: the first is the record, the others reference objects",
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option("--out", dir_okay=False, help="write here instead of standard output"),
    ] = None,
    llm: Annotated[
        bool,
        typer.Option(
            "--llm",
            help="ask the configured chat model (BOSUN_LLM_MODEL) for "
            "descriptions and synonyms, checked against the data",
        ),
    ] = False,
) -> None:
    """Draft a catalog from live indices: roles, measures, names and links drafted from their
    values."""
    from bosun.catalog.draft import draft
    from bosun.engines.factory import open_engine
    from bosun.settings import load_settings

    settings = load_settings()
    engine = open_engine(settings)
    try:
        drafted = draft(engine, index, settings.max_columns)
    finally:
        engine.close()
    text, notes = drafted.text, drafted.notes
    if llm:
        text, notes = _worded(text, notes, settings)
    for note in notes:  # what was decided for each field and why, so a user can correct it
        typer.echo(note, err=out is None)
    if out is None:
        typer.echo(text)
    else:
        out.write_text(text, encoding="utf-8")
        typer.echo(
            f"wrote {out}; next: bosun catalog check {out}, then BOSUN_CATALOG={out} bosun ask …"
        )


def _worded(text: str, notes: list[str], settings: Settings) -> tuple[str, list[str]]:
    """The draft with the chat model's checked descriptions and synonyms (`--llm`)."""
    from bosun.catalog.model_words import with_model_words
    from bosun.chat import ChatClient

    if not settings.llm_model:
        raise SettingsError(
            "catalog init --llm needs a chat model: set BOSUN_LLM_MODEL (and BOSUN_LLM_BASE_URL "
            "for a local server)"
        )
    worded = with_model_words(text, ChatClient.from_settings(settings))
    return worded.text, [*notes, *worded.notes]


@app.command()
def check(
    path: Annotated[
        Path | None, typer.Argument(help="catalog file; default: the configured one")
    ] = None,
) -> None:
    """List every problem of a catalog with its key path; exit 1 when there is one."""
    from bosun.catalog.check import check_file
    from bosun.catalog.mistakes import file_mistakes
    from bosun.engines.factory import open_engine
    from bosun.settings import load_settings

    settings = load_settings()
    engine = None
    with contextlib.suppress(MissingIndex):  # no data yet: the file alone is checked
        engine = open_engine(settings)
    try:
        problems = check_file(path or settings.catalog, engine)
        warnings = [] if problems else file_mistakes(path or settings.catalog, engine)
    finally:
        if engine is not None:
            engine.close()
    for problem in problems:
        typer.echo(problem)
    if problems:
        raise typer.Exit(1)
    for warning in warnings:  # likely mistakes: the catalog works, but probably not as meant
        typer.echo(f"warning: {warning}")
    said = ""
    if warnings:
        said = f" ({len(warnings)} warning{'s' if len(warnings) != 1 else ''})"
    typer.echo(f"{path or settings.catalog or 'the bundled catalog'}: no problems{said}")
