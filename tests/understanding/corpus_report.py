"""The corpus per phenomenon, as the graph reads it (the rules, then the coverage audit): right,
flagged (wrong, but said: a word not understood, a question back, a refusal) or silently wrong.

    python -m tests.understanding.corpus_report trust.yaml paraphrase_shop.yaml

Prints one line per phenomenon of the files named (in corpus/), a total, and the silently wrong
items. The strict xfails of test_corpus.py say which items fail; this says how.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import yaml

from tests.understanding import test_corpus
from tests.understanding.test_corpus import check, read_item

HERE = Path(__file__).parent / "corpus"


def outcome(item: dict[str, Any]) -> str:
    """right, flagged or silent: how the rules backend, audited, answers one item."""
    reading, known = read_item("rules", item)
    expect = item["expect"]
    wanted = expect.get("goals", [expect])
    try:
        assert len(reading.goals) == len(wanted)
        for goal, goal_wanted in zip(reading.goals, wanted, strict=True):
            check(goal, goal_wanted, known)
    except AssertionError:
        return "flagged" if any(_said(g.meaning) for g in reading.goals) else "silent"
    return "right"


def _said(meaning: Any) -> bool:
    """A reading that says it is not the whole answer: no data meaning, or one with a doubt."""
    if meaning is None:
        return True
    doubts = (meaning.not_understood, meaning.refusal, meaning.ambiguities, meaning.unknown_terms)
    return any(bool(d) for d in doubts)


def main(files: list[str]) -> None:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    silent: list[str] = []
    for name in files:
        for item in yaml.safe_load((HERE / name).read_text(encoding="utf-8"))["items"]:
            found = outcome(item)
            # a file of one phenomenon may leave it unsaid: the file's name says it
            counts[item.get("phenomenon", Path(name).stem)][found] += 1
            silent += [f"{item['id']}: {item['q']}"] if found == "silent" else []
    total: Counter[str] = Counter()
    for phenomenon, count in sorted(counts.items()):
        total.update(count)
        print(_line(phenomenon, count))
    print(_line("all", total))
    print("\n".join(silent))


def _line(name: str, count: Counter[str]) -> str:
    return f"{name:32} right {count['right']:4}  flagged {count['flagged']:4}  silent {count['silent']:4}"


if __name__ == "__main__":
    assert test_corpus.CORPUS  # the corpus loads with the harness
    main(sys.argv[1:] or ["trust.yaml"])
