"""A reply to "which one did you mean?": the option it picks, and what else it says."""

from __future__ import annotations

import re
from datetime import date

from bosun.understanding.names import normalize
from bosun.understanding.rules import RulesUnderstanding

_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "fifth": 4,
             "5th": 4, "last": -1}
_ORDINAL = re.compile(rf"\b({'|'.join(_ORDINALS)})\b|^\s*(?:number\s+|no\.?\s*|#\s*|option\s+)?(\d{{1,2}})\s*\W*$",
                      re.I)


def pick(reply: str, options: list[str], understanding: RulesUnderstanding, today: date) -> tuple[str | None, str]:
    """(the option chosen, or None; the rest of the reply): by name, by position, or by a description."""
    lowered = f" {normalize(reply)} "
    named = sorted((o for o in options if f" {normalize(o)} " in lowered), key=len, reverse=True)
    if named:
        return named[0], _without(reply, named[0])
    ordinal = _ORDINAL.search(reply)
    if ordinal:
        index = _ORDINALS[ordinal.group(1).lower()] if ordinal.group(1) else int(ordinal.group(2)) - 1
        if -len(options) <= index < len(options):
            return options[index], ""
    return _described(reply, options, understanding, today), ""


def _described(reply: str, options: list[str], understanding: RulesUnderstanding, today: date) -> str | None:
    """ "the one in Hong Kong": the only option whose reference row holds a value the reply names."""
    own = understanding.analyze(reply, today)
    said = {str(v) for c in own.conditions for v in c.values} | {e.value for e in own.entities}
    fitting = []
    for option in options:
        rows = [c.attributes for c in understanding.index.names.get(normalize(option), []) if c.value == option]
        if said and any(said & {str(v) for v in row.values()} for row in rows):
            fitting.append(option)
    return fitting[0] if len(fitting) == 1 else None


def replace_term(text: str, term: str, value: str) -> str:
    """The question with the ambiguous term replaced by the option chosen."""
    replaced, count = re.subn(re.escape(term), value, text, count=1, flags=re.I)
    return replaced if count else f"{text} ({value})"


def _without(reply: str, option: str) -> str:
    rest = re.sub(re.escape(option), " ", reply, count=1, flags=re.I)
    return re.sub(r"^[\s,;:.-]+|[\s,;:.-]+$", "", rest)
