"""`/right` and `/wrong [FIGURE] [CORRECTION]` in `bosun chat`: mark the conversation's last
answer."""

from __future__ import annotations

import getpass
from typing import TYPE_CHECKING

from bosun.errors import BosunError
from bosun.interfaces.cli.terminal import printable

if TYPE_CHECKING:
    from rich.console import Console

    from bosun.conversation.session import Session

COMMANDS = ("/right", "/wrong")
# each command as `chat`'s /help lists it: how it is typed, what it does
USAGE = [
    ("/right", "mark the last answer right"),
    ("/wrong [figure] [what was wrong]", "mark it wrong, with the right figure or what was wrong"),
]


def is_mark(line: str) -> bool:
    return line.split(maxsplit=1)[0] in COMMANDS if line else False


def figure_and_note(text: str) -> tuple[float | None, str]:
    """A leading number ("1,234", "56.7") is the corrected figure; the rest is the correction in
    words."""
    first, _, rest = text.strip().partition(" ")
    try:
        return float(first.replace(",", "")), rest.strip()
    except ValueError:
        return None, text.strip()


def mark_last(session: Session, console: Console, line: str, thread_id: str) -> None:
    """Mark the thread's last stored turn right or wrong, and say what was recorded."""
    from bosun.conversation.marking import mark_turn

    command, _, text = line.partition(" ")
    last = session.store.recent(thread_id, 1)
    if not last:
        console.print("no answer to mark yet on this conversation", highlight=False)
        return
    figure, note = figure_and_note(text) if command == "/wrong" else (None, "")
    try:
        mark = mark_turn(
            session, thread_id, last[0].turn_id, command == "/right", _who(), figure, note
        )
    except BosunError as exc:
        console.print(printable(str(exc)), style="red", highlight=False, markup=False)
        return
    said = "right" if mark.right else "wrong"
    extra = f" (should be {mark.figure:g})" if mark.figure is not None else ""
    console.print(f"marked turn {mark.turn} {said}{extra}", highlight=False, markup=False)


def _who() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no user name in the environment or the password database
        return "someone"
