"""`python -m bosun.bench load`: how fast `bosun data load` and `bosun catalog init` read a large or
a wide CSV, and how much memory each takes.

Writes a CSV to a temporary directory, then runs `bosun data load` on it and `bosun catalog init` on
the loaded index, each in a child process of its own with
`BOSUN_ENGINE_MEMORY_LIMIT=--memory-limit`, and prints for each its time, its CPU time (which other
work on the machine does not stretch) and its peak resident memory (the child's own, its VmHWM as it
exits):

- by default a long file of about `--size` GB (1 by default; orders: ids, codes, names, numbers with
  missing-value words, dates and timestamps, so retyping and derived date parts are exercised);
- with `--columns N`, a wide file of N columns × `--rows` rows (small whole numbers of 2 to 1,000
  values and a few words each), at the column limit with N = 1000;
- with `--columns N --mixed`, a wide file of mixed types: in every ten columns three of decimals,
  two of whole numbers, one of 0/1 flags, two of words (a fifth of the columns are text), one of
  dates and one of decimals with missing-value words (NA), which the load reads as text and retypes.

The load's figures are printed in a line of their own as soon as it ends (`--no-init` stops there),
then `catalog init`'s: these two lines hold the figures the documentation quotes.
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
from dataclasses import dataclass
from pathlib import Path

import duckdb

_ROW_BYTES = 72  # about what one generated row takes in the CSV
_WIDE_VALUES = [2, 10, 100, 1000]  # distinct values of a wide file's columns, in turn


@dataclass(frozen=True)
class Run:
    """One child's figures."""

    seconds: float
    peak_mb: float
    output: str
    cpu_seconds: float = 0.0  # user and system time, which a busy machine does not stretch


def write_csv(path: Path, size: int) -> int:
    """A CSV of about `size` bytes; the number of rows written."""
    rows = max(size // _ROW_BYTES, 1)
    con = duckdb.connect()
    try:
        con.execute(f"""COPY (SELECT i AS order_id, ['AA', 'DL', 'UA', 'WN'][1 + i % 4] AS carrier,
            'Customer ' || (i * 7919 % 20000) AS customer,
            CASE WHEN i % 97 = 0 THEN 'NA'
                ELSE CAST(round((i * 31 % 100000) / 100.0, 2) AS VARCHAR) END AS amount,
            1 + i % 49 AS quantity, DATE '2024-01-01' + CAST(i % 730 AS INTEGER) AS placed,
            TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 37 % 63072000) AS shipped_at,
            i % 10 = 0 AS express
            FROM range({rows}) t(i)) TO '{path}' (HEADER, DELIMITER ',')""")
    finally:
        con.close()
    return rows


def write_wide_csv(path: Path, columns: int, rows: int) -> int:
    """A CSV of `columns` columns × `rows` rows: whole numbers of a few to 1,000 values, and every
    tenth column words; the number of rows written."""
    cells = [_wide_cell(k) for k in range(columns)]
    con = duckdb.connect()
    try:
        con.execute(
            f"COPY (SELECT {', '.join(cells)} FROM range({rows}) t(i)) TO '{path}' "
            "(HEADER, DELIMITER ',')"
        )
    finally:
        con.close()
    return rows


def write_mixed_csv(path: Path, columns: int, rows: int) -> int:
    """A CSV of `columns` columns × `rows` rows of mixed types (the module's docstring says which);
    the number of rows written."""
    cells = [
        f"{_MIXED_CELLS[k % len(_MIXED_CELLS)].format(k=k)} AS m{k:04d}" for k in range(columns)
    ]
    con = duckdb.connect()
    try:
        con.execute(
            f"COPY (SELECT {', '.join(cells)} FROM range({rows}) t(i)) TO '{path}' "
            "(HEADER, DELIMITER ',')"
        )
    finally:
        con.close()
    return rows


# : one SQL expression per column kind, in turn; {k} is the column's number, i the row's
_MIXED_CELLS = [
    "round((hash(i, {k}) % 100000) / 100.0, 2)",
    "round((hash(i, {k}) % 1000) / 10.0, 1)",
    "(hash(i, {k}) % 100000)::INTEGER",
    "round((hash(i, {k}) % 5000000) / 1000.0, 3)",
    "(hash(i, {k}) % 50)::INTEGER",
    "(hash(i, {k}) % 2)::INTEGER",
    "'word ' || (hash(i, {k}) % 20)",
    "'Name ' || (hash(i, {k}) % 1500)",
    "DATE '2020-01-01' + (hash(i, {k}) % 1500)::INTEGER",
    "CASE WHEN hash(i, {k}) % 50 = 0 THEN 'NA' "
    "ELSE CAST((hash(i, {k}) % 10000) / 10.0 AS VARCHAR) END",
]


def _wide_cell(k: int) -> str:
    values = _WIDE_VALUES[k % len(_WIDE_VALUES)]
    if k % 10 == 9:
        return f"'word ' || (hash(i, {k}) % {values}) AS w{k:04d}"
    return f"(hash(i, {k}) % {values})::INTEGER AS c{k:04d}"


# `bosun ARGUMENTS`, writing its own peak resident memory (kB) to the file named first as it exits.
# wait4's ru_maxrss is no child's own: Linux carries a process's high-water mark over fork and exec,
# so a child of a large process (a test worker of 1 GB) reports the parent's size at least. VmHWM is
# the peak of the child's own address space, which exec starts afresh.
_MEASURED = """
import atexit, pathlib, sys
out = pathlib.Path(sys.argv.pop(1))
def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            out.write_text(line.split()[1])
atexit.register(peak)
sys.argv[0] = "bosun"
from bosun.interfaces.cli import main
main()
"""


def _own_peak_mb(written: Path, usage_kb: int) -> float:
    """The child's own peak, where /proc told it; else wait4's figure."""
    kilobytes = written.read_text() if written.exists() else ""
    return int(kilobytes or usage_kb) / 1024


def run_child(arguments: list[str], env: dict[str, str]) -> Run:
    """`bosun ARGUMENTS` in a child process of its own: its wall time, peak RSS and output."""
    started = time.perf_counter()
    peak_file = Path(tempfile.mkdtemp()) / "peak"
    child = subprocess.Popen(
        [sys.executable, "-c", _MEASURED, str(peak_file), *arguments],
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
    cpu = usage.ru_utime + usage.ru_stime
    peak_mb = _own_peak_mb(peak_file, usage.ru_maxrss)
    shutil.rmtree(peak_file.parent)
    return Run(time.perf_counter() - started, peak_mb, output, cpu)


def child_env(data_dir: Path, memory_limit: str) -> dict[str, str]:
    env = {**os.environ, "BOSUN_DATA_DIR": str(data_dir), "BOSUN_ENGINE_MEMORY_LIMIT": memory_limit}
    env.pop("BOSUN_CATALOG", None)
    return env


def load(path: Path, env: dict[str, str]) -> Run:
    """`data load` of the file in a process of its own; its time is the load's own account."""
    loaded = run_child(["data", "load", str(path)], env)
    said = re.search(r"rows in ([\d.]+) s", loaded.output)
    if said:  # the load's own account, without the process's start
        loaded = Run(float(said.group(1)), loaded.peak_mb, loaded.output, loaded.cpu_seconds)
    return loaded


def draft(path: Path, env: dict[str, str]) -> Run:
    """`catalog init` of the loaded file's index, in a process of its own."""
    catalog = Path(env["BOSUN_DATA_DIR"]) / "catalog.yaml"
    return run_child(["catalog", "init", "--index", path.stem, "--out", str(catalog)], env)


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bosun.bench load", description=__doc__)
    parser.add_argument("--size", type=float, default=1.0, help="CSV size in GB (default 1)")
    parser.add_argument(
        "--columns", type=int, help="write a wide CSV of this many columns instead (--rows rows)"
    )
    parser.add_argument("--rows", type=int, default=2000, help="rows of the wide CSV (2000)")
    parser.add_argument(
        "--mixed", action="store_true", help="the wide CSV of mixed types (with --columns)"
    )
    parser.add_argument("--no-init", action="store_true", help="time `data load` alone")
    parser.add_argument(
        "--memory-limit", default="1GB", help="BOSUN_ENGINE_MEMORY_LIMIT for the load"
    )
    parser.add_argument(
        "--keep", type=Path, help="write the CSV and the data directory here and keep them"
    )
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = _arguments(argv)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bosun-bench-load-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / ("wide.csv" if args.columns else "orders.csv")
    started = time.perf_counter()
    if args.columns:
        write = write_mixed_csv if args.mixed else write_wide_csv
        rows = write(path, args.columns, args.rows)
        mixed = ", mixed types" if args.mixed else ""
        shape = f"{args.columns:,} columns × {rows:,} rows{mixed}"
    else:
        rows = write_csv(path, int(args.size * 1e9))
        shape = f"{rows:,} rows"
    megabytes = path.stat().st_size / 1e6
    print(f"wrote {megabytes:,.0f} MB, {shape} in {time.perf_counter() - started:.1f} s")
    what = f"a {megabytes:,.0f} MB CSV ({shape}), BOSUN_ENGINE_MEMORY_LIMIT={args.memory_limit}"
    env = child_env(folder / "data", args.memory_limit)
    try:
        loaded = load(path, env)
        print(loaded.output.strip())
        print(
            f"{what}: data load {loaded.seconds:.1f} s ({rows / loaded.seconds:,.0f} rows/s, "
            f"{loaded.cpu_seconds:.1f} s CPU), peak RSS {loaded.peak_mb:,.0f} MB",
            flush=True,
        )
        if not args.no_init:
            drafted = draft(path, env)
            print(
                f"{what}: catalog init {drafted.seconds:.1f} s ({drafted.cpu_seconds:.1f} s CPU), "
                f"peak RSS {drafted.peak_mb:,.0f} MB"
            )
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0
