"""The questions an answer asks back: which of several matching names was meant, or whether the one
name close to what was said was."""

from __future__ import annotations

from bosun.answers.grammar import writing


def which_one(term: str, preface: str = "") -> str:
    """The question back for a name that matches several options."""
    return writing().questions.which_one.format(preface=preface, term=term)


def did_you_mean(term: str, option: str, preface: str = "") -> str:
    """The question back for a name only like one name the data holds."""
    return writing().questions.did_you_mean.format(preface=preface, term=term, option=option)


def ambiguous(term: str) -> str:
    """What a result that stops to ask says of the name."""
    return writing().questions.ambiguous.format(term=term)
