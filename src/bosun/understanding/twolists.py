"""Two lists asked in one question (issue 36 item 4): "Top 3 carriers and top 3 shippers by TEU
into Savannah in 2025" is two goals, each list's head (its ranking or question words and the things
it lists) with the words after them said for both; a first list with words of its own keeps them
("Busiest carriers into Miami in 2025 and busiest consignees there": the second list's pointing
words are the first's: "busiest consignees into Miami in 2025").

    "Top vessels and top carriers by TEU into Oakland in 2025"
        → "Top vessels by TEU into Oakland in 2025", "top carriers by TEU into Oakland in 2025"
    "Which carriers and which shippers moved reefer cargo into Baltimore?"
        → "Which carriers moved reefer cargo into Baltimore?", "which shippers moved …"
    "TEU by carrier and vessel"  → not two lists: a measure stands before the first thing
"""

from __future__ import annotations

from collections.abc import Callable

from bosun.understanding.tagger import Span

_HEAD = ("rank", "number", "wh")  # what may stand before a list's things ("the top 3", "which")


def two_lists(spans: list[Span], text: str, thing: Callable[[Span], bool]) -> list[str] | None:
    """The texts of the two lists the question asks, or None when it does not ask two: a
    conjunction between two heads, each only head words then a `thing`, different things."""
    joins = [k for k, span in enumerate(spans) if span.has("conj")]
    if not joins:
        return None
    k = joins[0]
    first, second = _head_end(spans, 0, k, thing), _head_end(spans, k + 1, len(spans), thing)
    if first is None or second is None or spans[first].key == spans[second].key:
        return None
    first_head, first_tail = text[: spans[first].end], text[spans[first].end : spans[k].start]
    second_head, second_tail = (
        text[spans[k + 1].start : spans[second].end],
        text[spans[second].end :],
    )
    if all(span.quiet for span in spans[first + 1 : k]):
        first_tail = second_tail  # "top 3 carriers and top 3 shippers by TEU …"
    elif all(span.quiet for span in spans[second + 1 :]):
        second_tail = first_tail  # "the top carriers into Miami and the top consignees (there)"
    return [f"{first_head}{first_tail}".strip(), f"{second_head}{second_tail}".strip()]


def _head_end(
    spans: list[Span], start: int, stop: int, thing: Callable[[Span], bool]
) -> int | None:
    """Where the head starting at `start` names its things: head words up to them, else None."""
    for i in range(start, stop):
        if thing(spans[i]):
            return i
        if not (spans[i].quiet or _heads(spans[i])):
            return None
    return None


def _heads(span: Span) -> bool:
    """A ranking, a count, a question word, or a superlative ("busiest")."""
    superlative = any(a[3] == "superlative" for a in span.values("adjective"))
    return superlative or any(span.has(kind) for kind in _HEAD)
