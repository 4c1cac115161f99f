"""`bosun ask "QUESTION"`: one turn, as text and tables or as the JSON answer.

Every command module imports only Typer and the command line's own small modules at its top, the
rest inside the command: `bosun --help` lists every command without loading what any of them runs
on.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from bosun.interfaces.cli.process import starting
from bosun.interfaces.cli.render import pick, show, show_reply
from bosun.interfaces.cli.terminal import day, new_thread, printable, require_data, thread_name

if TYPE_CHECKING:
    from rich.console import Console

    from bosun.conversation.session import Session
    from bosun.planner.answer import Answer
    from bosun.planner.events import TurnEvent


Thread = Annotated[
    str | None,
    typer.Option(
        "--thread",
        metavar="ID",
        callback=thread_name,
        help="continue the conversation with this id, e.g. to answer a question back; without it, "
        "a new conversation",
    ),
]
AsOf = Annotated[
    str | None,
    typer.Option("--as-of", metavar="DATE", help="today's date, YYYY-MM-DD; default: the data's"),
]


@dataclass(frozen=True)
class Shown:
    """How a turn is shown: the answer as JSON, or as text with the plan; the steps as they run."""

    as_json: bool = False
    trace: bool = False
    verbose: bool = False


def ask(
    question: Annotated[str, typer.Argument(help="the question, in plain language")],
    thread: Thread = None,
    as_of: AsOf = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="print the whole answer as one JSON object, for programs"),
    ] = False,
    trace: Annotated[
        bool,
        typer.Option("--trace", help="also print the plan: its steps as a Mermaid flowchart"),
    ] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", help="show each step of the plan as it runs")
    ] = False,
) -> None:
    """Answer one question from the data.

    When Bosun needs to ask which one you meant, it prints the conversation's id and the command
    that answers each choice; in a terminal it offers the choices to pick here. Exits with 0 when
    answered or asked back, 1 when the question could not be answered.
    """
    shown = Shown(as_json, trace, verbose)
    with starting():
        from bosun.conversation.session import open_session
        from bosun.settings import load_settings

        today = day(as_of)  # a usage mistake is said before anything else
        settings = load_settings()
        require_data(settings)
        session = open_session(settings, today)
    thread_id = thread or new_thread()
    try:
        answer = _asked(session, question, thread_id, shown)
        if not as_json:
            answer = _questions_back(session, answer, thread_id, shown)
    finally:
        session.close()
    if answer.status == "failed":
        raise typer.Exit(1)


def _asked(session: Session, question: str, thread_id: str, shown: Shown) -> Answer:
    """One turn on the thread, printed as `shown` says."""
    turn = session.stream(question, thread_id, progress=shown.verbose)
    answer = _answer(turn, shown.verbose, _console(stderr=shown.as_json))
    if shown.as_json:
        typer.echo(json.dumps(answer.model_dump(mode="json"), ensure_ascii=False, indent=2))
        return answer  # the JSON answer carries the trace already
    show(_console(), answer, session.context.catalog)
    if shown.trace:
        from bosun.planner.run import render_trace_mermaid

        typer.echo(render_trace_mermaid(answer.trace))
    return answer


def _questions_back(session: Session, answer: Answer, thread_id: str, shown: Shown) -> Answer:
    """After a question back: how to reply; in a terminal, the reply picked there, answered on the
    same thread (and so on while Bosun asks back)."""
    console = _console()
    while answer.status == "needs_clarification" and answer.clarification is not None:
        show_reply(console, answer.clarification, thread_id)
        reply = pick(console, answer.clarification.options) if _at_terminal() else None
        if reply is None:
            break
        console.print()
        answer = _asked(session, reply, thread_id, shown)
    return answer


def _at_terminal() -> bool:
    """Whether a person types and reads here (both ends a terminal), so that a choice can be
    offered."""
    return sys.stdin.isatty() and sys.stdout.isatty()


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
