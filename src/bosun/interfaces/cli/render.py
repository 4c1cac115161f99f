"""What `ask`, `chat` and `demo` print of an answer: its text, each result under a heading with
what it was read as and its table, its assumptions, the other readings it could take as follow-ups
to run; and for a question back, how to reply."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from bosun.interfaces.cli.tables import table_of
from bosun.interfaces.cli.terminal import printable

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from bosun.catalog import Catalog
    from bosun.planner.answer import Answer, Trace, TraceEntry
    from bosun.workers.models import Clarification

_UNQUOTED = set('"$`\\!')  # what a double-quoted shell word cannot hold as it is
_FOLLOWS = "→"  # between the earlier turns and the reply in a follow-up's title (understanding)


def show(console: Console, answer: Answer, catalog: Catalog, in_thread: bool = False) -> None:
    """The answer as text (its figures as the answer writes them) and tables; each other reading as
    the command that asks for it (`in_thread`, as in `chat`: the question to type, and then the
    questions suggested next)."""
    from rich.markdown import Markdown
    from rich.markup import escape

    console.print(Markdown(printable(answer.answer)))
    for result in answer.results:
        title = escape(printable(heading(result.title, answer.question)))
        console.print(f"[bold]{title}[/]  ({result.total:,} total)", highlight=False)
        if result.reading:
            console.print(
                f"Read as: {printable(result.reading)}", style="dim", highlight=False, markup=False
            )
        console.print(table_of(result, catalog))
    for assumption in answer.assumptions:
        console.print(f"[italic]Assumed: {escape(printable(assumption))}[/]")
    _show_choices(console, answer, in_thread)
    if in_thread:
        _show_suggestions(console, answer)


def _show_choices(console: Console, answer: Answer, in_thread: bool) -> None:
    """ "“last month” as departure date: bosun ask --thread 1a2b… "last month by departure
    date"", one line per other reading."""
    lines = [
        (f"“{choice.said}” as {other.label}", other.question)
        for choice in answer.choices
        for other in choice.others
    ]
    if not lines:
        return
    console.print("To read it another way, ask:", highlight=False, markup=False)
    for reading, question in lines:
        asked = question if in_thread else follow_up_command(question, answer.thread_id)
        console.print(
            f"  {printable(reading)}: {printable(asked)}",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )


def _show_suggestions(console: Console, answer: Answer) -> None:
    """What to ask next, one question a line, as it is typed."""
    if not answer.suggestions:
        return
    console.print("You could ask next:", highlight=False, markup=False)
    for question in answer.suggestions:
        console.print(f"  {printable(question)}", highlight=False, markup=False, soft_wrap=True)


def follow_up_command(question: str, thread_id: str) -> str:
    """The command that asks `question` on the conversation."""
    return f"bosun ask --thread {thread_id} {_quoted(question)}"


def heading(title: str, question: str) -> str:
    """A result's heading: its title, or the question this turn asked where the title is a
    follow-up's, the earlier turns' then this one ("Top 5 shippers … → what about Long Beach?" is
    "what about Long Beach?"), so that the heading does not grow; the reading under it says the
    rest."""
    asked = question.strip()
    return asked if asked and title.endswith(f"{_FOLLOWS} {asked}") else title


def reply_commands(clarification: Clarification, thread_id: str) -> list[str]:
    """The commands that answer a question back on its conversation, one per option (or one to
    fill in when it offers none)."""
    replies = clarification.options or ["your answer"]
    return [follow_up_command(reply, thread_id) for reply in replies]


def show_reply(console: Console, clarification: Clarification, thread_id: str) -> None:
    """How to answer a question back later: the conversation's id and the command for each
    option."""
    console.print()
    console.print(
        f"This conversation is {thread_id}. To answer, run one of:", highlight=False, markup=False
    )
    for command in reply_commands(clarification, thread_id):
        console.print(f"  {printable(command)}", highlight=False, markup=False, soft_wrap=True)


def pick(console: Console, options: list[str]) -> str | None:
    """The reply typed at a terminal: an option by its number, or words of one's own; None for an
    empty line or the end of input."""
    while (typed := _typed(console, _prompt(options))) is not None:
        chosen = _chosen(typed, options)
        if chosen is not None:
            return chosen
        console.print(f"{typed} is not one of the options", highlight=False, markup=False)
    return None


def _prompt(options: list[str]) -> str:
    if not options:
        return "Your answer (Enter to stop): "
    numbers = f"1–{len(options)}" if len(options) > 1 else "1"
    return f"Answer here with a number ({numbers}) or your own words; Enter to stop: "


def _typed(console: Console, prompt: str) -> str | None:
    """A line typed at the prompt; None for an empty line, the end of input or Ctrl-C."""
    try:
        typed = console.input(prompt, markup=False).strip()
    except (EOFError, KeyboardInterrupt):
        console.print()
        return None
    return typed or None


def _chosen(typed: str, options: list[str]) -> str | None:
    """The option numbered `typed`, or the typed words themselves; None for a number out of
    range."""
    if not options or not typed.isdigit():
        return typed
    number = int(typed)
    return options[number - 1] if 1 <= number <= len(options) else None


def _quoted(reply: str) -> str:
    """A reply as one shell word: in double quotes where that keeps it as it is, else as shlex
    quotes it."""
    if _UNQUOTED.isdisjoint(reply):
        return f'"{reply}"'
    return shlex.quote(reply)


def plan_table(trace: Trace) -> Table:
    """How an answer was computed: each step of its plan, round by round, with the steps whose
    results it took, how it ended and how long it took; then what the plan's checks noted and
    what the reading's audit found."""
    from rich.table import Table
    from rich.text import Text

    steps = len(trace.sub_goals)
    table = Table(title=f"plan: {steps} steps in {trace.rounds} rounds", title_justify="left")
    for header in ("round", "step", "worker", "took results of", "status", "time"):
        table.add_column(header, justify="right" if header in ("round", "time") else "left")
    for entry in sorted(trace.sub_goals, key=lambda e: (e.round or 0, e.id)):
        table.add_row(*(Text(cell) for cell in _plan_row(entry)))
    checked = [*trace.notes, *_audited(trace)]
    if checked:
        table.caption = printable(" · ".join(checked))
        table.caption_justify = "left"
    return table


def _audited(trace: Trace) -> list[str]:
    """The coverage audit's verdicts: every word read, or the words the reading left unread."""
    return [
        f"goal {v.goal_id}: every word read"
        if v.approved
        else f"goal {v.goal_id}: not read as asked: " + "; ".join(v.reasons())
        for v in trace.audits
    ]


def _plan_row(entry: TraceEntry) -> list[str]:
    """One step: its round, id, worker, inputs ("es_query of sg2"), status (with its error) and
    time."""
    inputs = ", ".join(f"{name} of {source.split('.')[0]}" for name, source in entry.inputs.items())
    status = f"{entry.status}: {entry.error}" if entry.error else entry.status
    took = f"{entry.duration_ms:.0f} ms" if entry.duration_ms is not None else ""
    return [str(entry.round or ""), f"sg{entry.id}", entry.worker, inputs, printable(status), took]
