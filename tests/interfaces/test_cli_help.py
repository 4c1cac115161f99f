"""`bosun --help` and `--version` written for users: no type tags for flags, no internal references,
no text cut short (issue #38)."""

from __future__ import annotations

import re
from importlib.metadata import version
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from bosun.interfaces.cli.app import app

INTERNAL = re.compile(r"<bool>|DATA_CONTRACT|DESIGN|§|seed's|issue #|sub-goal|DAG")


def commands(group: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and group of the tree, as the words that name it."""
    found = [path]
    for name, command in getattr(group, "commands", {}).items():
        found += commands(command, (*path, name))
    return found


def helped(*path: str) -> str:
    """`bosun PATH --help` on a terminal 100 columns wide, its lines joined into one text."""
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "100"}, terminal_width=100)
    assert result.exit_code == 0, result.output
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())


@pytest.mark.parametrize("path", commands(typer.main.get_command(app)), ids=" ".join)
def test_help_has_no_type_tags_for_flags_nor_internal_references(path: tuple[str, ...]) -> None:
    text = helped(*path)
    assert INTERNAL.search(text) is None, INTERNAL.search(text)
    assert "--help Show this message and exit." in text


def test_ask_help_says_its_options_whole_and_its_exit_codes() -> None:
    text = helped("ask")
    assert (
        "--thread ID continue the conversation with this id, e.g. to answer a question back; "
        "without it, a new conversation" in text
    )
    assert "--json print the whole answer as one JSON object, for programs" in text
    assert "Exits with 0 when answered or asked back, 1 when the question could not be " in text


def test_version_is_the_installed_package_s() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output == f"bosun {version('bosun-bi')}\n"
