"""`python -m bosun.bench scale` at tiny sizes: the table a user pastes into the README, and what it
skips."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bosun.bench.scale import COLUMNS, Figures, faster_than_rows, main, skip_reason

QUESTIONS = ["How many shipments arrived in Houston last month?", "Top 5 carriers by TEU in 2025"]


def _run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[str, list[list[str]]]:
    """The bench's output and its markdown table's cells, line by line."""
    questions = tmp_path / "questions.jsonl"
    questions.write_text(
        "".join(json.dumps({"id": str(i), "turns": [q]}) + "\n" for i, q in enumerate(QUESTIONS))
    )
    argv = [
        "--sizes",
        "2000,20000",
        "--repeats",
        "1",
        "--file",
        str(questions),
        "--folder",
        str(tmp_path / "work"),
        *extra,
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "$ python -m bosun.bench scale --sizes 2000,20000 --repeats 1" in out
    assert "load average at start: " in out and "load average at end: " in out
    assert list((tmp_path / "work").iterdir()) == []  # every file removed
    cells = [
        [c.strip() for c in line.strip("|").split("|")]
        for line in out.splitlines()
        if line.startswith("|")
    ]
    return out, cells


def test_the_table_has_a_line_per_size_and_the_growth_per_10x(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, cells = _run(tmp_path, capsys)
    assert cells[0] == ["rows", *[name for name, _, _ in COLUMNS]]
    assert [line[0] for line in cells[2:]] == ["2,000", "20,000", "growth per 10x, 2,000 to 20,000"]
    assert all(len(line) == len(COLUMNS) + 1 for line in cells)
    assert all(re.fullmatch(r"x\d+\.\d\d", cell) for cell in cells[4][1:])


def test_a_size_past_the_budget_is_skipped_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, cells = _run(tmp_path, capsys, "--budget-minutes", "0.001")
    assert re.search(
        r"skipped 20,000 rows: expected [\d.]+ min .* would pass the 0 min budget", out
    )
    assert [line[0] for line in cells[2:]] == ["2,000"]


def test_a_size_whose_files_would_not_fit_on_the_disk_is_skipped() -> None:
    last = Figures(1_000_000, 5.0, 50.0, 1.0, 5.0, 500.0, 30.0, 60.0, 1500.0, seconds=30.0)
    reason = skip_reason(50_000_000, last, spent_s=30.0, budget_s=3600.0, free_bytes=5_000_000_000)
    assert (
        reason
        == "its files need about 7.5 GB (3x the 2.5 GB file expected) and the disk has 5.0 GB free"
    )
    assert (
        skip_reason(50_000_000, last, spent_s=30.0, budget_s=3600.0, free_bytes=10_000_000_000)
        is None
    )


def test_the_queries_that_grow_faster_than_the_rows_are_named() -> None:
    low = Figures(
        1_000_000,
        5.0,
        50.0,
        1.0,
        5.0,
        500.0,
        30.0,
        60.0,
        1500.0,
        30.0,
        {"flat": 2.0, "linear": 1.0, "steep": 10.0},
    )
    high = Figures(
        10_000_000,
        50.0,
        500.0,
        1.0,
        5.0,
        500.0,
        30.0,
        60.0,
        1500.0,
        30.0,
        {"flat": 2.5, "linear": 10.5, "steep": 300.0},
    )
    assert faster_than_rows(low, high) == ["steep: 10.0 ms at 1M, 300.0 ms at 10M, x30.0 per 10x"]
