"""`python -m bosun.bench load`: how fast `bosun data load` reads a large CSV, and how much memory
it takes.

Writes a CSV of about `--size` bytes (1 GB by default; orders: ids, codes, names, numbers with
missing-value words, dates and timestamps, so retyping and derived date parts are exercised) to a
temporary directory, then runs `bosun data load` on it in a child process with
`BOSUN_ENGINE_MEMORY_LIMIT=--memory-limit` and prints the load time, rows per second and the child's
peak resident memory (its own, from wait4's rusage), then the peak resident memory of `bosun catalog
init` drafting a catalog from the loaded index.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

_ROW_BYTES = 72  # about what one generated row takes in the CSV


def write_csv(path: Path, size: int) -> int:
    """A CSV of about `size` bytes; the number of rows written."""
    rows = max(size // _ROW_BYTES, 1)
    con = duckdb.connect()
    try:
        con.execute(f"""COPY (SELECT i AS order_id, ['AA', 'DL', 'UA', 'WN'][1 + i % 4] AS carrier,
            'Customer ' || (i * 7919 % 20000) AS customer,
            CASE WHEN i % 97 = 0 THEN 'NA' ELSE CAST(round((i * 31 % 100000) / 100.0, 2) AS VARCHAR) END AS amount,
            1 + i % 49 AS quantity, DATE '2024-01-01' + CAST(i % 730 AS INTEGER) AS placed,
            TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 37 % 63072000) AS shipped_at,
            i % 10 = 0 AS express
            FROM range({rows}) t(i)) TO '{path}' (HEADER, DELIMITER ',')""")
    finally:
        con.close()
    return rows


def _bosun() -> list[str]:
    script = Path(sys.executable).with_name("bosun")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bosun.interfaces.cli"]


def _child(arguments: list[str], env: dict[str, str]) -> tuple[str, float]:
    """(output, peak RSS in MB) of `bosun ARGUMENTS` in a child process of its own."""
    child = subprocess.Popen(
        [*_bosun(), *arguments],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"bosun {' '.join(arguments)} failed ({child.returncode}):\n{output}")
    return output, usage.ru_maxrss / 1024


def measure(path: Path, data_dir: Path, memory_limit: str) -> tuple[float, float, str, float]:
    """(seconds the load took by its own account, its peak RSS in MB, its output, `catalog init`'s
    peak RSS)."""
    env = {**os.environ, "BOSUN_DATA_DIR": str(data_dir), "BOSUN_ENGINE_MEMORY_LIMIT": memory_limit}
    output, peak = _child(["data", "load", str(path)], env)
    said = re.search(r"rows in ([\d.]+) s", output)
    _, drafting = _child(
        ["catalog", "init", "--index", "orders", "--out", str(data_dir / "catalog.yaml")], env
    )
    return float(said.group(1)) if said else float("nan"), peak, output, drafting


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bosun.bench load", description=__doc__)
    parser.add_argument("--size", type=float, default=1.0, help="CSV size in GB (default 1)")
    parser.add_argument(
        "--memory-limit", default="1GB", help="BOSUN_ENGINE_MEMORY_LIMIT for the load"
    )
    parser.add_argument(
        "--keep", type=Path, help="write the CSV and the data directory here and keep them"
    )
    args = parser.parse_args(argv)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bosun-bench-load-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "orders.csv"
    started = time.perf_counter()
    rows = write_csv(path, int(args.size * 1e9))
    print(
        f"wrote {path.stat().st_size / 1e9:.2f} GB, {rows:,} rows in "
        f"{time.perf_counter() - started:.1f} s"
    )
    try:
        seconds, peak, output, drafting = measure(path, folder / "data", args.memory_limit)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    print(output.strip())
    print(
        f"load: {seconds:.1f} s, {rows / seconds:,.0f} rows/s; peak RSS {peak:,.0f} MB "
        f"(BOSUN_ENGINE_MEMORY_LIMIT={args.memory_limit}); catalog init: peak RSS {drafting:,.0f} "
        "MB"
    )
    return 0
