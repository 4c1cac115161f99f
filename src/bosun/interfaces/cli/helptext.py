"""Help written for people: a flag (`--json`, `--help`) shows no type tag such as "<bool>" beside
it.

Typer writes each parameter's type into `--help` unless the parameter has a metavar; a flag takes no
value, so its metavar is made empty. `plain_help(app)` builds every command and group of the tree
with the classes here; a group with a class of its own derives from `HelpGroup`.
"""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup
from typer.models import DefaultPlaceholder


class HelpCommand(TyperCommand):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _untagged(self.params)

    def get_help_option(self, ctx: Any) -> Any:  # typer's own (vendored) click Context
        option = super().get_help_option(ctx)
        _untagged([option])
        return option


class HelpGroup(TyperGroup):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _untagged(self.params)

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        _untagged([option])
        return option


def plain_help(app: typer.Typer) -> None:
    """Build `app`'s groups and commands, and those of the groups added to it, with the classes
    above."""
    if isinstance(app.info.cls, DefaultPlaceholder) or app.info.cls is None:
        app.info.cls = HelpGroup
    if not issubclass(app.info.cls, HelpGroup):
        raise TypeError(f"{app.info.cls.__name__} should derive from HelpGroup")
    for command in app.registered_commands:
        if command.cls in (None, TyperCommand):
            command.cls = HelpCommand
    for group in app.registered_groups:
        if group.typer_instance is not None:
            plain_help(group.typer_instance)


def _untagged(params: list[Any]) -> None:
    """Flags without a type tag in the help: their metavar empty, unless one was given."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
