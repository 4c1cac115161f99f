"""`python -m bosun.bench taught`: what taught words cost a question (issue #25).

On the sample at `--rows`, through a real session with its SQLite store, it prints:
- the check before each turn when nothing was taught since (one query of the store's revision);
- the first turn after a teaching, which lays the words over the catalog and builds the lexicon and
  name index again;
- the rules' reading of a question with `--words` taught words against none (the lexicon is a dict:
  flat);
- a whole turn with and without the taught words.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

from bosun.catalog import load_catalog
from bosun.catalog.taught import TaughtWord
from bosun.conversation.session import Session, open_session
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine
from bosun.settings import Settings

# each year a new question: the rules keep the readings they made
QUESTION = "total haul by liner in {year}"
NEUTRAL = "How many shipments arrived in Houston in {year}?"  # uses no taught word


def _ms(call: Callable[[], object], times: int) -> float:
    """The median milliseconds of `times` calls."""
    spent = []
    for _ in range(times):
        started = time.perf_counter()
        call()
        spent.append((time.perf_counter() - started) * 1000)
    return statistics.median(spent)


def _teach_many(session: Session, words: int) -> None:
    teacher = session.teacher
    assert teacher is not None
    teacher.teach(teacher.proposed("haul", "teu", "measure"))
    teacher.teach(teacher.proposed("liner", "carrier"))
    for n in range(words - 2):  # more words, none in the question: what a grown vocabulary costs
        teacher.store.keep(TaughtWord(kind="field", word=f"synonym {n}", target="vessel_name"))


def _reading(session: Session) -> float:
    understanding = session.context.understanding
    today = session.context.today()
    years = iter(range(1900, 2100))
    return _ms(lambda: understanding.read(NEUTRAL.format(year=next(years)), [], today), 50)


def _turns(plain: Session, taught: Session, turns: int) -> tuple[float, float]:
    """Median ms of a whole turn of a question using no taught word, on a new thread each time, in a
    session without and one with the taught words, in alternation (so that the machine's load falls
    on both alike)."""
    spent: dict[int, list[float]] = {id(plain): [], id(taught): []}
    for turn in range(turns):
        for session in (plain, taught):
            started = time.perf_counter()
            session.ask(NEUTRAL.format(year=2025), f"t{turn}")
            spent[id(session)].append((time.perf_counter() - started) * 1000)
    return statistics.median(spent[id(plain)]), statistics.median(spent[id(taught)])


def _session(engine_folder: Path, folder: Path) -> Session:
    folder.mkdir()
    (folder / "bosun.duckdb").symlink_to(engine_folder / "bosun.duckdb")
    return open_session(Settings(data_dir=folder))


def run(rows: int, words: int, turns: int, folder: Path) -> None:
    engine = EmbeddedEngine(folder / "bosun.duckdb")
    build(engine, load_catalog(), rows, 42, date(2026, 6, 15))
    engine.close()
    plain, session = _session(folder, folder / "plain"), _session(folder, folder / "taught")
    teacher = session.teacher
    assert teacher is not None
    for warm in (plain, session):
        warm.ask(NEUTRAL.format(year=2025), "warm")
    plain_read = _reading(session)
    _teach_many(session, words)
    started = time.perf_counter()
    session.context = teacher.current(session.context)
    # lexicon, index
    session.context.understanding.read(QUESTION.format(year=2025), [], session.context.today())
    rebuild = (time.perf_counter() - started) * 1000
    check = _ms(lambda: teacher.current(session.context), 200)
    taught_read = _reading(session)
    plain_turn, taught_turn = _turns(plain, session, turns)
    session.close()
    plain.close()
    print(f"revision check before each turn (nothing new): {check:.3f} ms")
    print(
        f"first turn after a teaching, rebuild of catalog + lexicon + name index ({words} words): "
        f"{rebuild:.1f} ms"
    )
    print(
        f"rules reading of “{NEUTRAL}”: {plain_read:.2f} ms untaught, {taught_read:.2f} ms with "
        f"{words} words"
    )
    print(
        f"whole turn of “{NEUTRAL}” (median of {turns}): {plain_turn:.1f} ms untaught, "
        f"{taught_turn:.1f} ms "
        f"with {words} words"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bosun.bench taught", description=__doc__)
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--words", type=int, default=100, help="taught words in the store")
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bosun-bench-taught-") as folder:
        run(args.rows, args.words, args.turns, Path(folder))
    return 0
