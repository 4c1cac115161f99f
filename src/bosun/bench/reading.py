"""`python -m bosun.bench reading`: how the rules backend's reading time grows with a question's
length.

A question of N words is cut from the evaluation file's questions run together (real words of the
catalog's domain, names, dates and numbers among them), so nothing here knows a domain. Each length
is read `--times` times by one warm rules backend, each time with another first word so that no
reading is remembered; the median is printed with the milliseconds per word, which stay flat for a
reader linear in words. Questions past BOSUN_MAX_QUESTION_CHARS never reach the reader in a turn:
this shows what the limit guards against, not what a turn costs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from datetime import date
from pathlib import Path

from bosun.catalog import load_catalog
from bosun.understanding.rules import RulesUnderstanding

DEV = Path(__file__).parents[4] / "shared" / "eval" / "dev.jsonl"
LENGTHS = [10, 30, 100, 300, 1000, 2000, 4000]


def corpus_words(file: Path) -> list[str]:
    """Every word of every turn of the evaluation file, in order."""
    lines = [line for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [word for line in lines for turn in json.loads(line)["turns"] for word in turn.split()]


def question_of(words: list[str], length: int, shift: int) -> str:
    """`length` words of the corpus, starting `shift` words in and going round it."""
    return " ".join(words[(shift + at) % len(words)] for at in range(length))


def reading_ms(reader: RulesUnderstanding, text: str, today: date) -> float:
    """The processor time of one reading: what reading costs, not what other processes on the
    machine take from it (a reading is one thread that waits on nothing)."""
    started = time.process_time()
    reader.read(text, [], today)
    return (time.process_time() - started) * 1000


def run(file: Path, lengths: list[int], times: int, budget_s: float) -> None:
    words = corpus_words(file)
    reader = RulesUnderstanding(load_catalog())
    today = date.today()
    reader.read(question_of(words, 10, 0), [], today)  # the lexicon and name index, built once
    print(f"rules reading, words from {file.name}, median of {times}:")
    print(f"{'words':>6} {'chars':>7} {'ms':>10} {'ms/word':>8}")
    for length in lengths:
        texts = [question_of(words, length, shift + 1) for shift in range(times)]
        spent = [reading_ms(reader, text, today) for text in texts]
        median = statistics.median(spent)
        chars = statistics.median(len(text) for text in texts)
        print(f"{length:>6} {chars:>7,.0f} {median:>10,.1f} {median / length:>8.2f}", flush=True)
        if median / 1000 > budget_s:
            print(f"(over {budget_s:g} s a reading: longer questions left out)")
            return


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bosun.bench reading", description=__doc__)
    parser.add_argument("--file", type=Path, default=DEV, help="an evaluation file (JSON lines)")
    parser.add_argument("--words", type=int, nargs="+", default=LENGTHS, help="question lengths")
    parser.add_argument("--times", type=int, default=3, help="readings per length")
    parser.add_argument(
        "--budget", type=float, default=120.0, help="seconds one reading may take before stopping"
    )
    args = parser.parse_args(argv)
    run(args.file, args.words, args.times, args.budget)
    return 0
