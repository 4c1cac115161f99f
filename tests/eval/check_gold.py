"""Check every gold_sql of an evaluation file over the sample data: it runs in DuckDB and gives a
non-trivial answer, with no tie deciding which rows a ranking keeps.

    python tests/eval/check_gold.py [FILE.jsonl] [--data DIR]

FILE defaults to tests/eval/conversations.jsonl. DIR is a data folder holding bosun.duckdb (what
`bosun data generate` writes); without it the sample of DATA_CONTRACT §4 (50,000 rows, seed 42, as
of 2026-06-15) is generated in a temporary folder. The exit status is 1 when any item has a problem.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import duckdb

CONVERSATIONS = Path(__file__).with_name("conversations.jsonl")
SAMPLE = ["--rows", "50000", "--seed", "42", "--as-of", "2026-06-15"]
_LIMIT = re.compile(r"\blimit\s+(\d+)(?:\s+offset\s+(\d+))?", re.IGNORECASE)
_TRAILING_LIMIT = re.compile(r"\s+limit\s+(\d+)\s*$", re.IGNORECASE)
_DIRECTION = re.compile(r"\s+(asc|desc)\s*$", re.IGNORECASE)


def load_items(path: Path) -> list[dict[str, Any]]:
    """The file's items, one JSON object a line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def gold_parts(expect: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Each expectation of an item that holds a gold_sql (the parts of a `multi` one by one)."""
    if expect["kind"] == "multi":
        for part in expect["parts"]:
            yield from gold_parts(part)
    elif "gold_sql" in expect:
        yield expect


def problems(con: duckdb.DuckDBPyConnection, item: dict[str, Any]) -> list[str]:
    """What is wrong with an item's gold answers; empty when every one runs and says something."""
    found: list[str] = []
    for part in gold_parts(item["expect"]):
        sql = part["gold_sql"]
        try:
            rows = con.execute(sql).fetchall()
        except duckdb.Error as exc:
            found.append(f"does not run: {exc}")
            continue
        found.extend(_trivial(part, rows))
        found.extend(_ties(con, sql))
        if part["kind"] == "table" and part.get("ordered"):
            found.extend(_order_ties(con, sql))
    return found


def _trivial(part: dict[str, Any], rows: list[tuple[Any, ...]]) -> list[str]:
    """Why an answer says nothing worth judging: no rows, a null or zero figure, a null cell."""
    kind = part["kind"]
    if not rows:
        return [f"{kind}: no rows"]
    if kind in ("count", "value"):
        if len(rows) != 1 or rows[0][0] in (None, 0):
            return [f"{kind}: wants one non-zero value, got {rows[:2]}"]
        return []
    if any(cell is None for row in rows for cell in row):
        return [f"{kind}: a gold row holds a null"]
    return []


def _ties(con: duckdb.DuckDBPyConnection, sql: str) -> list[str]:
    """For each `order by … limit N [offset K]` in the query (its subqueries too): whether a row it
    keeps ties on the ordering with the row just outside, so that the gold rows are one pick among
    several."""
    found = []
    for match in _LIMIT.finditer(sql):
        query = _enclosing_select(sql, match.start())
        keyed = _keyed(query)
        if keyed is None:
            continue
        for outside in _boundaries(int(match.group(1)), int(match.group(2) or 0)):
            keys = _keys(con, f"{keyed} limit 2 offset {outside}")
            if len(keys) == 2 and keys[0] == keys[1]:
                found.append(f"tie at the limit of: {query} {match.group(0)} ({keys[0]!r})")
    return found


def _boundaries(limit: int, offset: int) -> list[int]:
    """The first row of each pair that straddles the kept rows' edges (rows counted from 0)."""
    last_kept = offset + limit - 1
    return [offset - 1, last_kept] if offset else [last_kept]


def _order_ties(con: duckdb.DuckDBPyConnection, sql: str) -> list[str]:
    """An ordered gold table whose rows tie on the ordering has no one order to hold."""
    trailing = _TRAILING_LIMIT.search(sql)
    keyed = _keyed(sql[: trailing.start()] if trailing else sql)
    if keyed is None:
        return ["an ordered table wants a top-level order by naming its columns"]
    limit = f" limit {trailing.group(1)}" if trailing else ""
    keys = _keys(con, keyed + limit)
    tied = [key for before, key in pairwise(keys) if before == key]
    return [f"ordered table ties on {tied[:3]}"] if tied else []


def _keys(con: duckdb.DuckDBPyConnection, keyed: str) -> list[Any]:
    return [row[-1] for row in con.execute(keyed).fetchall()]


def _enclosing_select(sql: str, at: int) -> str:
    """The text of the select that a clause at `at` ends: back to its unmatched '('."""
    depth = 0
    for index in range(at - 1, -1, -1):
        if sql[index] == ")":
            depth += 1
        elif sql[index] == "(":
            if depth == 0:
                return sql[index + 1 : at].strip()
            depth -= 1
    return sql[:at].strip()


def _top_level(text: str, keyword: str) -> list[int]:
    """Where `keyword` (any case) stands outside every parenthesis of `text`."""
    spots = []
    for match in re.finditer(rf"\b{keyword}\b", text, re.IGNORECASE):
        before = text[: match.start()]
        if before.count("(") == before.count(")"):
            spots.append(match.start())
    return spots


def _keyed(query: str) -> str | None:
    """The query (a select ending in its `order by`, no limit) with its ordering keys added as a
    last column, rows in the same order; None when it has no top-level `order by` by named
    columns or expressions."""
    froms = _top_level(query, "from")
    orders = _top_level(query, "order by")
    if not froms or not orders or not query.lower().startswith("select"):
        return None
    columns = query[len("select") : froms[0]]
    keys = [
        _DIRECTION.sub("", key).strip() for key in query[orders[-1] + len("order by") :].split(",")
    ]
    if any(key.isdigit() for key in keys):
        return None  # a position: `order by 1` would add the constant 1
    expressions = ", ".join(keys)
    return f"select {columns}, [{expressions}] as __key {query[froms[0] :]}"


def generate_sample(folder: Path) -> Path:
    """The sample data of DATA_CONTRACT §4 generated into `folder`; its bosun.duckdb."""
    from typer.testing import CliRunner

    from bosun.interfaces.cli.app import app

    outcome = CliRunner().invoke(
        app, ["data", "generate", *SAMPLE], env={"BOSUN_DATA_DIR": str(folder)}
    )
    if outcome.exit_code != 0:
        raise SystemExit(f"bosun data generate failed:\n{outcome.output}")
    return folder / "bosun.duckdb"


def check(items: list[dict[str, Any]], database: Path) -> dict[str, list[str]]:
    """Each item's problems, by id, over the data in `database` (opened read-only)."""
    con = duckdb.connect(str(database), read_only=True)
    try:
        return {item["id"]: problems(con, item) for item in items}
    finally:
        con.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=CONVERSATIONS)
    parser.add_argument("--data", type=Path, help="a data folder holding bosun.duckdb")
    args = parser.parse_args(argv)
    items = load_items(args.file)
    with tempfile.TemporaryDirectory(prefix="bosun-gold-") as scratch:
        database = args.data / "bosun.duckdb" if args.data else generate_sample(Path(scratch))
        found = check(items, database)
    bad = {item_id: why for item_id, why in found.items() if why}
    for item_id, why in bad.items():
        print(f"{item_id}: " + "; ".join(why))
    checked = sum(1 for item in items for _ in gold_parts(item["expect"]))
    print(f"{len(items)} items, {checked} gold queries, {len(bad)} items with problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
