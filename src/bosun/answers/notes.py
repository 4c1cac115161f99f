"""What an answer says about taught words (issue #25): those the question used, and the offer to
remember a pick made at a question back."""

from __future__ import annotations

from collections.abc import Sequence

from bosun.catalog.taught import TaughtWord
from bosun.understanding.meaning import Meaning
from bosun.understanding.names import normalize
from bosun.understanding.reading import AskedBack


def taught_notes(read: Sequence[TaughtWord], not_understood: list[str]) -> list[str]:
    """The assumptions to add: each taught word the question was read through, as what it was
    taught to mean (none the answer reports as not understood)."""
    missed = {normalize(w) for w in not_understood}
    return [
        f"“{word.word}” read as {word.means()} — taught by {word.by} on {word.on[:10]}"
        for word in read
        if normalize(word.word) not in missed
    ]


def picked(asked: AskedBack, meaning: Meaning) -> str | None:
    """The one option of a question back that the reply's meaning names, or None."""
    picks = [e.value for e in meaning.entities if e.value in asked.options]
    return picks[0] if len(picks) == 1 else None


def remember_offer(offered: TaughtWord) -> str:
    """The answer's closing question: shall the pick be taught as an alias?"""
    return f"Remember that “{offered.word}” means {offered.target}?"
