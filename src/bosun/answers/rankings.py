"""A ranking in words: who leads, by how much over the next, and the leader's share of the whole;
ties said as ties; best and worst only where the catalog says which way is better (judged.py).

"MAERSK leads on total TEU with 12,345, 1,000 more than MSC (8.8 % higher); it is 31 % of the 5
shown."
"""

from __future__ import annotations

from typing import Any

from bosun.answers.figures import amount, and_listed, percent_of
from bosun.answers.grammar import Rankings, writing
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
    tied = [r[0] for r in ordered if r[-1] == ordered[0][-1]]
    if len(tied) > 1:
        text = _tie(tied, ordered[0][-1], label, lowest)
    elif lowest:
        text = _lowest(ordered, label, additive, better)
    else:
        text = _highest(ordered, label, additive, better)
    return text + _share(ordered, additive)


def _tie(tied: list[Any], value: float, label: str, lowest: bool) -> str:
    side = _words().sides["least" if lowest else "most"]
    named = and_listed([str(t) for t in tied])
    return _words().tie.format(tied=named, side=side, label=label, figure=amount(value))


def _lowest(ordered: list[list[Any]], label: str, additive: bool, better: Better | None) -> str:
    """The first of an ascending ranking: "has the least", "has the lowest", or judged."""
    words = _words()
    side = words.sides["least" if additive else "lowest"]
    said = verdict(label, better, side, highest=False) or words.has.format(side=side, label=label)
    return words.lowest.format(said=said, **_against(ordered))


def _highest(ordered: list[list[Any]], label: str, additive: bool, better: Better | None) -> str:
    return _words().highest.format(said=_top(label, additive, better), **_against(ordered))


def _against(ordered: list[list[Any]]) -> dict[str, str]:
    """The first and the second with their figures, the gap and the gap in percent."""
    first, second = ordered[0], ordered[1]
    gap = abs(first[-1] - second[-1])
    return {
        "first": str(first[0]),
        "figure": amount(first[-1]),
        "gap": amount(gap),
        "second": str(second[0]),
        "percent": percent_of(gap, second[-1]),
    }


def _share(ordered: list[list[Any]], additive: bool) -> str:
    """ "; it is 31 % of the 5 shown." where figures add up and more than two are shown; else
    "."."""
    if not (additive and len(ordered) > 2):
        return "."
    total = sum(r[-1] for r in ordered)
    return _words().share.format(percent=percent_of(ordered[0][-1], total), count=len(ordered))


def _top(label: str, additive: bool, better: Better | None) -> str:
    """The group with the highest figure: a sum's lead, unless the catalog says more is worse; an
    average's highest, or its best or worst where the catalog says which way is better (a longer
    transit is no lead)."""
    words = _words()
    if additive and better != "lower":
        return words.leads.format(label=label)
    side = words.sides["most" if additive else "highest"]
    return verdict(label, better, side, highest=True) or words.has.format(side=side, label=label)


def _words() -> Rankings:
    return writing().rankings
