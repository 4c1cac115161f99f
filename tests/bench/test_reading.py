"""`python -m bosun.bench reading` at tiny lengths: one line per length, and a stop past the
budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bosun.bench.reading import main

QUESTIONS = ["How many shipments arrived in Houston last month?", "Top 5 carriers by TEU in 2025"]


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> list[list[str]]:
    """The bench's table under its heading, each line's cells."""
    questions = tmp_path / "questions.jsonl"
    questions.write_text("".join(json.dumps({"turns": [q]}) + "\n" for q in QUESTIONS))
    assert main(["--file", str(questions), "--times", "1", *extra]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [
        "rules reading, words from questions.jsonl, median of 1:",
        " words   chars         ms  ms/word",
    ]
    return [line.split() for line in lines[2:]]


def test_each_length_is_read_once_and_printed_with_its_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = _run(tmp_path, capsys, "--words", "3", "30")
    # "many shipments arrived"; 30 words go round the two questions' 14 twice and more
    assert [(row[0], row[1]) for row in rows] == [("3", "22"), ("30", "159")]
    assert all(float(row[2]) > 0 and float(row[3]) > 0 for row in rows)


def test_a_length_over_the_budget_ends_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = _run(tmp_path, capsys, "--words", "20", "40", "--budget", "0")
    assert [row[0] for row in rows] == ["20", "(over"]
