"""A chat line that teaches a word ("by trainers I mean footwear", "“Big Apple” = New York"): its
two parts.

Only the explicit forms of the grammar file's `teaching` list are read; a question is never one.
"""

from __future__ import annotations

import re
from functools import cache

from bosun.understanding.grammar import Grammar, english

_QUOTES = "\"'“”‘’«»"
_PART = r"(?P<{}>[^?=]+?)"


@cache
def _forms(forms: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """Each form as a pattern over the whole line: its words as written, {word} and {target} any
    text."""
    patterns = []
    for form in forms:
        pieces = re.split(r"(\{word\}|\{target\})", form)
        body = "".join(
            _PART.format(p[1:-1]) if p in ("{word}", "{target}") else _words(p) for p in pieces
        )
        patterns.append(re.compile(rf"\s*{body}\s*[.!]?\s*", re.IGNORECASE))
    return tuple(patterns)


def _words(text: str) -> str:
    """The form's own words, any spacing around and between them."""
    if not text:
        return ""
    if not text.strip():
        return r"\s+"
    return r"\s*" + r"\s+".join(re.escape(w) for w in text.split()) + r"\s*"


def taught_line(line: str, grammar: Grammar | None = None) -> tuple[str, str] | None:
    """(word, what it means) when the line is one of the teaching forms, else None."""
    for pattern in _forms(tuple((grammar or english()).teaching)):
        found = pattern.fullmatch(line)
        if found is not None:
            word, target = _bare(found.group("word")), _bare(found.group("target"))
            if word and target:
                return word, target
    return None


def _bare(text: str) -> str:
    return text.strip().strip(_QUOTES).strip()
