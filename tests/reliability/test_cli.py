"""The command line as a user meets it: usage errors, --json on errors, exit codes, odd bytes and
escapes."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from rich.console import Console

from bosun.catalog import load_catalog
from bosun.interfaces.cli.render import show
from bosun.planner.answer import Answer, Trace
from bosun.workers.models import ResultTable
from tests.interfaces.serving import bosun_serve
from tests.reliability.conftest import ROOT, bosun, python_path

ESCAPES = "\x1b[2J\x1b]0;owned\x07\x1b[31m"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["ask"], "Missing argument 'question'"),
        (["ask", "How many shipments?", "--bogus"], "No such option: --bogus"),
        (
            ["ask", "How many shipments?", "--as-of", "notadate"],
            "'notadate' is not a date (YYYY-MM-DD)",
        ),
        (
            ["ask", "How many shipments?", "--as-of", "2026-02-30"],
            "'2026-02-30' is not a date (YYYY-MM-DD)",
        ),
        (["chat", "--as-of", "2026-13-01"], "'2026-13-01' is not a date (YYYY-MM-DD)"),
        (["frobnicate"], "No such command 'frobnicate'"),
    ],
)
def test_a_usage_error_is_one_line_and_exit_2(tmp_path: Path, args: list[str], said: str) -> None:
    done = bosun(tmp_path, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert (
        done.stderr.count("\n") == 1 and done.stderr.startswith("bosun: ") and said in done.stderr
    ), done.stderr
    # the JSON form once per kind of mistake, to keep the suite quick
    if args[0] == "ask" and len(args) <= 3:
        as_json = bosun(tmp_path, *args, "--json")
        error = json.loads(as_json.stdout)
        assert as_json.returncode == 2 and error["status"] == "failed" and said in error["error"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["eval", "{tmp}/missing.jsonl"], "does not exist"),
        (["eval", "{tmp}/notjson.jsonl"], "is not JSON Lines"),
        (["data", "load", "/dev/null"], "not a regular file"),
        (["serve", "--port", "99999"], "Invalid value for '--port'"),
        (["serve", "graphql", "--port", "0"], "Invalid value for '--port'"),
        (["serve", "mcp", "--http", "--port", "99999"], "Invalid value for '--port'"),
        (["data", "export", "--out", "{tmp}/notjson.jsonl"], "is a file"),
        (["catalog", "init", "--index", "shipments", "--out", "{tmp}"], "is a directory"),
        (
            ["ask", "How many shipments?", "--thread", "t\udcff\udcfe"],
            "--thread is not valid UTF-8 text",
        ),
        (["chat", "--thread", "\udcff"], "--thread is not valid UTF-8 text"),
    ],
)
def test_a_bad_argument_is_one_line_not_a_traceback(
    tmp_path: Path, args: list[str], said: str
) -> None:
    (tmp_path / "notjson.jsonl").write_bytes(b"{not json\n")
    done = bosun(tmp_path, *(arg.format(tmp=tmp_path) for arg in args), timeout=60)
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr, (
        done.stderr
    )
    assert (
        done.stderr.count("\n") == 1 and done.stderr.startswith("bosun: ") and said in done.stderr
    ), done.stderr


def test_json_on_a_bosun_error_is_an_object_too(tmp_path: Path) -> None:
    done = bosun(tmp_path, "ask", "How many shipments?", "--json")  # no data in this directory
    assert done.returncode == 2
    assert json.loads(done.stdout) == {
        "status": "failed",
        "error": f"no data in {tmp_path}/bosun.duckdb: load your data with `bosun data "
        "load FILE`, or build the sample with `bosun data generate`",
    }


def test_ask_exits_non_zero_when_the_turn_failed(data_dir: Path) -> None:
    failed = bosun(data_dir, "ask", "?!?!...", "--json")
    assert failed.returncode == 1 and json.loads(failed.stdout)["status"] == "failed"
    done = bosun(data_dir, "ask", "How many shipments arrived in Houston in 2025?", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["status"] == "done"


def test_invalid_utf8_in_a_question_is_answered_and_stored(data_dir: Path) -> None:
    env = {
        **os.environ,
        "BOSUN_DATA_DIR": str(data_dir),
        "PYTHONPATH": python_path(),
        "LC_ALL": "C.UTF-8",
    }
    question = b"How many shipments arrived in Houston in 2025\xff\xfe?"
    done = subprocess.run(
        [
            sys.executable.encode(),
            b"-m",
            b"bosun.interfaces.cli",
            b"ask",
            question,
            b"--thread",
            b"u",
            b"--json",
        ],
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    answer = json.loads(done.stdout)
    assert (
        done.returncode == 0
        and answer["question"] == "How many shipments arrived in Houston in 2025\ufffd\ufffd?"
    )
    assert b"Traceback" not in done.stderr


def test_a_surrogate_written_as_bytes_in_a_question_is_answered(data_dir: Path) -> None:
    env = {
        **os.environ,
        "BOSUN_DATA_DIR": str(data_dir),
        "PYTHONPATH": python_path(),
        "LC_ALL": "C.UTF-8",
    }
    # U+D800 as if it were UTF-8
    question = b"How many shipments arrived in Houston in 2025\xed\xa0\x80?"
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"bosun.interfaces.cli", b"ask", question, b"--json"],
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    answer = json.loads(done.stdout)
    assert done.returncode == 0 and answer["status"] == "done" and "\ufffd" in answer["question"]
    assert b"Traceback" not in done.stderr


def test_chat_reads_a_line_that_is_not_utf8_and_goes_on(data_dir: Path) -> None:
    env = {
        **os.environ,
        "BOSUN_DATA_DIR": str(data_dir),
        "PYTHONPATH": python_path(),
        "LC_ALL": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
    }
    lines = (
        b"How many shipments arrived in Houston\xff in 2025?\n"
        b"How many shipments arrived in Savannah in 2025?\n/quit\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "bosun.interfaces.cli", "chat"],
        input=lines,
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=180,
    )
    out = done.stdout.decode()
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert out.count("shipments") >= 2 and "SAVANNAH" in out.upper()


def test_control_characters_from_data_and_questions_are_not_printed() -> None:
    answer = Answer(
        question=f"How many {ESCAPES}?",
        status="done",
        answer=f"Found {ESCAPES}3 rows",
        assumptions=[f"assumed {ESCAPES}"],
        trace=Trace(rounds=1, sub_goals=[]),
        results=[
            ResultTable(
                title=f"rows {ESCAPES}",
                columns=[f"name{ESCAPES}"],
                rows=[[f"ACME{ESCAPES}"], ["\x1b[1mBOLD\x9b"]],
                total=2,
            )
        ],
    )
    out = io.StringIO()
    show(Console(file=out, width=120, color_system=None), answer, load_catalog())
    printed = out.getvalue()
    assert "\x1b" not in printed and "\x07" not in printed and "\x9b" not in printed
    assert "ACME" in printed and "BOLD" in printed and "Found 3 rows" in printed


def test_an_escape_in_a_question_is_not_echoed_raw(data_dir: Path) -> None:
    done = bosun(
        data_dir, "ask", f"How many shipments arrived in {ESCAPES}Houston in 2025?", "--verbose"
    )
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout


def test_loading_while_serve_holds_the_data_says_so_in_one_line(
    data_dir: Path, tmp_path: Path
) -> None:
    (tmp_path / "orders.csv").write_text("id,amount\n1,5\n2,7\n")
    with bosun_serve(data_dir) as base:
        assert httpx.get(f"{base}/health", timeout=30).status_code == 200  # the engine is open
        loaded = bosun(data_dir, "data", "load", str(tmp_path / "orders.csv"))
        generated = bosun(data_dir, "data", "generate", "--rows", "100")
    for done in (loaded, generated):
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr
        assert lines[0].startswith("bosun: another Bosun process (PID ") and lines[0].endswith(
            f"holds the data file {data_dir / 'bosun.duckdb'}: stop it (a `bosun serve`, "
            "`bosun chat`…), then run this again"
        ), lines[0]
    assert "Conflicting lock" not in loaded.stderr + generated.stderr
