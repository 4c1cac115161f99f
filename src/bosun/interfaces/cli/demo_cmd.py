"""`bosun demo`: build the sample domain and show what Bosun loaded."""

from __future__ import annotations

from datetime import date

from rich.console import Console
from rich.table import Table

from bosun.catalog import Catalog, load_catalog
from bosun.conversation.session import open_session
from bosun.datagen.load import SampleInfo, build, read_sample_info
from bosun.engines.base import Engine
from bosun.engines.factory import open_engine
from bosun.interfaces.cli.ask_cmd import show
from bosun.settings import Settings, load_settings

DEMO = SampleInfo(domain="maritime", as_of=date(2026, 6, 15), seed=42, rows=50_000)


SCENARIOS = [
    "what's a shipment and find me shipments that arrived yesterday",
    "Show me Maersk shipments to Los Angeles",
    "Compare Maersk vs Evergreen shipping volumes to LA last quarter",
    "Show shipments from Acme Corp to Houston",
    "Top 5 shippers to LA and their average transit times",
    "Monthly TEU trend for COSCO into Long Beach in 2025",
    "Which carrier moved the most TEU into Savannah this year?",
]


def demo() -> None:
    """Build the sample data (50,000 shipments, seed 42, as of 2026-06-15) and answer the seed's scenarios."""
    settings = load_settings()
    catalog = load_catalog(settings.catalog)
    console = Console()
    engine = _engine_with_sample(settings, catalog, console)
    try:
        _show_loaded(engine, catalog, console)
    finally:
        engine.close()
    session = open_session(settings, DEMO.as_of)
    try:
        for question in SCENARIOS:
            console.rule(f"[bold]{question}")
            show(console, session.ask(question, "demo"))
    finally:
        session.close()


def _engine_with_sample(settings: Settings, catalog: Catalog, console: Console) -> Engine:
    if settings.engine != "embedded" or settings.duckdb_path.exists():
        engine = open_engine(settings)
        if read_sample_info(engine) == DEMO:
            console.print(f"sample already loaded: {DEMO.rows:,} shipments as of {DEMO.as_of}")
            return engine
        engine.close()
    with console.status("building the sample domain"):
        writer = open_engine(settings, read_only=False)
        try:
            build(writer, catalog, DEMO.rows, DEMO.seed, DEMO.as_of)
        finally:
            writer.close()
    console.print(f"built {DEMO.rows:,} shipments (seed {DEMO.seed}, as of {DEMO.as_of}) "
                  f"in the {settings.engine} engine")
    return open_engine(settings)


def _show_loaded(engine: Engine, catalog: Catalog, console: Console) -> None:
    table = Table(title="loaded indices")
    for column in ("index", "kind", "documents", "description"):
        table.add_column(column)
    for obj in catalog.spec.objects.values():
        table.add_row(obj.index, obj.kind, f"{engine.count(obj.index):,}", obj.description)
    console.print(table)
