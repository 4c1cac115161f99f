"""A reply to "which one did you mean?": the option it picks, and what else it says.

By name ("Acme Corp LLC, in 2025"), by position ("the second", "2", "the last one"), or by something
only that option has: a value of its reference row ("the one in Vietnam", "the Vietnamese one") or a
word of its name ("the LLC").
"""

from __future__ import annotations

import re
from datetime import date

from bosun.understanding.names import normalize
from bosun.understanding.reading import TaggingUnderstanding
from bosun.understanding.tagger import Span


def pick(
    reply: str, options: list[str], understanding: TaggingUnderstanding, today: date
) -> tuple[str | None, str]:
    """(the option chosen, or None; the rest of the reply): by name, by a yes to the one option
    offered, by position, or by a description."""
    lowered = f" {normalize(reply)} "
    named = sorted((o for o in options if f" {normalize(o)} " in lowered), key=len, reverse=True)
    if named:
        return named[0], _without(reply, named[0])
    agreed = _agreed(reply, options, understanding.grammar.replies.agree)
    if agreed is not None:
        return options[0], agreed
    spans = understanding.spans(reply, today)
    position = _position(spans, len(options))
    if position is not None:
        return options[position], ""
    return _described(reply, spans, options, understanding, today), ""


def _agreed(reply: str, options: list[str], agree: list[str]) -> str | None:
    """ "yes", "yes, in 2025": a reply that agrees to the one option offered, and the rest of it;
    None when it does not, or when there were several options."""
    if len(options) != 1:
        return None
    for phrase in sorted(agree, key=len, reverse=True):
        words = r"\W+".join(re.escape(w) for w in phrase.split())
        said = re.match(rf"\W*{words}\b", reply, re.IGNORECASE)
        if said:
            return reply[said.end() :].strip(" \t,;:.!-")
    return None


def _position(spans: list[Span], count: int) -> int | None:
    """ "the second one", "the last", "2", "option 3": an index into the options."""
    ordinal = next(
        (s.value("ordinal") for s in spans if s.has("ordinal") and s.value("ordinal")), None
    )
    content = [s for s in spans if not s.quiet and not s.has("ordinal")]
    if ordinal is None and len(content) == 1 and content[0].has("number"):
        ordinal = int(content[0].value("number"))  # "2", "#2", "option 2"
    if ordinal is None:
        return None
    index = ordinal - 1 if ordinal > 0 else ordinal
    return index if -count <= index < count else None


def _described(
    reply: str,
    spans: list[Span],
    options: list[str],
    understanding: TaggingUnderstanding,
    today: date,
) -> str | None:
    """ "the one in Hong Kong": the only option whose reference row holds a value the reply
    names."""
    own = understanding.analyze(reply, today)
    values = {str(v) for c in own.conditions for v in c.values} | {e.value for e in own.entities}
    # "Singapore": port or country
    values |= {o for a in own.ambiguities if a.kind == "entity" for o in a.options}
    fields = {f for s in spans for f in s.values("field")}  # "the importer": the consignee
    rows = {
        o: [c for c in understanding.index.names.get(normalize(o), []) if c.value == o]
        for o in options
    }
    matched = {
        o: max((len(values & {str(v) for v in c.attributes.values()}) for c in rows[o]), default=0)
        for o in options
    }
    best = max(matched.values(), default=0)
    # the option that fits most of what is said
    fitting = [o for o in options if best and matched[o] == best]
    if len(fitting) != 1 and fields:
        fitting = [
            o for o in options if any(fields & understanding.fields_named(c) for c in rows[o])
        ]
    if len(fitting) != 1:
        words = {w for s in spans if not s.quiet for w in s.key.split()}
        fitting = [o for o in options if words and words <= set(normalize(o).split())]  # "the LLC"
    return fitting[0] if len(fitting) == 1 else None


def replace_term(text: str, term: str, value: str) -> str:
    """The question with the ambiguous term replaced by the option chosen."""
    at = text.lower().find(term.lower())
    return f"{text[:at]}{value}{text[at + len(term) :]}" if at >= 0 else f"{text} ({value})"


def _without(reply: str, option: str) -> str:
    """The reply without the option's name and the punctuation around it ("MSC ANNA, in 2025" → "in
    2025")."""
    at = reply.lower().find(option.lower())
    rest = f"{reply[:at]} {reply[at + len(option) :]}" if at >= 0 else reply
    return rest.strip(" \t,;:.-")
