"""`bosun teach WORD MEANING` and `bosun catalog vocabulary list | export | remove`: taught words
(issue #25)."""

from __future__ import annotations

import getpass
from typing import TYPE_CHECKING, Annotated

import typer

from bosun.interfaces.cli.process import starting

if TYPE_CHECKING:
    from bosun.catalog.taught import TaughtWord
    from bosun.conversation.session import Session
    from bosun.conversation.vocabulary import Teacher

app = typer.Typer(no_args_is_help=True)
KIND_HELP = (
    "what the word is: field, measure, object (a synonym), alias (of a name) or value (a value "
    "word)"
)


def teacher() -> tuple[Session, Teacher]:
    """The configured deployment's session and its taught words."""
    with starting():
        from bosun.conversation.session import open_session
        from bosun.settings import load_settings

        session = open_session(load_settings())
    assert session.teacher is not None
    return session, session.teacher


def who() -> str:
    """Who teaches from this terminal: the OS user, else "local"; an administrator of the
    deployment (the files are theirs)."""
    try:
        return getpass.getuser() or "local"
    except (KeyError, OSError):  # no user name for this uid (a container)
        return "local"


def teach(
    word: Annotated[str, typer.Argument(help="the word people use: “trainers”, “Big Apple”")],
    meaning: Annotated[
        str,
        typer.Argument(
            help="what it means, in the catalog's words: a field, measure, object, value or name"
        ),
    ],
    kind: Annotated[str | None, typer.Option("--as", help=KIND_HELP)] = None,
    confirm: Annotated[
        bool,
        typer.Option(
            "--confirm",
            help="teach it even where it shadows a word Bosun already knows (never a word of the "
            "grammar, or a date or number word)",
        ),
    ] = False,
) -> None:
    """Teach a word: every later question, on every thread and in every process, reads it so."""
    from bosun.catalog.taught import KINDS
    from bosun.errors import TeachingRefused

    if kind is not None and kind not in KINDS:
        raise typer.BadParameter(f"{kind!r} is none of {', '.join(KINDS)}", param_hint="--as")
    session, taught = teacher()
    try:
        # the local user administers their own deployment: they may teach a known word anew
        entry = taught.teach(
            taught.proposed(word, meaning, kind, who()), confirmed=confirm, admin=True
        )
    except TeachingRefused as exc:
        for problem in exc.problems:
            typer.echo(f"not taught: {problem}", err=True)
        raise typer.Exit(1) from None
    finally:
        session.close()
    typer.echo(f"taught: “{entry.word}” means {entry.means()} ({entry.kind})")


@app.command("list")
def list_words(
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
) -> None:
    """The taught words: the word, what it means, who taught it and when."""
    session, taught = teacher()
    words = taught.store.words()
    session.close()
    for entry in words:
        line = (
            entry.model_dump_json()
            if as_json
            else (f"{entry.word}\t{entry.kind}\t{entry.means()}\t{entry.by}\t{entry.on}")
        )
        typer.echo(line)


@app.command()
def export() -> None:
    """The taught words as catalog YAML, to merge into the catalog file."""
    import yaml

    from bosun.catalog.taught import catalog_yaml

    session, taught = teacher()
    words = taught.store.words()
    record = session.context.catalog.spec.record
    session.close()
    typer.echo(
        yaml.safe_dump(catalog_yaml(words, record), allow_unicode=True, sort_keys=False).rstrip()
    )


@app.command()
def remove(word: Annotated[str, typer.Argument(help="the taught word")]) -> None:
    """Forget a taught word; exit 1 when it was not taught."""
    session, taught = teacher()
    removed = taught.store.remove(word)
    session.close()
    if not removed:
        typer.echo(f"“{word}” is not a taught word", err=True)
        raise typer.Exit(1)
    typer.echo(f"removed “{word}”")


class ChatTeaching:
    """`bosun chat`'s teaching lines: "by trainers I mean footwear", and /confirm for one that
    shadows a word."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.pending: TaughtWord | None = None

    def handle(self, line: str) -> str | None:
        """What to say when the line teaches (or confirms) a word; None when it is a question."""
        from bosun.understanding.teaching import taught_line

        if line == "/confirm" and self.pending is not None:
            return self._taught(self.pending, confirmed=True)
        parts = taught_line(line)
        if parts is None:
            return None
        assert self.session.teacher is not None
        from bosun.errors import TeachingRefused

        try:
            entry = self.session.teacher.proposed(parts[0], parts[1], by=who())
        except TeachingRefused as exc:
            return f"not taught: {'; '.join(exc.problems)}"
        return self._taught(entry, confirmed=False)

    def _taught(self, entry: TaughtWord, confirmed: bool) -> str:
        from bosun.errors import TeachingRefused

        assert self.session.teacher is not None
        self.pending = None
        try:
            self.session.teacher.teach(entry, confirmed=confirmed, admin=True)
        except TeachingRefused as exc:
            shadowing = exc.shadowing
            self.pending = entry if shadowing else None
            return f"not taught: {'; '.join(exc.problems)}" + (
                " (/confirm teaches it)" if shadowing else ""
            )
        return f"taught: “{entry.word}” means {entry.means()}"
