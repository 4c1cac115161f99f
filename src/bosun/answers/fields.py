"""The catalog in words: what a term means (the glossary), and the record's fields with their types
and meanings.
"""

from __future__ import annotations

from bosun.answers.grammar import CatalogWords, writing


def definitions(terms: list[str], glossary: dict[str, str]) -> str:
    """Each term the glossary has, with its meaning ("" when it has none of them)."""
    said = [_words().definition.format(term=t, meaning=glossary[t]) for t in terms if t in glossary]
    return "\n\n".join(said)


def field_list(rows: list[list[str]], derived: list[str]) -> str:
    """One line per field (name, type, description); the date parts derived at load on one line of
    their own."""
    words = _words()
    text = "\n".join(
        words.field.format(name=name, type=kind, description=description)
        for name, kind, description in rows
        if name not in derived
    )
    if derived:  # date parts, one line: the table lists each
        text += "\n" + words.derived.format(fields=", ".join(derived))
    return text


def fields_title(index: str) -> str:
    """The heading of the table of the record's fields."""
    return _words().fields_title.format(index=index)


def field_columns() -> list[str]:
    """The columns of the table of fields: name, type, description."""
    return list(_words().field_columns)


def _words() -> CatalogWords:
    return writing().catalog
