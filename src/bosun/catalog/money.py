"""Money words (issue #37 item 6): "revenue", "sales", "takings", "turnover" name a sum of money
taken, never the average of a price. A price stored per row (a level, an average per room) sums to
no takings; where the data holds only such a price, the takings words are left undrafted, so a
question asking for revenue is refused with what the data has, and `catalog init` says so.
"""

from __future__ import annotations

from typing import Any

from bosun.catalog.words import _words


def takings_words() -> list[str]:
    return [str(w) for w in _words()["takings_words"]]


def takings_on_sums_only(measures: dict[str, Any]) -> None:
    """No measure but a sum keeps a takings word (an average of a price per row is no revenue).

    >>> drafted = {"price": {"agg": "avg", "words": ["price", "revenue"]}}
    >>> takings_on_sums_only(drafted)
    >>> drafted["price"]["words"]
    ['price']
    """
    takings = set(takings_words())
    for measure in measures.values():
        if measure["agg"] != "sum":
            measure["words"] = [w for w in measure["words"] if w not in takings]


def takings_gap(measures: dict[str, Any], prices: list[str]) -> list[str]:
    """The line `catalog init` says where money is held only as prices (`prices`: averaged money
    columns) and no sum takes the takings words; none otherwise."""
    taken = {w for m in measures.values() if m["agg"] == "sum" for w in m["words"]}
    if not prices or taken & set(takings_words()):
        return []
    return [
        f"no word drafted for {', '.join(takings_words())}: the money held is a price per row "
        f"({', '.join(prices)}), averaged, never summed into takings"
    ]
