"""`python -m bosun.bench engines`: load speed and query latency of the engines, with figures.

Times `bosun data load` of a Parquet file (1M rows by default); loads the maritime sample into the
embedded engine (a DuckDB file) at each size, runs the conformance corpus there, then loads the same
rows into osmem-server (an in-memory OpenSearch-compatible server) and runs the corpus through the
opensearch engine, so the ratio is measured in one run. The headline ratio is the whole corpus's
time (the sum of each query's median) on osmem-server over the embedded engine's; the per-query p50
ratio is printed too. The corpus's pipeline aggregations are timed apart, with and without their
pipelines (what they add).

With --vs-sql, each corpus query is timed against its `sql`, the DuckDB SQL a person would write for
the same question (checked to give the same rows by tests/conformance/test_sql_twin.py): the DSL's
cost over DuckDB's own.
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from bosun.bench.sqlrows import responses
from bosun.catalog import load_catalog
from bosun.datagen.files import with_date_parts
from bosun.datagen.load import build, load_files
from bosun.engines.base import Engine
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.embedded.pipelines import PIPELINES, run_pipelines

AS_OF = date(2026, 6, 15)
CORPUS = Path(__file__).parents[3] / "tests" / "conformance" / "corpus.yaml"
STOPS_MAPPING = {"properties": {"stopped_at": {"type": "date"}, "precinct": {"type": "keyword"}}}


def load_stops(engine: Engine) -> None:
    """Index `stops` of the corpus's timestamp queries: timestamps every 7 h 13 min through 2026,
    plus the edges of each month's last day (00:00:00.000, 23:59:59.999) where a date-only bound is
    cut or kept."""
    start = datetime(2026, 1, 1, 0, 0)
    moments = [start + timedelta(minutes=433 * i) for i in range(1300)]
    for month in range(1, 13):
        last = datetime(2026 + month // 12, month % 12 + 1, 1) - timedelta(days=1)
        moments += [last, last + timedelta(hours=23, minutes=59, seconds=59, milliseconds=999)]
    table = pa.table(
        {
            "stopped_at": pa.array(moments, pa.timestamp("ms")),
            "precinct": [str(1 + i % 5) for i in range(len(moments))],
        }
    )
    # stopped_at_weekday, _month, _hour, as `data load` writes them
    table, _ = with_date_parts(table)
    parts = {
        name: {"type": "integer"}
        for name in table.column_names
        if name not in STOPS_MAPPING["properties"]
    }
    engine.bulk_load("stops", table, {"properties": {**STOPS_MAPPING["properties"], **parts}})


def _corpus(path: Path) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = yaml.safe_load(path.read_text())
    return entries


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Timings:
    """Per-query medians (ms) of one engine over the corpus, by query id."""

    def __init__(self, label: str, medians: dict[str, float], aggs: list[str]) -> None:
        self.label, self.medians, self.aggs = label, medians, aggs

    @property
    def total(self) -> float:
        """The whole corpus once: the sum of every query's median."""
        return sum(self.medians.values())

    @property
    def p50(self) -> float:
        return _percentile(list(self.medians.values()), 0.5)

    def report(self) -> None:
        values = list(self.medians.values())
        p95 = _percentile(values, 0.95)
        agg50 = _percentile([self.medians[i] for i in self.aggs], 0.5)
        print(
            f"  {self.label:<28} corpus total {self.total:9.1f} ms  p50 {self.p50:8.2f} ms  p95 "
            f"{p95:8.2f} ms  "
            f"aggregations p50 {agg50:8.2f} ms"
        )


def _has_pipeline(node: Any) -> bool:
    if isinstance(node, dict):
        return bool(PIPELINES & set(node)) or any(_has_pipeline(v) for v in node.values())
    return isinstance(node, list) and any(_has_pipeline(v) for v in node)


def _without_pipelines(aggs: dict[str, Any]) -> dict[str, Any]:
    """The same aggregations with every pipeline taken out: the buckets alone."""
    kept = {}
    for name, spec in aggs.items():
        if PIPELINES & set(spec):
            continue
        children = spec.get("aggs", spec.get("aggregations"))
        own = {k: v for k, v in spec.items() if k not in ("aggs", "aggregations")}
        kept[name] = {**own, "aggs": _without_pipelines(children)} if children else own
    return kept


def _median_ms(engine: Engine, index: str, body: dict[str, Any], repeats: int) -> float:
    return _timed_ms(lambda: engine.search(index, body), repeats)


def _latencies(label: str, engine: Engine, corpus: list[dict[str, Any]], repeats: int) -> Timings:
    medians = {
        e["id"]: _median_ms(engine, e.get("index", "shipments"), e["body"], repeats) for e in corpus
    }
    timings = Timings(label, medians, [e["id"] for e in corpus if "aggs" in e["body"]])
    timings.report()
    _pipelines(engine, corpus, medians, repeats)
    return timings


def _pipelines(
    engine: Engine, corpus: list[dict[str, Any]], medians: dict[str, float], repeats: int
) -> None:
    """The pipeline queries' p50 and total, the same queries' total with their pipelines taken out,
    and (embedded) the time of the pipeline walk alone: what the pipelines add, apart from the noise
    of whole queries."""
    entries = [e for e in corpus if _has_pipeline(e["body"].get("aggs"))]
    if not entries:
        return
    bare, walk = 0.0, 0.0
    for entry in entries:
        index, body = entry.get("index", "shipments"), entry["body"]
        bare_body = {**body, "aggs": _without_pipelines(body["aggs"])}
        bare += _median_ms(engine, index, bare_body, repeats)
        if isinstance(engine, EmbeddedEngine):
            walk += _walk_ms(body["aggs"], engine.search(index, bare_body)["aggregations"], repeats)
    timed = [medians[e["id"]] for e in entries]
    walked = (
        f"; the pipeline walk alone {walk:7.2f} ms" if isinstance(engine, EmbeddedEngine) else ""
    )
    print(
        f"  {'':<28} pipelines: {len(entries)} queries, p50 {_percentile(timed, 0.5):8.2f} ms, "
        "total "
        f"{sum(timed):9.1f} ms; without their pipelines {bare:9.1f} ms{walked}"
    )


def _walk_ms(aggs: dict[str, Any], buckets: dict[str, Any], repeats: int) -> float:
    """The median time of run_pipelines over a response computed without them (as the engine runs
    it)."""
    runs = []
    for _ in range(repeats):
        results = copy.deepcopy(buckets)
        started = time.perf_counter()
        run_pipelines(aggs, results)
        runs.append((time.perf_counter() - started) * 1000)
    return statistics.median(runs)


def _embedded(rows: int, folder: Path, corpus: list[dict[str, Any]], repeats: int) -> Timings:
    engine = EmbeddedEngine(folder / f"bench-{rows}.duckdb")
    started = time.perf_counter()
    build(engine, load_catalog(), rows, 42, AS_OF)
    seconds = time.perf_counter() - started
    load_stops(engine)
    print(
        f"  embedded: generate + load {rows:>9,} rows in {seconds:6.2f} s = "
        f"{rows / seconds:>10,.0f} rows/s"
    )
    timings = _latencies(f"embedded @ {rows:,}", engine, corpus, repeats)
    engine.close()
    return timings


def _osmem(rows: int, corpus: list[dict[str, Any]], repeats: int) -> Timings:
    from osmem_server import OsmemServer

    from bosun.engines.remote import RemoteEngine

    with OsmemServer.start(japanese=False) as server:
        engine = RemoteEngine("opensearch", server.url, timeout_s=600)
        started = time.perf_counter()
        build(engine, load_catalog(), rows, 42, AS_OF)
        seconds = time.perf_counter() - started
        load_stops(engine)
        print(
            f"  osmem-server: load {rows:>9,} rows in {seconds:6.1f} s = {rows / seconds:>8,.0f} "
            "rows/s"
        )
        return _latencies(f"osmem-server @ {rows:,}", engine, corpus, repeats)


def _compare(remote: Timings, local: Timings, per_query: bool) -> None:
    """The issue's figure: the whole corpus's time on osmem-server over the embedded engine's (p50
    ratio too)."""
    if per_query:
        print(f"  {'query':<44} {'embedded ms':>12} {'osmem ms':>10} {'ratio':>7}")
        for name, ms in sorted(local.medians.items(), key=lambda item: -item[1]):
            other = remote.medians[name]
            print(f"  {name:<44} {ms:12.2f} {other:10.2f} {other / ms:6.1f}x")
    print(
        f"  whole corpus ({len(local.medians)} queries, sum of medians): osmem-server "
        f"{remote.total:,.1f} ms / "
        f"embedded {local.total:,.1f} ms = {remote.total / local.total:.1f}x"
    )
    print(
        f"  per-query p50: osmem-server {remote.p50:.2f} ms / embedded {local.p50:.2f} ms = "
        f"{remote.p50 / local.p50:.1f}x"
    )


def _parquet_file(rows: int, path: Path) -> Path:
    """A Parquet export of `rows` records: codes, names, numbers, dates (as a user's file would
    hold)."""
    pick = np.random.default_rng(42)
    days = pick.integers(0, 730, rows).astype("timedelta64[D]") + np.datetime64("2024-01-01")
    table = pa.table(
        {
            "order_id": pa.array(np.arange(rows)),
            "carrier": pa.array(pick.choice(["AA", "DL", "UA", "WN"], rows)),
            "customer": pa.array(pick.choice([f"Customer {i}" for i in range(2000)], rows)),
            "placed": pa.array(days, pa.date32()),
            "quantity": pa.array(pick.integers(1, 50, rows)),
            "amount": pa.array(pick.random(rows) * 1000),
            "express": pa.array(pick.random(rows) < 0.1),
        }
    )
    pq.write_table(table, path)
    return path


def _parquet_load(rows: int, folder: Path) -> None:
    path = _parquet_file(rows, folder / "orders.parquet")
    engine = EmbeddedEngine(folder / "parquet.duckdb")
    started = time.perf_counter()
    load_files(engine, [path])
    seconds = time.perf_counter() - started
    engine.close()
    print(
        f"  embedded: `bosun data load` of {rows:,} Parquet rows in {seconds:6.2f} s = "
        f"{rows / seconds:>10,.0f} rows/s"
    )


def _timed_ms(run: Callable[[], Any], repeats: int) -> float:
    """The median of `repeats` runs, in milliseconds, after one to warm."""
    run()
    runs = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        runs.append((time.perf_counter() - started) * 1000)
    return statistics.median(runs)


def _vs_sql(rows: int, folder: Path, corpus: list[dict[str, Any]], repeats: int) -> None:
    """Each query's median through the DSL over the median of its hand-written SQL, on one engine.

    A twin of several statements (rows of different widths) is timed whole and by its slowest
    statement alone: one statement is what a person would write, and the slowest is a floor for it,
    so the second ratio is the stricter one."""
    engine = EmbeddedEngine(folder / f"vs-sql-{rows}.duckdb")
    build(engine, load_catalog(), rows, 42, AS_OF)
    load_stops(engine)
    paired = [e for e in corpus if "sql" in e]
    times = {
        e["id"]: (
            _timed_ms(partial(responses, engine, e), repeats),
            *_sql_ms(engine, e["sql"], repeats),
        )
        for e in paired
    }
    engine.close()
    print(f"  {'query':<52} {'DSL ms':>9} {'SQL ms':>9} {'ratio':>7} {'slowest':>9} {'ratio':>7}")
    for name, (dsl, whole, slowest) in sorted(
        times.items(), key=lambda item: -item[1][0] / item[1][2]
    ):
        print(
            f"  {name:<52} {dsl:9.2f} {whole:9.2f} {dsl / whole:6.2f}x {slowest:9.2f} "
            f"{dsl / slowest:6.2f}x"
        )
    for label, at in (("whole twin", 1), ("slowest statement", 2)):
        ratios = [t[0] / t[at] for t in times.values()]
        dsl50 = _percentile([t[0] for t in times.values()], 0.5)
        sql50 = _percentile([t[at] for t in times.values()], 0.5)
        print(
            f"  {len(paired)} of {len(corpus)} queries at {rows:,} rows against the {label}: ratio "
            "p50 "
            f"{_percentile(ratios, 0.5):.2f}x, p95 {_percentile(ratios, 0.95):.2f}x; time p50 DSL "
            f"{dsl50:.2f} ms / "
            f"SQL {sql50:.2f} ms = {dsl50 / sql50:.2f}x"
        )


def _sql_ms(engine: EmbeddedEngine, sql: str | list[str], repeats: int) -> tuple[float, float]:
    """The median of the whole twin and of its slowest statement."""
    each = [_timed_ms(partial(engine.sql, s), repeats) for s in _statements(sql)]
    return sum(each), max(each)


def _statements(sql: str | list[str]) -> list[str]:
    return [sql] if isinstance(sql, str) else sql


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bosun.bench engines", description=__doc__)
    parser.add_argument(
        "--rows", type=int, nargs="+", default=[200_000, 1_000_000], help="embedded sizes"
    )
    parser.add_argument(
        "--osmem-rows", type=int, default=200_000, help="osmem-server size (0 to skip)"
    )
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per query (median kept)")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument(
        "--parquet-rows", type=int, default=1_000_000, help="data load rate from Parquet (0 skips)"
    )
    parser.add_argument(
        "--per-query", action="store_true", help="print each query's time on both engines"
    )
    parser.add_argument(
        "--vs-sql",
        action="store_true",
        help="time each query against its hand-written SQL "
        "(at --rows, 1M by default), and nothing else",
    )
    args = parser.parse_args(argv)
    corpus = _corpus(args.corpus)
    if args.vs_sql:
        print(
            f"DSL vs hand-written SQL, median of {args.repeats} runs each; load "
            f"{os.getloadavg()[0]:.2f}"
        )
        with tempfile.TemporaryDirectory() as folder:
            for rows in args.rows if "--rows" in argv else [1_000_000]:
                _vs_sql(rows, Path(folder), corpus, args.repeats)
        return 0
    print(f"corpus: {len(corpus)} queries, median of {args.repeats} runs each")
    embedded: dict[int, Timings] = {}
    with tempfile.TemporaryDirectory() as folder:
        if args.parquet_rows:
            _parquet_load(args.parquet_rows, Path(folder))
        for rows in args.rows:
            embedded[rows] = _embedded(rows, Path(folder), corpus, args.repeats)
        if args.osmem_rows:
            if args.osmem_rows not in embedded:
                embedded[args.osmem_rows] = _embedded(
                    args.osmem_rows, Path(folder), corpus, args.repeats
                )
            remote = _osmem(args.osmem_rows, corpus, args.repeats)
            print(f"  ratio at {args.osmem_rows:,} rows (osmem-server time / embedded time):")
            _compare(remote, embedded[args.osmem_rows], args.per_query)
    return 0
