"""`bosun chat`: a conversation at the terminal, one thread at a time."""

from __future__ import annotations

import atexit
import contextlib
import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bosun.errors import BosunError
from bosun.interfaces.cli import marking
from bosun.interfaces.cli.ask_cmd import AsOf, describe
from bosun.interfaces.cli.process import starting
from bosun.interfaces.cli.render import plan_table, show
from bosun.interfaces.cli.teach_cmd import ChatTeaching
from bosun.interfaces.cli.terminal import day, new_thread, printable, require_data, thread_name

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from bosun.conversation.session import Session
    from bosun.planner.answer import Answer

# each command as /help lists it: how it is typed, what it does
COMMANDS = [
    ("/new", "start a new conversation"),
    ("/trace", "show how the last answer was computed: the plan's steps, round by round"),
    *marking.USAGE,
    ("by X I mean Y", "teach a word, for every later question (/confirm where it shadows one)"),
    ("/help", "list these commands"),
    ("/quit", "leave (Ctrl-D too)"),
]
HELP = "/help lists the commands"


def chat(
    thread: Annotated[
        str | None,
        typer.Option(
            "--thread",
            metavar="ID",
            callback=thread_name,
            help="continue the conversation with this id; without it, a new conversation",
        ),
    ] = None,
    as_of: AsOf = None,
) -> None:
    """Talk with your data: follow-ups, refinements and replies to questions build on the last
    turns. Type /help there for the commands."""
    with starting():
        from rich.console import Console

        from bosun.conversation.session import open_session
        from bosun.settings import load_settings

        today = day(as_of)  # a usage mistake is said before anything else
        settings = load_settings()
        require_data(settings)
        session = open_session(settings, today)
    # a line that is not UTF-8 is read with U+FFFD, not a crash
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    _remember_lines(settings.data_dir / "chat_history")
    try:
        _converse(session, Console(), thread or new_thread())
    finally:
        session.close()


def _converse(session: Session, console: Console, thread_id: str) -> None:
    """Read lines until /quit or the end of input: each a command, a taught word or a turn."""
    teaching = ChatTeaching(session)
    console.print(f"[bold]Bosun[/] — conversation {thread_id}.  {HELP}", highlight=False)
    last: Answer | None = None
    while (line := _read(console)) is not None and line not in ("/quit", "/exit"):
        if line == "/new":
            thread_id = new_thread()
            console.print(f"new conversation {thread_id}", highlight=False)
        elif line == "/help":
            console.print(commands_table())
        elif line == "/trace":
            _show_plan(console, last)
        elif marking.is_mark(line):
            marking.mark_last(session, console, line, thread_id)
        elif (said := teaching.handle(line)) is not None:
            console.print(said, highlight=False, markup=False)
        elif line.startswith("/"):
            console.print(
                f"unknown command {printable(line)}; {HELP}", highlight=False, markup=False
            )
        elif line:
            last = _turn(session, console, line, thread_id) or last
            console.print()  # a blank line before the next question


def commands_table() -> Table:
    """The commands /help lists, with what each does."""
    from rich.table import Table
    from rich.text import Text

    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    for usage, what in COMMANDS:
        table.add_row(Text(usage, style="bold"), Text(what))
    return table


def _show_plan(console: Console, last: Answer | None) -> None:
    if last is None:
        console.print("no answer yet on this conversation", highlight=False)
        return
    console.print(plan_table(last.trace))


def _turn(session: Session, console: Console, line: str, thread_id: str) -> Answer | None:
    """One turn with live progress; an error is printed and the conversation goes on."""
    from bosun.planner.events import TurnEvent

    answer = None
    try:
        with console.status("thinking …") as status:
            for item in session.stream(line, thread_id):
                if isinstance(item, TurnEvent) and item.kind == "resumed":
                    console.print(describe(item), style="dim", highlight=False, markup=False)
                elif isinstance(item, TurnEvent):
                    status.update(describe(item))
                else:
                    answer = item
    except BosunError as exc:
        console.print(printable(str(exc)), style="red", highlight=False, markup=False)
        return None
    if answer is not None:
        show(console, answer, session.context.catalog, in_thread=True)
    return answer


def _read(console: Console) -> str | None:
    try:
        return console.input("[bold cyan]you>[/] ").strip()
    except (EOFError, KeyboardInterrupt):
        console.print()
        return None


def _remember_lines(path: Path) -> None:
    """Arrow keys recall earlier lines, across runs, where the platform has readline."""
    try:
        import readline
    except ImportError:  # Windows without pyreadline
        return
    with contextlib.suppress(OSError):
        readline.read_history_file(str(path))
    atexit.register(_save_lines, readline.write_history_file, path)


def _save_lines(write: Callable[[str], None], path: Path) -> None:
    """Keep the lines for the next run; a data directory gone or unwritable by then only loses
    them."""
    with contextlib.suppress(OSError):
        write(str(path))
