"""A ranking in words: who leads, by how much over the next, and the leader's share of the whole;
ties said as ties; best and worst only where the catalog says which way is better (judged.py).

"MAERSK leads on total TEU with 12,345, 1,000 more than MSC (8.8 % higher); it is 31 % of the 5
shown."
"""

from __future__ import annotations

from typing import Any

from bosun.answers.figures import amount, percent_of
from bosun.answers.judged import verdict
from bosun.catalog.schema import Better


def ranking(
    rows: list[list[Any]],
    label: str,
    additive: bool,
    lowest: bool = False,
    better: Better | None = None,
) -> str:
    """[what, figure] rows ranked: the first against the second, and its share when figures add
    up."""
    ordered = sorted(rows, key=lambda r: r[-1], reverse=not lowest)
    total = sum(r[-1] for r in ordered)
    first, second = ordered[0], ordered[1]
    gap = abs(first[-1] - second[-1])
    tied = [r[0] for r in ordered if r[-1] == first[-1]]
    if len(tied) > 1:
        side = "least" if lowest else "most"
        text = f"{', '.join(map(str, tied[:-1]))} and {tied[-1]} tie for the {side} {label}, {amount(first[-1])} each"
    elif lowest:
        side = "least" if additive else "lowest"
        said = verdict(label, better, side, highest=False) or f"has the {side} {label}"
        text = (
            f"{first[0]} {said} with {amount(first[-1])}, "
            f"{amount(gap)} less than {second[0]} ({percent_of(gap, second[-1])} lower)"
        )
    else:
        text = (
            f"{first[0]} {_top(label, additive, better)} with {amount(first[-1])}, {amount(gap)} more "
            "than "
            f"{second[0]} ({percent_of(gap, second[-1])} higher)"
        )
    shown = additive and len(ordered) > 2
    return text + (
        f"; it is {percent_of(first[-1], total)} of the {len(ordered)} shown." if shown else "."
    )


def _top(label: str, additive: bool, better: Better | None) -> str:
    """The group with the highest figure: a sum's lead, unless the catalog says more is worse; an
    average's highest, or its best or worst where the catalog says which way is better (a longer
    transit is no lead)."""
    if additive and better != "lower":
        return f"leads on {label}"
    side = "most" if additive else "highest"
    return verdict(label, better, side, highest=True) or f"has the {side} {label}"
