"""What `catalog init` could not draft, said after its decisions (issue #37 item 8): columns with
no word but their own name, and codes that no loaded file names.

Evidence: a field whose only synonym is its name written out, and no measure of it said otherwise
("docvis", "pcap": no abbreviation, plural, shorter name or money word was found for it); a number
read as a code (a dimension that is no date part nor the records' own number) that no reference file
links to names ("round" 1–38, "precinct" 1–5). Answers then say the raw name or the bare code, and a
user knows which synonyms to add or which file to load beside the records.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from bosun.catalog.profile import IndexProfile
from bosun.catalog.words import phrase

_WORDED_ROLES = {"measure", "dimension", "attribute"}


def gap_notes(
    record: IndexProfile,
    fields: dict[str, dict[str, Any]],
    measures: dict[str, Any],
    codes: Collection[str],
    linked: Collection[str],
) -> list[str]:
    """One line per kind of gap, none when nothing is missing. `codes`: the record's columns read as
    codes; `linked`: the columns a reference file matches."""
    notes = []
    own: dict[str, list[dict[str, Any]]] = {}
    for measure in measures.values():
        if measure.get("field") is not None:
            own.setdefault(measure["field"], []).append(measure)
    bare = [name for name, field in fields.items() if _no_word(name, field, own.get(name, []))]
    if bare:
        notes.append(
            f"no word drafted for {', '.join(bare)} but the column's own name: add the words "
            "people "
            "ask by as synonyms"
        )
    unnamed = [
        f"{name} ({record.columns[name].distinct:,} values)"
        for name in codes
        if name not in linked and record.columns[name].numeric
    ]
    if unnamed:
        notes.append(
            f"codes with no names: {', '.join(unnamed)}: answers show the codes; a file naming "
            "them, loaded and given as another --index, names them"
        )
    return notes


def _no_word(name: str, field: dict[str, Any], own: list[dict[str, Any]]) -> bool:
    """Only the column's own name says the field; `own`: the measures of its values."""
    if field["role"] not in _WORDED_ROLES or "derived" in field:
        return False
    said = phrase(name)
    # a measure's words other than its name ("revenue" of price)
    other = [word for measure in own for word in measure["words"] if said not in str(word)]
    # a flag is said by its value's words ("married"), not by synonyms; a level's name said as a
    # rate ("hhninc rate", levels.py) is no word of its own
    named = field["synonyms"] or [w for words in field.get("values", {}).values() for w in words]
    rated = {f"{said} rate", f"{said} rates"}
    return not other and list(dict.fromkeys(str(w) for w in named if w not in rated)) == [said]
