"""Short codes with words (issue #24 class 7): a column whose values all belong to a common code set
of code_sets.yaml is read in that set's words ("large pizzas" is size L); a yes/no set makes the
column a flag read by its own name ("delivered pizzas" is delivered = Y).

Evidence: every value of the column (at least two of them, whatever their case) is a code of the
set; of several such sets the smallest decides, so {M, F} is sexes and {S, M, L} sizes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bosun.catalog.profile import Column
from bosun.catalog.words import _data, words_of


@dataclass(frozen=True)
class CodeSet:
    name: str
    words: dict[str, list[str]]  # code (upper case) → words said for it
    flag: str | None  # the code that means yes, for a yes/no set


def _sets() -> list[CodeSet]:
    found: dict[str, Any] = _data("code_sets.yaml")["code_sets"]
    return [
        CodeSet(
            str(name),
            {str(k).upper(): [str(w) for w in v] for k, v in spec["values"].items()},
            str(spec["flag"]).upper() if spec.get("flag") else None,
        )
        for name, spec in found.items()
    ]


def code_words() -> list[list[str]]:
    """The words of each code of every code set ("female", "women" for F)."""
    return [words for code_set in _sets() for words in code_set.words.values()]


def code_set_of(column: Column) -> CodeSet | None:
    """The smallest common code set that holds every value of a keyword column; None where none
    does."""
    values = {str(v).upper() for v, _ in column.values}
    if column.type != "keyword" or not column.complete_values or len(values) < 2:
        return None
    holding = [s for s in _sets() if values <= set(s.words)]
    return min(holding, key=lambda s: len(s.words)) if holding else None


def is_letter_code(column: Column) -> bool:
    """Codes of a letter, or a letter and a digit ("A", "B2"): said after the column's name ("grade
    A").

    Evidence: a keyword column whose every value (two or more) is a letter, with a digit or none.
    Two letters ("AS", "IN") are codes of their own (carriers, states) and words too: they are read
    as any code is.
    """
    values = [str(v) for v, _ in column.values]
    return (
        column.type == "keyword"
        and len(values) >= 2
        and all(
            v[:1].isalpha() and (len(v) == 1 or (len(v) == 2 and v[1].isdigit())) for v in values
        )
    )


def code_values(column: Column, code_set: CodeSet) -> dict[str, list[str]]:
    """The field's values and their words: every code's words, or for a flag only yes, said by the
    column's name."""
    if code_set.flag is not None:
        yes = [str(v) for v, _ in column.values if str(v).upper() == code_set.flag]
        return {value: [flag_word(column.name)] for value in yes}
    return {value: code_set.words[value.upper()] for value in _in_set_order(column, code_set)}


def flag_word(name: str) -> str:
    """ "is_vegetarian" → "vegetarian": the name without the words that only say it is a flag."""
    prefixes = {str(w) for w in _data("code_sets.yaml")["flag_prefixes"]}
    words = words_of(name)
    kept = [w for i, w in enumerate(words) if i > 0 or w not in prefixes or len(words) == 1]
    return " ".join(kept)


def _in_set_order(column: Column, code_set: CodeSet) -> list[str]:
    order = list(code_set.words)
    return sorted((str(v) for v, _ in column.values), key=lambda v: order.index(v.upper()))


def code_why(column: Column, code_set: CodeSet) -> str:
    shown = ", ".join(_in_set_order(column, code_set))
    return f"values {shown}: the code set {code_set.name} (code_sets.yaml)"


def code_outcome(code_set: CodeSet, role: str) -> str:
    return "a flag read by its name" if code_set.flag is not None else role
