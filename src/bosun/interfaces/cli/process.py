"""How a command runs as a process: whether it is the whole process, and its start-up without the
collector."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


class Process:
    """Whether the command is the whole process (`main`), not one call among others (tests,
    embedding)."""

    whole = False


@contextmanager
def starting() -> Iterator[None]:
    """A command's imports and opening of its session, without the cyclic garbage collector.

    Start-up allocates a few hundred thousand objects that live as long as the process (modules,
    classes, schemas, the catalog); the collector would traverse them again and again and find
    nothing, about a sixth of `bosun ask`'s time. Then they are frozen out of its way; the collector
    runs as usual for the turns. Only when the command is the whole process (`main`). They stay
    frozen at exit: the collections there would traverse them once more (about 0.3 s) to finalise
    what the command has closed already (its session's stores and engine).
    """
    if not Process.whole:  # a host process's collector is left as it is
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()
