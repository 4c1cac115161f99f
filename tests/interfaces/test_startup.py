"""What a command loads: `bosun --help`, `bosun catalog show` and a plain aggregation question start
without the libraries they do not use (each run in a fresh process, its `sys.modules` read at exit).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

# Run the command as `bosun` does, then write the top-level packages it imported.
_RUN = """
import json, sys
from bosun.interfaces.cli import main
out, sys.argv = sys.argv[1], ["bosun", *sys.argv[2:]]
try:
    main()
except SystemExit as exc:
    assert not exc.code, exc.code
with open(out, "w") as handle:
    json.dump(sorted(sys.modules), handle)
"""

# Loaded only by the command, engine or question that needs them.
SERVING = {"uvicorn", "fastapi", "starlette", "mcp"}
LOOKUP = {"strawberry", "graphql", "gql"}
CLUSTERS = {"elasticsearch", "opensearchpy"}
MODELS = {"langchain", "langchain_openai", "langchain_anthropic"}
LOADING = {"numpy", "pyarrow"}
VECTORS = {"qdrant_client"}
# lemminflect's, which the reader's inflections need (understanding.inflections)
READING = {"numpy"}
NOT_FOR_A_QUESTION = (SERVING | LOOKUP | CLUSTERS | MODELS | LOADING | VECTORS) - READING


def loaded(tmp_path: Path, data_dir: Path | None, *args: str) -> tuple[set[str], str]:
    """The top-level packages `bosun ARGS` imported, and what it printed."""
    out = tmp_path / "modules.json"
    env = {**os.environ, "BOSUN_DATA_DIR": str(data_dir or tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", _RUN, str(out), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    modules: list[str] = json.loads(out.read_text())
    return {m.split(".")[0] for m in modules}, done.stdout


def test_help_loads_no_engine_graph_or_server(tmp_path: Path) -> None:
    packages, printed = loaded(tmp_path, None, "--help")
    assert "ask" in printed and "serve" in printed
    assert (
        packages
        & (
            NOT_FOR_A_QUESTION
            | READING
            | {"langgraph", "langchain_core", "duckdb", "pydantic_settings"}
        )
        == set()
    )


def test_catalog_show_loads_no_graph(tmp_path: Path) -> None:
    packages, printed = loaded(tmp_path, None, "catalog", "show")
    assert "shipments" in printed
    assert (
        packages & (NOT_FOR_A_QUESTION | READING | {"langgraph", "langchain_core", "duckdb"})
        == set()
    )


def test_an_aggregation_question_loads_only_the_graph_and_its_engine(
    tmp_path: Path, data_dir: Path
) -> None:
    packages, printed = loaded(
        tmp_path, data_dir, "ask", "How many shipments arrived in Houston last month?", "--json"
    )
    answer = json.loads(printed)
    assert answer["status"] == "done" and answer["results"][0]["columns"] == ["shipments"]
    assert {"langgraph", "duckdb"} <= packages
    assert packages & (NOT_FOR_A_QUESTION | {"markdown_it"}) == set()  # --json renders no Markdown


def test_a_printed_answer_loads_rich_but_still_no_server_or_lookup(
    tmp_path: Path, data_dir: Path
) -> None:
    packages, printed = loaded(
        tmp_path, data_dir, "ask", "Which carriers shipped the most TEU to Houston in 2025?"
    )
    assert "TEU" in printed
    assert "markdown_it" in packages and packages & NOT_FOR_A_QUESTION == set()
