"""`python -m bosun.bench startup`: how long the command line takes to start and answer, with
figures.

Times, in fresh processes and in one run: `bosun --help`, `bosun ask QUESTION` (the whole process:
start, open the session, answer, print) and the import floor `python -c "import langgraph.graph,
duckdb"` that any LangGraph agent on DuckDB pays, then prints the ask/floor ratio. Each command runs
once to warm the file cache and write bytecode (as a user's second run finds it), then `--runs`
times interleaved; the medians are printed. Targets: help < 0.3 s, ask <= 1.3 x the floor.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

QUESTION = "How many shipments arrived in Houston last month?"
FLOOR = "import langgraph.graph, duckdb"


def _bosun() -> list[str]:
    """The `bosun` script beside this Python, as a user runs it; else the module."""
    script = Path(sys.executable).with_name("bosun")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bosun.interfaces.cli"]


def _env(data_dir: Path) -> dict[str, str]:
    env = {**os.environ, "BOSUN_DATA_DIR": str(data_dir)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's machine caches bytecode; so does the bench
    return env


def _seconds(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def _sample(folder: Path, rows: int) -> Path:
    """A data directory with the sample at `rows` rows, as `bosun data generate` builds it."""
    from bosun.catalog import load_catalog
    from bosun.datagen.load import build
    from bosun.engines.embedded import EmbeddedEngine

    engine = EmbeddedEngine(folder / "bosun.duckdb")
    try:
        build(engine, load_catalog(), rows, 42, date(2026, 6, 15))
    finally:
        engine.close()
    return folder


def measure(data_dir: Path, question: str, runs: int) -> dict[str, float]:
    """Median seconds of each command over `runs` interleaved runs, after one warm-up run each."""
    env = _env(data_dir)
    commands = {
        "help": [*_bosun(), "--help"],
        "ask": [*_bosun(), "ask", question],
        "floor": [sys.executable, "-c", FLOOR],
    }
    for command in commands.values():
        _seconds(command, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(_seconds(command, env))
    return {name: statistics.median(values) for name, values in times.items()}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bosun.bench startup", description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--rows", type=int, default=50_000, help="sample size when no --data-dir is given"
    )
    parser.add_argument("--data-dir", type=Path, help="a data directory holding the sample already")
    parser.add_argument("--question", default=QUESTION)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="bosun-startup-"))
    try:
        data_dir = args.data_dir or _sample(folder, args.rows)
        found = measure(data_dir, args.question, args.runs)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ratio = found["ask"] / found["floor"]
    print(f"start-up, median of {args.runs} runs each (fresh processes):")
    print(f"  bosun --help        {found['help']:6.3f} s   (target < 0.3 s)")
    print(
        f"  bosun ask           {found['ask']:6.3f} s   ({args.question!r}: start, answer, print)"
    )
    print(f"  import floor        {found['floor']:6.3f} s   (python -c {FLOOR!r})")
    print(f"  ask / floor         {ratio:6.2f}     (target <= 1.3)")
    return 0
