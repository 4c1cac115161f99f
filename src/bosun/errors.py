"""Every error Bosun raises on purpose, in three groups.

    BosunError
    ├── UserError                 the question or the input is at fault; say so and carry on
    │   ├── UnknownEntity         a name that resolves to nothing in the catalog or the data
    │   ├── UnknownTurn           a thread's turn that was never answered (marking an answer)
    │   ├── UnknownThread         a thread that does not exist, or is another caller's
    │   ├── InvalidReading        a reading of the question that names what the catalog lacks
    │   ├── UnsupportedQuery      a query the engine cannot answer exactly (names the clause)
    │   │   └── BadQuery          a malformed query: a parameter of the wrong type or range (names
      both)
    │   ├── GuardrailViolation    a query outside the read-only policy (script, write, cap, index)
    │   ├── Unauthorized          the caller's engine credentials are missing or the cluster refused
      them
    │   ├── Forbidden             the cluster does not let the caller's credentials read what was
      asked
    │   ├── LoadError             a data file that cannot be loaded (names the file, row and
      problem)
    │   └── TeachingRefused       a taught word that is no sound catalog entry (says every reason)
    ├── ConfigError               the installation is at fault; fix settings or files
    │   ├── SettingsError         a bad setting (unknown engine kind, malformed URL, ...)
    │   ├── CatalogError          a catalog file that does not validate (names the key)
    │   └── MissingIndex          an index that is not loaded or not allowed
    └── RunFailure                something outside went wrong while running
        ├── EngineUnavailable     the engine cannot be reached (names the URL)
        ├── QueryTimeout          a query or a worker took longer than allowed
        ├── MemoryLimitExceeded   a query or a load needs more memory than the embedded engine may
        use
        ├── StoreError            the conversation store is corrupt or locked
        │   └── StoreUnwritable   its disk is full or read-only (a turn can still be answered,
          unsaved)
        └── ModelFailure          the chat model could not be reached or gave no usable answer
            └── TokenBudgetSpent  the turn used the model tokens it was allowed

Messages are one line a person can act on, quoting at most 80 characters of a value (`quoting`).
Code catches the narrowest class it can handle;
only the planner's worker executor records arbitrary exceptions, as failed results.
"""

from __future__ import annotations

import re

QUOTED_CHARS = 80  # the most of a value (a cell, a word) a message quotes
_QUOTED = re.compile(rf'"([^"]{{{QUOTED_CHARS + 1},}})"')  # a value quoted longer than that


def quoting(message: str) -> str:
    """The message with each value it quotes in double quotes cut to its first `QUOTED_CHARS`
    characters: a 2 MB cell is quoted by its start, not whole."""
    return _QUOTED.sub(lambda found: f'"{found.group(1)[:QUOTED_CHARS]}…"', message)


class BosunError(Exception):
    """Base of every error Bosun raises on purpose."""


class UserError(BosunError):
    """The question or the input is at fault."""


class UnknownEntity(UserError):
    """A name resolves to nothing."""

    def __init__(self, term: str, message: str | None = None) -> None:
        self.term = term
        super().__init__(message or f"I don't know {term!r}.")


class UnknownTurn(UserError):
    """A turn number the thread has no answer for."""


class UnknownThread(UserError):
    """A thread id that names no thread the requester may read (none, or another caller's)."""


class InvalidReading(UserError):
    """A reading names a field, value, measure or aggregation the catalog does not have: never a
    query."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(
            f"I read the question in a way the data cannot answer ({'; '.join(problems)})."
        )


class TeachingRefused(UserError):
    """A taught word refused: badly shaped, naming nothing in the catalog, a word the readers keep
    to themselves, shadowing a word unconfirmed (`shadowing`), or shadowing it without being an
    administrator (`admin_only`)."""

    def __init__(
        self, problems: list[str], shadowing: bool = False, admin_only: bool = False
    ) -> None:
        self.problems, self.shadowing, self.admin_only = problems, shadowing, admin_only
        super().__init__("not taught: " + "; ".join(problems))


class UnsupportedQuery(UserError):
    """The engine cannot answer this query exactly; the message names the clause."""

    def __init__(self, clause: str, detail: str = "") -> None:
        self.clause = clause
        suffix = f": {detail}" if detail else ""
        super().__init__(f"unsupported query clause {clause!r}{suffix}")


class BadQuery(UnsupportedQuery):
    """A malformed query: the message names the clause and the parameter at fault."""

    def __init__(self, clause: str, detail: str) -> None:
        self.clause = clause
        UserError.__init__(self, f"bad query: {clause}: {detail}")


class GuardrailViolation(UserError):
    """The query breaks the read-only policy."""


class Unauthorized(UserError):
    """The caller's engine credentials are missing, malformed or refused by the cluster (never
    quoted)."""


class Forbidden(UserError):
    """The cluster knows the caller's credentials but does not let them read what was asked."""


class LoadError(UserError):
    """A data file cannot be loaded: one line naming the file, the row when known, and the
    problem."""


class ConfigError(BosunError):
    """The installation is at fault."""


class SettingsError(ConfigError):
    """A setting is invalid."""


class CatalogError(ConfigError):
    """A catalog file does not validate; `problems` lists each one with its key path."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        self.problems = problems or [message]
        super().__init__(message)


class MissingIndex(ConfigError):
    """An index is not loaded or not allowed."""


class RunFailure(BosunError):
    """Something outside Bosun went wrong while running."""


class EngineUnavailable(RunFailure):
    """The engine cannot be reached."""


class QueryTimeout(RunFailure):
    """A query or a worker ran out of time."""


class MemoryLimitExceeded(RunFailure):
    """A query or a load needs more memory than the embedded engine may use (names the limit and its
    setting)."""


class StoreError(RunFailure):
    """The conversation store is corrupt or locked."""


class ModelFailure(RunFailure):
    """The chat model could not be reached, or answered nothing usable even after the retry."""


class TokenBudgetSpent(ModelFailure):
    """The turn used its model token budget (BOSUN_LLM_TURN_TOKEN_BUDGET): the model is asked
    nothing more."""


class StoreUnwritable(StoreError):
    """The store's disk is full or read-only: nothing can be saved, though questions can be
    answered."""
