"""Flags (issue #37 item 3): a column of 0 and 1, of true and false, or of a yes/no code set says of
each row whether something holds (female, married, out of work). It is never a quantity: "how many
were married" counts the rows where it holds, "the share married" is their share of all rows, and
"total married" means nothing.

Evidence: whole numbers whose only values are 0 and 1; a boolean column; a keyword column of a
yes/no code set (codes.py). The value that holds is said by the column's name ("married" reads
married = 1); a share measure of it is drafted beside the record count.
"""

from __future__ import annotations

from typing import Any

from bosun.catalog.codes import code_set_of, code_words
from bosun.catalog.profile import Column


def is_number_flag(column: Column) -> bool:
    """Whole numbers whose values are exactly 0 and 1.

    >>> is_number_flag(Column("married", "integer", 10, 2, 0, 1, [(0, 6), (1, 4)]))
    True
    """
    values = {v for v, _ in column.values}
    whole = column.type in {"integer", "long"}
    return whole and column.complete_values and values == {0, 1}


def number_flag_values(said: list[str]) -> dict[str, list[str]]:
    """The value that holds, named by the column's words and the other words of a common code
    that one of them names (code_sets.yaml: a "female" flag is also "women").

    >>> number_flag_values(["female"])
    {'1': ['female', 'women']}
    """
    named = [w for words in code_words() for w in words if set(said) & set(words)]
    return {"1": list(dict.fromkeys([*said, *named]))}


def flag_value(column: Column, values: dict[str, list[str]]) -> str | None:
    """The value of a flag column that holds ("1", "true", "Y"), from its drafted values; None for
    a column that is no flag."""
    if column.type == "boolean" or is_number_flag(column):
        return next(iter(values), None)
    code_set = code_set_of(column)
    if code_set is None or code_set.flag is None:
        return None
    return next(iter(values), None)


def share_measures(flags: dict[str, tuple[str, str]]) -> dict[str, Any]:
    """A share measure per flag (field → its value that holds and the word said for it): "married
    share" is the share of rows where married holds."""
    found: dict[str, Any] = {}
    for name, (value, said) in flags.items():
        words = [f"{said} share", f"share {said}", f"share of {said}", f"{said} rate"]
        found[f"{name}_share"] = {
            "agg": "count",
            "share": {name: [value]},
            "words": words,
            "label": f"share {said}",
        }
    return found
