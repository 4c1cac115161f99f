"""Set logic against the last answer's rows (issue 36, conv-set): which of those rows a turn keeps,
decided from the grammar's `referents` words, never from the wording of a question.

>>> from bosun.understanding.grammar import english
>>> words = english().referents
>>> picks_rows("which of them received hazardous cargo through Miami?", words)
True
>>> picks_rows("and who of those had none in Baltimore?", words)
True
>>> picks_rows("list their shipments", words)
False
>>> picks_rows("which vessels did they use there?", words)
False
"""

from __future__ import annotations

from itertools import pairwise

from bosun.understanding.grammar import ReferentWords
from bosun.understanding.meaning import ResolvedEntity
from bosun.understanding.names import normalize


def picks_rows(text: str, words: ReferentWords) -> bool:
    """The turn opens by asking which of the rows pointed at ("which of them …", "who of those
    …"): it keeps some of those rows, it does not list their records."""
    said = normalize(text).split()
    while said and said[0] in words.openers:
        said = said[1:]
    opening = f" {' '.join(said)} "
    for pick in words.pick:
        asked = f" {normalize(pick)} "
        if opening.startswith(asked):
            after = opening[len(asked) - 1 :]
            return any(after.startswith(f" {normalize(p)} ") for p in words.among)
    return False


def other_levels(
    before: list[ResolvedEntity], now: list[ResolvedEntity], named: set[str]
) -> set[str]:
    """The fields of the names `before` that the names `now` on the fields `named` replace though
    they filter another field: names of one object by another of its entities, one level of a
    classification for another ("phones", a commodity, after "laptops", an HS code). Names of one
    entity in another role ("to Miami" after "from Busan") replace nothing.

    >>> def name(entity, field):
    ...     return ResolvedEntity(term="", entity=entity, value="", field=field, method="exact",
    ...                           object="goods")
    >>> other_levels([name("product", "hs_code")], [name("commodity", "commodity")], {"commodity"})
    {'hs_code'}
    >>> other_levels([name("port", "port_of_lading")], [name("port", "port_of_unlading")],
    ...              {"port_of_unlading"})
    set()
    """
    kinds = {(e.object, e.entity) for e in now if e.field in named and e.object}
    objects = {obj for obj, _ in kinds}
    return {e.field for e in before if e.object in objects and (e.object, e.entity) not in kinds}


def ranked_too(text: str, words: ReferentWords, ranking: dict[str, list[str]]) -> list[str]:
    """The words of a ranking of several ("top 5") in a turn that keeps the rows also in it
    ("which of those are also among Oakland's top 5?"): two rankings intersected, which no query
    here says; [] when the turn says no such thing.

    >>> from bosun.understanding.grammar import english
    >>> grammar = english()
    >>> ranked_too("how many of those are also in New York's top 10?", grammar.referents,
    ...            grammar.ranking)
    ['top', '10']
    >>> ranked_too("which 3 of them had the most TEU?", grammar.referents, grammar.ranking)
    []
    """
    said = normalize(text).split()
    padded = f" {' '.join(said)} "
    if not any(f" {normalize(word)} " in padded for word in words.also):
        return []
    ranks = {normalize(word) for listed in ranking.values() for word in listed}
    for word, after in pairwise(said):
        if word in ranks and after.isdigit() and int(after) > 1:
            return [word, after]
    return []
