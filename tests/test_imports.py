"""The import structure DESIGN §1 asks for: a layer imports only from the layers below it, and no
modules import each other in a loop — at the top, under TYPE_CHECKING or inside a function alike."""

from __future__ import annotations

import ast
import graphlib
from functools import cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
# Lowest first; a module may import from its own layer and those before it.
LAYERS = [
    [
        "bosun.errors",
        "bosun.files",
        "bosun.yamltext",
        "bosun.settings",
        "bosun.ledger",
        "bosun.storage",
        "bosun.chat",
        "bosun.domains",
    ],
    ["bosun.engines"],
    ["bosun.catalog"],
    ["bosun.understanding", "bosun.datagen"],
    ["bosun.query"],
    ["bosun.answers"],
    ["bosun.workers"],
    ["bosun.planner"],
    ["bosun.conversation", "bosun.evaluation"],
    ["bosun.interfaces", "bosun.bench"],
]


def _name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {_name(p): p for p in SRC.rglob("*.py")}


def _imported(node: ast.AST, package: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        parent = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*parent, base] if base else parent)
    found = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules()]
    return found or [base]


def _module_of(name: str) -> str | None:
    while name and name not in modules():
        name = name.rpartition(".")[0]
    return name or None


@cache
def imports() -> dict[str, set[str]]:
    """Each module → the Bosun modules it imports anywhere in its file."""
    graph: dict[str, set[str]] = {}
    for name, path in modules().items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = {
            _module_of(t)
            for node in ast.walk(ast.parse(path.read_text()))
            for t in _imported(node, package)
        }
        graph[name] = {m for m in found if m is not None and m != name}
    return graph


def _layer(module: str) -> int:
    return next(
        i
        for i, layer in enumerate(LAYERS)
        for top in layer
        if module == top or module.startswith(top + ".")
    )


def test_every_module_has_a_layer() -> None:
    assert [
        m
        for m in modules()
        if m != "bosun"
        and not any(m == top or m.startswith(top + ".") for layer in LAYERS for top in layer)
    ] == []


def test_a_layer_imports_only_from_itself_and_below() -> None:
    upward = [
        f"{a} -> {b}"
        for a, targets in imports().items()
        if a != "bosun"
        for b in targets
        if b != "bosun" and _layer(b) > _layer(a)
    ]
    assert upward == []


@pytest.mark.parametrize(
    "package",
    [
        "bosun.engines.embedded",
        "bosun.understanding",
        "bosun.query",
        "bosun.answers",
        "bosun.workers",
        "bosun.planner",
        "bosun.conversation",
        "bosun.interfaces",
    ],
)
def test_no_modules_of_a_package_import_each_other_in_a_loop(package: str) -> None:
    inside = {m for m in modules() if m == package or m.startswith(package + ".")}
    graph = {m: imports()[m] & inside for m in inside}
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as loop:
        pytest.fail(f"an import loop: {' -> '.join(loop.args[1])}")


def test_the_compiler_is_used_through_its_face() -> None:
    """Outside bosun.query, modules import the package (or its Table module), never its private
    modules: the compiler's face stays what `bosun/query/__init__.py` lists."""
    private = [
        f"{a} -> {b}"
        for a, targets in imports().items()
        if not a.startswith("bosun.query")
        for b in targets
        if b.startswith("bosun.query._")
    ]
    assert private == []
