"""`bosun eval FILE.jsonl`: ask every item, judge the last turn, score per kind and overall."""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    import duckdb


def evaluate(
    file: Annotated[Path, typer.Argument(help="evaluation file, JSON Lines")],
    as_of: Annotated[str | None, typer.Option("--as-of", help="today's date, YYYY-MM-DD")] = None,
    failures: Annotated[bool, typer.Option("--failures", help="show why each failed item failed")] = False,
) -> None:
    """Score the agent on an evaluation file."""
    from bosun.conversation.session import open_session
    from bosun.evaluation.judge import judge
    from bosun.settings import load_settings

    settings = load_settings()
    session = open_session(settings, date.fromisoformat(as_of) if as_of else None)
    gold = _gold_tables(session.context.engine.inner, settings.catalog)
    items = [json.loads(line) for line in file.read_text().splitlines() if line.strip()]
    scores: dict[str, list[bool]] = defaultdict(list)
    why: list[tuple[str, str, str]] = []
    try:
        for item in items:
            thread = f"eval-{item['id']}-{uuid.uuid4().hex[:6]}"
            answer = None
            for turn in item["turns"]:
                answer = session.ask(turn, thread)
            assert answer is not None
            ok, reason = judge(item["expect"], answer, gold)
            scores[item["expect"]["kind"]].append(ok)
            if not ok:
                why.append((item["id"], item["turns"][-1], reason))
    finally:
        session.close()
    _report(scores, why if failures else [])


def _gold_tables(engine: object, catalog_path: Path | None) -> duckdb.DuckDBPyConnection:
    import duckdb

    from bosun.catalog import load_catalog
    from bosun.datagen.load import read_table

    catalog = load_catalog(catalog_path)
    con = duckdb.connect()
    for obj in catalog.spec.objects.values():
        con.register(f"__{obj.index}", read_table(engine, obj.index, obj.id_field))  # type: ignore[arg-type]
        con.execute(f'CREATE VIEW "{obj.index}" AS SELECT * FROM "__{obj.index}"')
    return con


def _report(scores: dict[str, list[bool]], failures: list[tuple[str, str, str]]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title="evaluation")
    for column in ("kind", "passed", "items", "score"):
        table.add_column(column)
    everything = [ok for oks in scores.values() for ok in oks]
    for kind, oks in sorted(scores.items()):
        table.add_row(kind, str(sum(oks)), str(len(oks)), f"{100 * sum(oks) / len(oks):.0f} %")
    table.add_row("overall", str(sum(everything)), str(len(everything)),
                  f"{100 * sum(everything) / max(1, len(everything)):.1f} %")
    console.print(table)
    for item_id, question, reason in failures:
        console.print(f"[red]{item_id}[/] {question}\n    {reason}")
