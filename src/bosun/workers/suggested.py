"""The questions an answer with figures suggests asking next (`answers.suggestions`), kept only
where the rules read each back into the Meaning it was made from, so a click asks what it says."""

from __future__ import annotations

from bosun import answers
from bosun.query import Table
from bosun.understanding import Meaning
from bosun.understanding.rules import RulesUnderstanding
from bosun.workers.context import Context


def next_questions(meaning: Meaning, table: Table, ctx: Context) -> list[str]:
    """The suggestions the rules read back as made."""
    if not table.rows:
        return []
    first_key = table.rows[0][0] if meaning.group_by else None
    made = answers.suggestions(meaning, first_key, ctx.catalog)
    if not made:
        return []
    # the catalog's names alone, no name vectors: a suggestion names values as the data spells them,
    # and checking one loads nothing more than the answer did
    reader = RulesUnderstanding(ctx.catalog)
    questions = [answers.suggested(m, ctx.catalog) for m in made]
    return [q for q in questions if _read_back(q, reader, ctx)]


def _read_back(question: str, reader: RulesUnderstanding, ctx: Context) -> bool:
    """The question read by the rules says itself again, every word used."""
    read = reader.analyze(question, ctx.today())
    return not read.not_understood and answers.read_back(read, ctx.catalog) == question
