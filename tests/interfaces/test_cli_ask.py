"""`bosun ask` where a person meets it: a question back to answer, a folder with no data (issue
#38)."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shlex
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

import bosun
from bosun.interfaces.cli.app import app
from tests.interfaces.serving import data_copy

ACME = "Show shipments from Acme Corp to Houston"
SOURCE = str(Path(bosun.__file__).parents[1])  # this checkout's src, for a process of its own
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


def run(folder: Path, *args: str) -> tuple[int, str]:
    env = {"BOSUN_DATA_DIR": str(folder), "COLUMNS": "100"}
    result = CliRunner().invoke(app, list(args), env=env, terminal_width=100)
    return result.exit_code, result.output


def test_a_question_back_prints_the_conversation_and_the_command_for_each_reply(
    data_dir: Path, tmp_path: Path
) -> None:
    folder = data_copy(data_dir, tmp_path / "d")
    code, output = run(folder, "ask", ACME)
    assert code == 0  # asked back is no failure
    (thread,) = re.findall(r"This conversation is (\w+)\. To answer, run one of:", output)
    replies = [line.strip() for line in output.splitlines() if line.strip().startswith("bosun ")]
    assert replies == [
        f'bosun ask --thread {thread} "ACME CORP LLC"',
        f'bosun ask --thread {thread} "ACME CORPORATION"',
    ]
    # the printed command, run as it is, answers the question on that conversation
    code, said = run(folder, *shlex.split(replies[1])[1:], "--json")
    answer = json.loads(said)
    assert code == 0 and answer["status"] == "done" and answer["thread_id"] == thread
    assert '"shipper_name": "ACME CORPORATION"' in json.dumps(answer["results"][0]["query"])


def test_the_json_answer_of_a_question_back_is_the_answer_object_alone(data_dir: Path) -> None:
    code, output = run(data_dir, "ask", ACME, "--json")
    answer = json.loads(output)  # nothing printed around it
    assert code == 0 and answer["status"] == "needs_clarification" and answer["thread_id"]


def test_at_a_terminal_the_choices_are_offered_and_the_picked_one_answered(
    data_dir: Path, tmp_path: Path
) -> None:
    folder = data_copy(data_dir, tmp_path / "d")
    output, code = at_terminal(folder, ["ask", ACME], typed=b"2\n", after=b"Enter to stop")
    assert code == 0, output
    assert "Answer here with a number (1–2) or your own words; Enter to stop: 2" in output
    said = " ".join(output.split())
    assert "27 shipments with shipper ACME CORPORATION and port of unlading HOUSTON" in said


def test_ask_in_a_folder_without_data_says_how_to_get_some_and_writes_nothing(
    tmp_path: Path,
) -> None:
    for command in (["ask", "How many shipments?"], ["chat"]):
        done = subprocess.run(
            [sys.executable, "-m", "bosun.interfaces.cli", *command],
            cwd=tmp_path,
            env={k: v for k, v in _environment().items() if k != "BOSUN_DATA_DIR"},  # ./.bosun
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 2 and done.stdout == ""
        assert "bosun data generate" in done.stderr and "bosun data load" in done.stderr
        assert list(tmp_path.iterdir()) == []  # no ./.bosun, no conversations.sqlite


def at_terminal(folder: Path, args: list[str], typed: bytes, after: bytes) -> tuple[str, int]:
    """What `bosun ARGS` prints on a terminal (a pseudo-terminal) where `typed` is typed once
    `after` is shown; and its exit code."""
    pid, terminal = pty.fork()
    if pid == 0:  # the child: bosun, its standard streams the terminal
        env = {**_environment(), "BOSUN_DATA_DIR": str(folder), "COLUMNS": "100"}
        os.execve(sys.executable, [sys.executable, "-m", "bosun.interfaces.cli", *args], env)
    shown = _read_until_exit(terminal, typed, after)
    _, status = os.waitpid(pid, 0)
    return _ESCAPES.sub("", shown.decode(errors="replace")), os.waitstatus_to_exitcode(status)


def _read_until_exit(terminal: int, typed: bytes, after: bytes) -> bytes:
    shown, deadline = b"", time.monotonic() + 120
    while time.monotonic() < deadline:
        if not select.select([terminal], [], [], 0.5)[0]:
            continue
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # the child closed the terminal: it has exited
            break
        if not chunk:
            break
        shown += chunk
        if typed and after in shown:
            os.write(terminal, typed)
            typed = b""
    return shown


def _environment() -> dict[str, str]:
    path = os.pathsep.join(p for p in (SOURCE, os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path}
