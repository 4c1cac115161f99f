"""`bosun chat`: a conversation at the terminal, one thread at a time."""

from __future__ import annotations

import atexit
import contextlib
import io
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bosun.errors import BosunError
from bosun.interfaces.cli import marking
from bosun.interfaces.cli.ask_cmd import describe, show
from bosun.interfaces.cli.process import starting
from bosun.interfaces.cli.teach_cmd import ChatTeaching
from bosun.interfaces.cli.terminal import day, printable, thread_name

if TYPE_CHECKING:
    from rich.console import Console

    from bosun.conversation.session import Session
    from bosun.planner.answer import Answer

HELP = (
    f"/new starts a new conversation · /trace shows the last turn's plan · {marking.HELP} · "
    "“by X I mean Y” teaches a word · /quit leaves"
)


def chat(
    thread: Annotated[
        str | None,
        typer.Option("--thread", callback=thread_name, help="continue this conversation"),
    ] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", help="today's date, YYYY-MM-DD")] = None,
) -> None:
    """Talk with your data: follow-ups, refinements and replies to questions build on the last
    turns."""
    with starting():
        from rich.console import Console

        from bosun.conversation.session import open_session
        from bosun.planner.run import render_trace_mermaid
        from bosun.settings import load_settings

        settings = load_settings()
        session = open_session(settings, day(as_of))
    # a line that is not UTF-8 is read with U+FFFD, not a crash
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    _remember_lines(settings.data_dir / "chat_history")
    console = Console()
    teaching = ChatTeaching(session)
    thread_id = thread or _new_thread()
    console.print(f"[bold]Bosun[/] — conversation {thread_id}.  {HELP}", highlight=False)
    last: Answer | None = None
    try:
        while (line := _read(console)) is not None:
            if line in ("/quit", "/exit"):
                break
            if line == "/new":
                thread_id = _new_thread()
                console.print(f"new conversation {thread_id}", highlight=False)
            elif line == "/trace":
                console.print(
                    render_trace_mermaid(last.trace) if last else "no turn yet", highlight=False
                )
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
    finally:
        session.close()


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
        show(console, answer)
    return answer


def _read(console: Console) -> str | None:
    try:
        return console.input("[bold cyan]you>[/] ").strip()
    except (EOFError, KeyboardInterrupt):
        console.print()
        return None


def _new_thread() -> str:
    return uuid.uuid4().hex[:12]


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
