"""`bosun eval FILE.jsonl`: ask every item, judge the last turn, score per kind and overall; `bosun
eval export`: the answers people confirmed, as such a file.

An evaluation file may come from someone else, so its gold SQL runs in a sandbox: an in-memory
DuckDB holding only the catalog's tables, with external access off (no file, no network, no
extension) and its configuration locked, and only one reading statement per gold SQL (no COPY,
ATTACH, INSTALL, LOAD, EXPORT, SET, CREATE). An item whose gold SQL is refused, or fails, fails in
one line naming it; the run goes on.
"""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bosun.interfaces.cli.helptext import HelpGroup
from bosun.interfaces.cli.process import starting

if TYPE_CHECKING:
    import duckdb

    from bosun.conversation.session import Session
    from bosun.planner.answer import Answer


class _EvalGroup(HelpGroup):
    """`bosun eval FILE` runs the file (`bosun eval run FILE`); `bosun eval export` is the other
    command."""

    # typer's own (vendored) click Context
    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = ["run", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(cls=_EvalGroup, no_args_is_help=True)


@app.command("run")
def evaluate(
    file: Annotated[
        Path,
        typer.Argument(
            exists=True, dir_okay=False, readable=True, help="evaluation file, JSON Lines"
        ),
    ],
    as_of: Annotated[str | None, typer.Option("--as-of", help="today's date, YYYY-MM-DD")] = None,
    failures: Annotated[
        bool, typer.Option("--failures", help="show why each failed item failed")
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", min=1, help="items asked at once, each in its own thread")
    ] = 1,
) -> None:
    """Score the agent on an evaluation file: every item asked in this one process."""
    items = _items(file)
    with starting():
        from bosun.conversation.session import open_session
        from bosun.settings import load_settings

        settings = load_settings()
        session = open_session(settings, date.fromisoformat(as_of) if as_of else None)
    scores: dict[str, list[bool]] = defaultdict(list)
    why: list[tuple[str, str, str]] = []
    try:
        gold = _gold_tables(session.context.engine.inner, settings.catalog)
        with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="eval") as pool:
            # Items run on their own conversation threads; the session serialises turns per thread
            # only.
            answers = pool.map(partial(_last_answer, session), items)
            # judged here, in order: one gold connection
            for item, answer in zip(items, answers, strict=True):
                ok, reason = _judged(item["expect"], answer, gold)
                scores[item["expect"]["kind"]].append(ok)
                if not ok:
                    why.append((item["id"], item["turns"][-1], reason))
    finally:
        session.close()
    _report(scores, why if failures else [])


def _items(file: Path) -> list[dict[str, Any]]:
    """The file's items, one JSON object a line (a usage error when it is not JSON Lines text)."""
    try:
        items = [
            json.loads(line)
            for line in file.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise typer.BadParameter(f"{file} is not JSON Lines: {exc}") from None
    if not all(isinstance(item, dict) and "turns" in item and "expect" in item for item in items):
        raise typer.BadParameter(f"{file}: every line must be an object with 'turns' and 'expect'")
    return items


def _last_answer(session: Session, item: dict[str, Any]) -> Answer:
    """Every turn of the item on a conversation of its own; the last turn's answer."""
    thread = f"eval-{item['id']}-{uuid.uuid4().hex[:6]}"
    answers = [session.ask(turn, thread) for turn in item["turns"]]
    return answers[-1]


def _gold_tables(engine: object, catalog_path: Path | None) -> duckdb.DuckDBPyConnection:
    """The sandbox the gold SQL runs in: the catalog's tables, then external access off and the
    configuration locked (no SET can turn it on again)."""
    import duckdb

    from bosun.catalog import load_catalog
    from bosun.datagen.load import read_table

    catalog = load_catalog(catalog_path)
    con = duckdb.connect()
    for obj in catalog.spec.objects.values():
        table = read_table(engine, obj.index, obj.id_field)  # type: ignore[arg-type]
        con.register(f"__{obj.index}", table)
        con.execute(f'CREATE VIEW "{obj.index}" AS SELECT * FROM "__{obj.index}"')
    con.execute("SET enable_external_access = false")
    con.execute("SET python_enable_replacements = false")  # no Python variable read as a table
    con.execute("SET lock_configuration = true")
    return con


def _judged(
    expect: dict[str, Any], answer: Answer, gold: duckdb.DuckDBPyConnection
) -> tuple[bool, str]:
    """(passed, why not), the gold SQL checked first: an item whose SQL is refused or fails does not
    pass, said in one line."""
    import duckdb

    from bosun.evaluation.judge import judge

    refused = next(filter(None, (_refusal(sql, gold) for sql in _gold_sqls(expect))), None)
    if refused is not None:
        return False, refused
    try:
        return judge(expect, answer, gold)
    except duckdb.PermissionException as exc:
        return False, f"gold SQL may not reach files: {_first_line(exc)}"
    except duckdb.Error as exc:
        return False, f"gold SQL failed: {_first_line(exc)}"


def _gold_sqls(expect: dict[str, Any]) -> list[str]:
    """Every gold SQL of an expectation, those of a `multi` expectation's parts included."""
    own = [expect["gold_sql"]] if "gold_sql" in expect else []
    return own + [sql for part in expect.get("parts", []) for sql in _gold_sqls(part)]


def _refusal(sql: str, gold: duckdb.DuckDBPyConnection) -> str | None:
    """Why the gold SQL may not run: it must be one statement, and one that only reads."""
    import duckdb

    try:
        statements = gold.extract_statements(sql)
    except duckdb.Error as exc:
        return f"gold SQL failed: {_first_line(exc)}"
    if len(statements) != 1:
        return f"gold SQL must be one statement; this is {len(statements)}"
    if statements[0].type != duckdb.StatementType.SELECT:
        return f"gold SQL may only read: {statements[0].query.split()[0].upper()} refused"
    return None


def _first_line(exc: Exception) -> str:
    """DuckDB's message without its kind ("Permission Error: ") or the query it quotes below."""
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    _, said, message = first.partition(" Error: ")
    return message if said else first


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
    table.add_row(
        "overall",
        str(sum(everything)),
        str(len(everything)),
        f"{100 * sum(everything) / max(1, len(everything)):.1f} %",
    )
    console.print(table)
    for item_id, question, reason in failures:
        console.print(f"[red]{item_id}[/] {question}\n    {reason}")


@app.command("export")
def export(
    out: Annotated[
        Path | None,
        typer.Option("--out", dir_okay=False, help="file to write; default standard output"),
    ] = None,
) -> None:
    """Write the answers people marked (right, or wrong with the right figure) as an evaluation
    file."""
    with starting():
        from bosun.conversation.marks import MarkStore
        from bosun.conversation.store import open_turn_store
        from bosun.evaluation.export import evaluation_items
        from bosun.settings import load_settings

        store = open_turn_store(load_settings())
    try:
        exported = evaluation_items(MarkStore(store).confirmed())
    finally:
        store.close()
    if out is None:
        typer.echo(exported.jsonl(), nl=False)
    else:
        out.write_text(exported.jsonl(), encoding="utf-8")
    marked = len(exported.items) + len(exported.skipped)
    typer.echo(
        f"exported {len(exported.items)} of {marked} marked answers; skipped "
        f"{len(exported.skipped)}",
        err=True,
    )
    for reason in exported.skipped:
        typer.echo(f"  skipped {reason}", err=True)
