"""The answer's English lives in bosun.answers (issue #33 item 3): a worker does the work and puts
what the writer writes in its slots, so no module under workers/ builds a sentence of its own, and
the writer's helpers are not reached for around it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import bosun.understanding
from bosun.understanding import grammar, periodnames, phrases
from tests.test_imports import SRC, imports

WORKERS = SRC / "bosun" / "workers"
MOST_WORDS = 2  # a key, a column, a slot's name; "No rows match." is three words already
# Declarations to the planner, not the answer: a worker's description, preconditions and title, a
# field's description.
DECLARING = {"worker", "Field"}
# Errors whose message names a query clause or a mistake of the installation, as the engines'
# do; a user's mistake (UserError, UnknownEntity) is said in the answer and is the writer's.
TECHNICAL = {"UnsupportedQuery", "ConfigError"}
# A check's findings: what a chat model is told when its text or clause is refused, or what a
# worker declared wrong; never said to the person asking.
CHECKING = re.compile(r"problem|check")


def _called(node: ast.AST) -> str:
    """The name a call calls: `worker`, `Field`, `UnsupportedQuery` ..."""
    if not isinstance(node, ast.Call):
        return ""
    if isinstance(node.func, ast.Name):
        return node.func.id
    return node.func.attr if isinstance(node.func, ast.Attribute) else ""


def _docstrings(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _exempt(tree: ast.Module) -> set[int]:
    """The string nodes inside docstrings, declarations, technical errors and checks."""
    outer = [
        node
        for node in ast.walk(tree)
        if _called(node) in DECLARING | TECHNICAL
        or (isinstance(node, ast.FunctionDef) and CHECKING.search(node.name))
    ]
    inside = {id(n) for node in outer for n in ast.walk(node)}
    return inside | _docstrings(tree)


def _text(node: ast.AST) -> str | None:
    """A literal's text, an f-string's with each placeholder a blank; None for anything else."""
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else " " for v in node.values)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _words(text: str) -> list[str]:
    return [token for token in text.split() if re.search("[A-Za-z]", token)]


def _prose(path: Path) -> list[tuple[int, str]]:
    """Each literal of the file, outside what is exempt, of more than MOST_WORDS words."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exempt = _exempt(tree)
    # an f-string's own pieces are read as the whole f-string
    parts = {
        id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values
    }
    found = []
    for node in ast.walk(tree):
        text = _text(node)
        if text is None or id(node) in exempt | parts:
            continue
        if len(_words(text)) > MOST_WORDS:
            found.append((getattr(node, "lineno", 0), text))
    return found


def test_no_worker_builds_answer_prose() -> None:
    prose = [
        f"{path.relative_to(SRC)}:{line}: {text!r}"
        for path in sorted(WORKERS.rglob("*.py"))
        for line, text in _prose(path)
    ]
    assert prose == [], "answer prose belongs in bosun.answers (its English in answers/en.yaml)"


def test_the_check_finds_a_sentence(tmp_path: Path) -> None:
    """The test above can fail: a refusal written in a worker is prose; a worker's description, a
    docstring and a technical error's detail are not."""
    written = tmp_path / "worker.py"
    written.write_text(
        '@worker("w", "Finds the records a question asks for")\n'
        "def w(wi, ctx):\n"
        '    """What it does, in a docstring."""\n'
        "    if wi is None:\n"
        '        raise UnsupportedQuery("w", "the goal names no single business object")\n'
        '    raise UserError(f"I could not find {wi} in the data.")\n'
    )
    assert _prose(written) == [(6, "I could not find   in the data.")]


def test_workers_write_through_the_answers_face() -> None:
    """Workers reach the writer through bosun.answers, never the writer's helpers in
    understanding (the phrases of a meaning, period names, the grammar's words)."""
    helpers = {
        "bosun.understanding.phrases",
        "bosun.understanding.periodnames",
        "bosun.understanding.grammar",
    }
    reached = [
        f"{module} -> {target}"
        for module, targets in imports().items()
        if module.startswith("bosun.workers")
        for target in targets & helpers
    ]
    assert reached == []


def test_understandings_face_is_reading_and_the_meaning() -> None:
    """What bosun.understanding hands on is the reading contract, the Meaning and the two helpers
    a reply is read with: none of the words an answer is written in (the phrases of a meaning,
    period names, the grammar)."""
    writing = {
        name
        for module in (phrases, periodnames, grammar)
        for name, value in vars(module).items()
        if getattr(value, "__module__", None) == module.__name__
    }
    assert set(bosun.understanding.__all__) & writing == set()
    assert "read_back" not in bosun.understanding.__all__
