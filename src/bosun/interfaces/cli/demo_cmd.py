"""`bosun demo`: build the sample domain and show what Bosun loaded."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from bosun.errors import CatalogError
from bosun.interfaces.cli.render import show

if TYPE_CHECKING:
    from rich.console import Console

    from bosun.catalog import Catalog
    from bosun.datagen.load import SampleInfo
    from bosun.engines.base import Engine
    from bosun.settings import Settings


def _demo_plan(catalog: Catalog) -> tuple[SampleInfo, list[str]]:
    """The domain pack's demo.yaml: which sample to build and which questions to ask."""
    import yaml

    from bosun.datagen.load import SampleInfo

    path = catalog.path.parent / "demo.yaml"
    if not path.exists():
        raise CatalogError(f"no demo.yaml beside {catalog.path.name}: this domain has no demo")
    plan = yaml.safe_load(path.read_text(encoding="utf-8"))
    info = SampleInfo(
        catalog.spec.domain,
        date.fromisoformat(str(plan["as_of"])),
        int(plan["seed"]),
        int(plan["rows"]),
    )
    return info, [str(q) for q in plan.get("questions", [])]


def demo() -> None:
    """Build the domain's demo sample and answer its demo questions."""
    from rich.console import Console

    from bosun.catalog import load_catalog
    from bosun.conversation.session import open_session
    from bosun.settings import load_settings

    settings = load_settings()
    catalog = load_catalog(settings.catalog)
    sample, questions = _demo_plan(catalog)
    console = Console()
    engine = _engine_with_sample(settings, catalog, sample, console)
    try:
        _show_loaded(engine, catalog, console)
    finally:
        engine.close()
    session = open_session(settings, sample.as_of)
    try:
        for question in questions:
            console.rule(f"[bold]{question}")
            show(console, session.ask(question, "demo"), session.context.catalog)
    finally:
        session.close()


def _engine_with_sample(
    settings: Settings, catalog: Catalog, sample: SampleInfo, console: Console
) -> Engine:
    from bosun.datagen.load import build, read_sample_info
    from bosun.engines.factory import open_engine

    if settings.engine != "embedded" or settings.duckdb_path.exists():
        engine = open_engine(settings)
        if read_sample_info(engine) == sample:
            console.print(
                f"sample already loaded: {sample.rows:,} {catalog.record.index} as of "
                f"{sample.as_of}"
            )
            return engine
        engine.close()
    with console.status("building the sample domain"):
        writer = open_engine(settings, read_only=False)
        try:
            build(writer, catalog, sample.rows, sample.seed, sample.as_of)
        finally:
            writer.close()
    console.print(
        f"built {sample.rows:,} {catalog.record.index} (seed {sample.seed}, as of {sample.as_of}) "
        f"in the {settings.engine} engine"
    )
    return open_engine(settings)


def _show_loaded(engine: Engine, catalog: Catalog, console: Console) -> None:
    from rich.table import Table

    table = Table(title="loaded indices")
    for column in ("index", "kind", "documents", "description"):
        table.add_column(column)
    for obj in catalog.spec.objects.values():
        table.add_row(obj.index, obj.kind, f"{engine.count(obj.index):,}", obj.description)
    console.print(table)
