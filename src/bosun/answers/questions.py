"""The questions an answer asks back: which of several matching names was meant."""

from __future__ import annotations

from bosun.answers.grammar import writing


def which_one(term: str, preface: str = "") -> str:
    """The question back for a name that matches several options."""
    return writing().questions.which_one.format(preface=preface, term=term)


def ambiguous(term: str) -> str:
    """What a result that stops to ask says of the name."""
    return writing().questions.ambiguous.format(term=term)
