"""What the command line prints, compared whole with the files under golden/ (issue #38).

A terminal 100 columns wide and no colours, so that the output is the same on every machine; a new
conversation's id is written <thread>. After a deliberate change of what is printed, rewrite the
files and read their diff before committing:

    BOSUN_REWRITE_GOLDEN=1 python -m pytest tests/interfaces/test_cli_golden.py
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bosun.interfaces.cli.app import app
from tests.interfaces.serving import data_copy

GOLDEN = Path(__file__).parent / "golden"
REWRITE = os.environ.get("BOSUN_REWRITE_GOLDEN") == "1"
WIDTH = 100
_THREAD = re.compile(r"\b[0-9a-f]{12}\b")

# name → (arguments, lines typed)
CASES: dict[str, tuple[list[str], list[str]]] = {
    "ask_ranking": (["ask", "Top 5 shippers to LA and their average transit times"], []),
    "ask_trend": (["ask", "percentage change of TEU per month in 2025"], []),
    "ask_money_total": (["ask", "total declared value in 2025"], []),
    "ask_money_by_carrier": (["ask", "declared value by carrier in 2025"], []),
    "ask_question_back": (["ask", "Show shipments from Acme Corp to Houston"], []),
    "ask_help": (["ask", "--help"], []),
    "chat_help": (["chat", "--help"], []),
    "chat_slash_help": (["chat"], ["/help", "/quit"]),
    # the other readings: a command each, then in chat the follow-up to type, not said twice, and
    # the questions suggested next
    "ask_choices": (["ask", "Shipments from Shanghai to LA in 2025 by origin country"], []),
    "chat_choices": (["chat"], ["TEU by carrier last month", "what about Maersk?", "/quit"]),
}


@pytest.fixture(scope="module")
def folder(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample's data with conversations of these tests' own."""
    return data_copy(data_dir, tmp_path_factory.mktemp("golden") / "d")


def printed(folder: Path, args: list[str], typed: list[str]) -> str:
    """What `bosun ARGS` prints with `typed` as its input, each line without trailing spaces."""
    env = {"BOSUN_DATA_DIR": str(folder), "COLUMNS": str(WIDTH), "NO_COLOR": "1"}
    result = CliRunner().invoke(
        app,
        args,
        input="".join(f"{line}\n" for line in typed),
        env={**env, "FORCE_COLOR": None},
        terminal_width=WIDTH,
        prog_name="bosun",
    )
    assert result.exit_code == 0, result.output
    lines = [line.rstrip() for line in _THREAD.sub("<thread>", result.output).splitlines()]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", list(CASES))
def test_output_is_the_golden_file(folder: Path, name: str) -> None:
    args, typed = CASES[name]
    output = printed(folder, args, typed)
    golden = GOLDEN / f"{name}.txt"
    if REWRITE:
        golden.write_text(output, encoding="utf-8")
    assert golden.exists(), f"no {golden.name}: run with BOSUN_REWRITE_GOLDEN=1 to write it"
    assert output == golden.read_text(encoding="utf-8")
