"""`bosun ask "QUESTION"`: one turn, as text and tables or as the JSON answer.

Every command module imports only Typer at its top and the rest inside the command: `bosun --help`
lists every command without loading what any of them runs on.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated

import typer

from bosun.interfaces.cli.process import starting
from bosun.interfaces.cli.terminal import day, printable, thread_name

if TYPE_CHECKING:
    from rich.console import Console

    from bosun.planner.answer import Answer
    from bosun.planner.events import TurnEvent


def ask(
    question: Annotated[str, typer.Argument(help="the question, in plain language")],
    thread: Annotated[
        str | None,
        typer.Option(
            "--thread", callback=thread_name, help="conversation id; turns with one id form one"
        ),
    ] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", help="today's date, YYYY-MM-DD")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="print the answer object (DATA_CONTRACT §3)")
    ] = False,
    trace: Annotated[
        bool, typer.Option("--trace", help="print the sub-goal DAG as Mermaid")
    ] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", help="show rounds and workers live")
    ] = False,
) -> None:
    """Answer one question from the data; exits with 1 when the turn failed."""
    with starting():
        from bosun.conversation.session import open_session
        from bosun.settings import load_settings

        session = open_session(load_settings(), day(as_of))
    try:
        turn = session.stream(question, thread or uuid.uuid4().hex[:12], progress=verbose)
        answer = _answer(turn, verbose, _console(stderr=as_json))
    finally:
        session.close()
    if as_json:
        typer.echo(json.dumps(answer.model_dump(mode="json"), ensure_ascii=False, indent=2))
    else:
        show(_console(), answer)
    if trace and not as_json:  # the JSON answer carries the trace already
        from bosun.planner.run import render_trace_mermaid

        typer.echo(render_trace_mermaid(answer.trace))
    if answer.status == "failed":
        raise typer.Exit(1)


def _answer(items: Iterable[TurnEvent | Answer], verbose: bool, console: Console) -> Answer:
    """The turn's answer; its events printed on `console` as they come with `verbose` (a resumed
    turn's always)."""
    from bosun.planner.answer import Answer

    answer = None
    for item in items:
        if isinstance(item, Answer):
            answer = item
        elif verbose or item.kind == "resumed":
            console.print(describe(item), style="dim", highlight=False, markup=False)
    assert answer is not None
    return answer


def _console(stderr: bool = False) -> Console:
    """The terminal; stderr with `--json`, whose stdout is the answer object alone."""
    from rich.console import Console

    return Console(stderr=stderr)


def describe(event: TurnEvent) -> str:
    where = f"round {event.round}" if event.round else ""
    who = f" sg{event.sub_goal_id} {event.worker}" if event.worker else ""
    how = f" {event.status}" if event.status else ""
    took = f" {event.duration_ms:.0f} ms" if event.duration_ms is not None else ""
    return printable(f"{event.kind:<13} {where}{who}{how}{took} {event.message}".rstrip())


def _cell(value: object) -> str:
    """Thousands separated from 10,000 up, so years and codes read as they are written."""
    if value is None:
        return ""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, float):
        return f"{value:,.2f}"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10_000:
        return f"{value:,}"
    return printable(str(value))


def show(console: Console, answer: Answer) -> None:
    from rich.markdown import Markdown
    from rich.markup import escape
    from rich.table import Table

    console.print(Markdown(printable(answer.answer)))
    for result in answer.results:
        console.print(
            f"[bold]{escape(printable(result.title))}[/]  ({result.total:,} total)", highlight=False
        )
        if result.reading:
            console.print(
                f"Read as: {printable(result.reading)}", style="dim", highlight=False, markup=False
            )
        table = Table()
        for column in result.columns:
            table.add_column(escape(printable(column)))
        for row in result.rows[:50]:
            table.add_row(
                *(_cell(result.period_names.get(v, v) if isinstance(v, str) else v) for v in row)
            )
        console.print(table)
    for assumption in answer.assumptions:
        console.print(f"[italic]Assumed: {escape(printable(assumption))}[/]")
