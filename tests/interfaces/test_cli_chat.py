"""`bosun chat` as a person uses it: /help, a readable /trace, turns spaced, headings that do not
grow (issue #38)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from bosun.interfaces.cli.app import app
from bosun.interfaces.cli.chat_cmd import COMMANDS
from tests.interfaces.serving import data_copy

TOP = "Top 5 shippers to LA by TEU in 2025"


def chat(folder: Path, *lines: str) -> str:
    env = {"BOSUN_DATA_DIR": str(folder), "COLUMNS": "100"}
    result = CliRunner().invoke(
        app, ["chat"], input="\n".join(lines) + "\n", env=env, terminal_width=100
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_help_lists_every_command_with_what_it_does(data_dir: Path, tmp_path: Path) -> None:
    output = chat(data_copy(data_dir, tmp_path / "d"), "/help", "/quit")
    assert "unknown command" not in output
    listed = [" ".join(line.split()) for line in output.splitlines()]
    for usage, what in COMMANDS:
        assert any(f"{usage} {what.split()[0]}" in line for line in listed), usage


def test_trace_shows_the_plan_as_a_table_of_steps(data_dir: Path, tmp_path: Path) -> None:
    output = chat(data_copy(data_dir, tmp_path / "d"), "/trace", TOP, "/trace", "/quit")
    assert "no answer yet on this conversation" in output
    assert "flowchart" not in output and "subgraph" not in output
    assert "plan: 5 steps in 4 rounds" in output
    steps = re.findall(r"│\s+(\d)\s+│ (sg\d)\s+│ (\w+)\s+│ ([^│]*?)\s*│ (\w+)", output)
    assert [step[:3] for step in steps] == [
        ("1", "sg1", "metadata_lookup"),
        ("2", "sg2", "es_query_gen"),
        ("3", "sg3", "es_query_exec"),
        ("4", "sg4", "show_results"),
        ("4", "sg5", "analyze_results"),
    ]
    assert steps[2][3] == "es_query of sg2" and {s[4] for s in steps} == {"success"}


def test_turns_are_spaced_and_a_follow_ups_heading_does_not_grow(
    data_dir: Path, tmp_path: Path
) -> None:
    output = chat(
        data_copy(data_dir, tmp_path / "d"), TOP, "what about Long Beach?", "and in 2024?", "/quit"
    )
    assert output.count("\n\nyou> ") == 3  # a blank line before each question after an answer
    headings = re.findall(r"^(.*)  \(\d+ total\)$", output, flags=re.MULTILINE)
    assert headings == [TOP, "what about Long Beach?", "and in 2024?"]
    assert "→" not in output
    assert "port of unlading LONG BEACH · 2024 (arrival date)" in " ".join(output.split())
