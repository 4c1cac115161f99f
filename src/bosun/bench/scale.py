"""`python -m bosun.bench scale`: what the embedded engine costs as the data grows (1M, 10M, 50M
rows by default).

For each size, the maritime sample (seed 42, as of 2026-06-15) is generated and loaded into a DuckDB
file (rows per second), the file's size is taken after a checkpoint, the conformance corpus is timed
(median of `--repeats` runs per query: p50, p95 and their sum), and the evaluation file's questions
run through the whole graph (a warm pass: p50 and p95). The process's peak resident memory so far is
read after each size. Then one markdown table, with the growth factor per 10x rows between each pair
of sizes, the command line and the load average at start and end.

Time-bounded: each size's time is estimated from the last size's (about linear in rows), and a size
that would end past `--budget-minutes` is skipped and named, as is one whose file would not fit on
the disk with a margin. Every file goes under a temporary directory (in `--folder` if given), each
size's removed when it is measured.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shlex
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import duckdb
import yaml

from bosun.bench.engines import AS_OF, CORPUS, load_stops
from bosun.bench.questions import DEV, measure
from bosun.catalog import load_catalog
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine

# growth per 10x rows above which a query is said to grow faster than the rows (10, plus noise)
_LINEAR = 12.0
# the file, the staging copy it is loaded from, and as much again for DuckDB's spill and a margin
_DISK_COPIES = 3


@dataclass(frozen=True)
class Figures:
    """What one size costs."""

    rows: int
    load_s: float
    file_mb: float
    corpus_p50: float
    corpus_p95: float
    corpus_sum: float
    question_p50: float
    question_p95: float
    peak_rss_mb: float
    seconds: float  # the whole size's measurement, for the next size's estimate
    corpus: dict[str, float] = field(default_factory=dict)  # each corpus query's median ms, by id

    @property
    def rows_per_s(self) -> float:
        return self.rows / self.load_s


Column = tuple[str, Callable[[Figures], float], str]
COLUMNS: list[Column] = [
    ("load s", lambda f: f.load_s, ".1f"),
    ("rows/s", lambda f: f.rows_per_s, ",.0f"),
    ("file MB", lambda f: f.file_mb, ",.0f"),
    ("corpus p50 ms", lambda f: f.corpus_p50, ".2f"),
    ("corpus p95 ms", lambda f: f.corpus_p95, ".1f"),
    ("corpus sum ms", lambda f: f.corpus_sum, ",.0f"),
    ("question p50 ms", lambda f: f.question_p50, ".1f"),
    ("question p95 ms", lambda f: f.question_p95, ".1f"),
    ("peak RSS MB", lambda f: f.peak_rss_mb, ",.0f"),
]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _rows(text: str) -> int:
    """A size as written on the command line: 20000, 1M, 50m, 200k."""
    scale = {"k": 1_000, "m": 1_000_000}.get(text[-1:].lower(), 1)
    return int(float(text.rstrip("kKmM")) * scale)


def _shown(rows: int) -> str:
    if rows >= 1_000_000 and rows % 1_000_000 == 0:
        return f"{rows // 1_000_000}M"
    return f"{rows:,}"


def _corpus_ms(
    engine: EmbeddedEngine, corpus: list[dict[str, Any]], repeats: int
) -> dict[str, float]:
    """Each corpus query's median time (ms) over `repeats` runs after one untimed run, by id."""
    medians = {}
    for entry in corpus:
        index, body = entry.get("index", "shipments"), entry["body"]
        engine.search(index, body)
        runs = []
        for _ in range(repeats):
            started = time.perf_counter()
            engine.search(index, body)
            runs.append((time.perf_counter() - started) * 1000)
        medians[entry["id"]] = statistics.median(runs)
    return medians


def _loaded(rows: int, data_dir: Path, scratch: Path) -> tuple[float, float]:
    """(seconds to generate and load the sample, the DuckDB file's MB after a checkpoint)."""
    path = data_dir / "bosun.duckdb"
    engine = EmbeddedEngine(path)
    started = time.perf_counter()
    build(engine, load_catalog(), rows, 42, AS_OF, scratch=scratch)
    seconds = time.perf_counter() - started
    load_stops(engine)  # the corpus's timestamp queries read it
    engine.close()
    with duckdb.connect(str(path)) as con:
        con.execute("CHECKPOINT")
    return seconds, sum(p.stat().st_size for p in data_dir.iterdir()) / 1e6


def measure_size(
    rows: int, scratch: Path, corpus: list[dict[str, Any]], questions: list[list[str]], repeats: int
) -> Figures:
    started = time.perf_counter()
    data_dir = scratch / f"rows-{rows}"
    data_dir.mkdir()
    try:
        load_s, file_mb = _loaded(rows, data_dir, scratch)
        engine = EmbeddedEngine(data_dir / "bosun.duckdb", read_only=True)
        medians = _corpus_ms(engine, corpus, repeats)
        engine.close()
        asked = measure(data_dir, questions).totals
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    corpus_ms = list(medians.values())
    return Figures(
        rows,
        load_s,
        file_mb,
        _percentile(corpus_ms, 0.5),
        _percentile(corpus_ms, 0.95),
        sum(corpus_ms),
        _percentile(asked, 0.5),
        _percentile(asked, 0.95),
        peak,
        time.perf_counter() - started,
        medians,
    )


def skip_reason(
    rows: int, last: Figures | None, spent_s: float, budget_s: float, free_bytes: int
) -> str | None:
    """Why `rows` is not measured (it would overrun the time budget or the disk), or None to measure
    it."""
    if last is None:
        return None
    grows = rows / last.rows
    expected_s = last.seconds * grows
    if spent_s + expected_s > budget_s:
        return (
            f"expected {expected_s / 60:.1f} min (from {_shown(last.rows)} rows' "
            f"{last.seconds / 60:.1f} min) "
            f"after {spent_s / 60:.1f} min would pass the {budget_s / 60:.0f} min budget"
        )
    needed = last.file_mb * 1e6 * grows * _DISK_COPIES
    if needed > free_bytes:
        return (
            f"its files need about {needed / 1e9:.1f} GB ({_DISK_COPIES}x the "
            f"{last.file_mb * grows / 1e3:.1f} GB "
            f"file expected) and the disk has {free_bytes / 1e9:.1f} GB free"
        )
    return None


def growth(low: Figures, high: Figures) -> list[float]:
    """Each column's factor per 10x rows from `low` to `high` (the ratio scaled to a tenfold
    step)."""
    power = 1 / math.log10(high.rows / low.rows)
    return [(value(high) / value(low)) ** power for _, value, _ in COLUMNS]


def table(measured: list[Figures]) -> str:
    """The figures as a markdown table: a line per size, then the growth per 10x between consecutive
    sizes."""
    lines = [
        "| rows | " + " | ".join(name for name, _, _ in COLUMNS) + " |",
        "|---:|" + "---:|" * len(COLUMNS),
    ]
    for figures in measured:
        cells = [format(value(figures), shape) for _, value, shape in COLUMNS]
        lines.append(f"| {_shown(figures.rows)} | " + " | ".join(cells) + " |")
    for low, high in pairwise(measured):
        cells = [f"x{factor:.2f}" for factor in growth(low, high)]
        lines.append(
            f"| growth per 10x, {_shown(low.rows)} to {_shown(high.rows)} | "
            + " | ".join(cells)
            + " |"
        )
    return "\n".join(lines)


def faster_than_rows(low: Figures, high: Figures, limit: int = 5) -> list[str]:
    """The corpus queries whose time grows most past the rows' growth from `low` to `high`, worst
    first: a line each with both medians and the growth per 10x (more than x12, so the noise of
    small times is left out)."""
    power = 1 / math.log10(high.rows / low.rows)
    grown = {
        name: (high.corpus[name] / ms) ** power
        for name, ms in low.corpus.items()
        if name in high.corpus
    }
    worst = sorted(
        (name for name, factor in grown.items() if factor > _LINEAR), key=lambda name: -grown[name]
    )
    return [
        f"{name}: {low.corpus[name]:,.1f} ms at {_shown(low.rows)}, {high.corpus[name]:,.1f} ms at "
        f"{_shown(high.rows)}, x{grown[name]:.1f} per 10x"
        for name in worst[:limit]
    ]


def _report(measured: list[Figures]) -> None:
    print(table(measured))
    for low, high in pairwise(measured):
        lines = faster_than_rows(low, high)
        if lines:
            print(
                f"\ncorpus queries growing faster than the rows, {_shown(low.rows)} to "
                f"{_shown(high.rows)}:"
            )
            print("\n".join(f"  {line}" for line in lines))


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bosun.bench scale",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--sizes", default="1M,10M,50M", help="rows per size, comma-separated (2000, 200k, 1M)"
    )
    parser.add_argument(
        "--budget-minutes", type=float, default=20, help="skip a size that would end past this"
    )
    parser.add_argument(
        "--repeats", type=int, default=3, help="timed runs per corpus query (median kept)"
    )
    parser.add_argument(
        "--folder", type=Path, help="where the temporary files go (default: the temp directory)"
    )
    parser.add_argument(
        "--file", type=Path, default=DEV, help="the evaluation file whose questions are timed"
    )
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = _arguments(argv)
    corpus: list[dict[str, Any]] = yaml.safe_load(args.corpus.read_text())
    questions = [
        json.loads(line)["turns"] for line in args.file.read_text().splitlines() if line.strip()
    ]
    print(f"$ python -m bosun.bench scale {shlex.join(argv)}".rstrip())
    print(
        f"load average at start: {_load()} ({os.cpu_count()} cores); corpus {len(corpus)} queries "
        "x "
        f"{args.repeats} runs; {len(questions)} questions from {args.file.name}"
    )
    measured = _run(args, corpus, questions)
    print(f"load average at end: {_load()}\n")
    _report(measured)
    return 0


def _run(
    args: argparse.Namespace, corpus: list[dict[str, Any]], questions: list[list[str]]
) -> list[Figures]:
    started, budget_s = time.perf_counter(), args.budget_minutes * 60
    measured: list[Figures] = []
    if args.folder:
        args.folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bosun-bench-scale-", dir=args.folder) as folder:
        for rows in [_rows(size) for size in args.sizes.split(",")]:
            last = measured[-1] if measured else None
            spent = time.perf_counter() - started
            reason = skip_reason(rows, last, spent, budget_s, shutil.disk_usage(folder).free)
            if reason:
                print(f"  skipped {_shown(rows)} rows: {reason}")
                continue
            figures = measure_size(rows, Path(folder), corpus, questions, args.repeats)
            measured.append(figures)
            print(
                f"  {_shown(rows)} rows measured in {figures.seconds:.0f} s (load average "
                f"{_load()})",
                flush=True,
            )
    return measured
