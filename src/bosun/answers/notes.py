"""What an answer notes besides its figures: the taught words the question used and the offer to
remember a pick made at a question back (issue #25); a chat model's text or query clause that was
not used, or what a clause it wrote read."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bosun.answers.grammar import Notes, writing
from bosun.catalog.taught import TaughtWord
from bosun.understanding.meaning import Meaning
from bosun.understanding.names import normalize
from bosun.understanding.reading import AskedBack


def taught_notes(read: Sequence[TaughtWord], not_understood: list[str]) -> list[str]:
    """The assumptions to add: each taught word the question was read through, as what it was
    taught to mean (none the answer reports as not understood)."""
    missed = {normalize(w) for w in not_understood}
    return [
        _words().taught.format(word=word.word, means=word.means(), by=word.by, on=word.on[:10])
        for word in read
        if normalize(word.word) not in missed
    ]


def picked(asked: AskedBack, meaning: Meaning) -> str | None:
    """The one option of a question back that the reply's meaning names, or None."""
    picks = [e.value for e in meaning.entities if e.value in asked.options]
    return picks[0] if len(picks) == 1 else None


def remember_offer(offered: TaughtWord) -> str:
    """The answer's closing question: shall the pick be taught as an alias?"""
    return _words().remember.format(word=offered.word, target=offered.target)


def model_text_unused(prompt: str, why: str) -> str:
    """The model's rewrite of a worker's text was refused: the rules' text stands."""
    return _words().model_text_unused.format(prompt=prompt, why=why[:200])


def model_clause_unused(why: str) -> str:
    """The model's filter clause for words not understood was refused: they stay unused."""
    return _words().model_clause_unused.format(why=why[:200])


def model_clause_read(words: list[str], clause: dict[str, Any]) -> str:
    """What words the reading did not understand were read as: the model's filter clause."""
    return _words().model_clause_read.format(
        words=" ".join(words), clause=json.dumps(clause, ensure_ascii=False)
    )


def _words() -> Notes:
    return writing().notes
