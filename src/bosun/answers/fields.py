"""The catalog in words: what a term means (the glossary), and the record's fields with their types
and meanings.
"""

from __future__ import annotations


def definitions(terms: list[str], glossary: dict[str, str]) -> str:
    """Each term the glossary has, with its meaning ("" when it has none of them)."""
    return "\n\n".join(f"**{t}**: {glossary[t]}" for t in terms if t in glossary)


def field_list(rows: list[list[str]], derived: list[str]) -> str:
    """One line per field (name, type, description); the date parts derived at load on one line of
    their own."""
    text = "\n".join(
        f"- **{name}** ({kind}): {description}"
        for name, kind, description in rows
        if name not in derived
    )
    if derived:  # date parts, one line: the table lists each
        text += f"\n- derived at load (date parts): {', '.join(derived)}"
    return text


def fields_title(index: str) -> str:
    return f"fields of {index}"
