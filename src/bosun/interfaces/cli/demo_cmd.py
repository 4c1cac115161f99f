"""`bosun demo`: build the sample domain and show what Bosun loaded."""

from __future__ import annotations

from datetime import date

from rich.console import Console
from rich.table import Table

from bosun.catalog import Catalog, load_catalog
from bosun.datagen.load import SampleInfo, build, read_sample_info
from bosun.engines.base import Engine
from bosun.engines.factory import open_engine
from bosun.settings import Settings, load_settings

DEMO = SampleInfo(domain="maritime", as_of=date(2026, 6, 15), seed=42, rows=50_000)


def demo() -> None:
    """Build the sample data (50,000 shipments, seed 42, as of 2026-06-15) and show what was loaded."""
    settings = load_settings()
    catalog = load_catalog(settings.catalog)
    console = Console()
    engine = _engine_with_sample(settings, catalog, console)
    try:
        _show_loaded(engine, catalog, console)
    finally:
        engine.close()
    console.print("\nAnswering questions in plain language (`bosun ask`) is the next step; "
                  "`bosun catalog show` prints what Bosun knows about this domain.")


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
    quarter = {"gte": "2026-01-01", "lte": "2026-03-31"}
    body = {"size": 0, "query": {"range": {catalog.spec.time.default_field: quarter}},
            "aggs": {"top": {"terms": {"field": "carrier_name", "size": 5},
                             "aggs": {"teu": {"sum": {"field": "teu"}}}}}}
    buckets = engine.search(catalog.record.index, body)["aggregations"]["top"]["buckets"]
    top = Table(title="a query in Elasticsearch DSL, answered by the engine: top carriers, Q1 2026")
    for column in ("carrier_name", "shipments", "teu"):
        top.add_column(column, justify="right" if column != "carrier_name" else "left")
    for bucket in buckets:
        top.add_row(bucket["key"], f"{bucket['doc_count']:,}", f"{bucket['teu']['value']:,.0f}")
    console.print(top)
