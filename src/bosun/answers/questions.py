"""The questions an answer asks back: which of several matching names was meant."""

from __future__ import annotations


def which_one(term: str, preface: str = "") -> str:
    """The question back for a name that matches several options."""
    return f"{preface}“{term}” matches several names. Which one did you mean?"


def ambiguous(term: str) -> str:
    """What a result that stops to ask says of the name."""
    return f"“{term}” is ambiguous"
