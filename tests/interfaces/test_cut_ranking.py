"""A superlative after a ranking the catalog's default cut short (issue 36, conv-ordinal): "the
fastest one" after "rank the carriers by average transit" is the fastest of all carriers, not of
the 10 shown; after "the top 3", of those 3. Figures checked against SQL on the dev set's data."""

from __future__ import annotations

import duckdb

from bosun.conversation.session import Session

_NEW_YORK = "port_of_unlading = 'NEW YORK' and year(arrival_date) = 2025"
_RANKED = (
    f"select carrier_name from shipments where {_NEW_YORK} group by 1 order by avg(transit_days)"
)


def _count_of(gold: duckdb.DuckDBPyConnection, carrier: str) -> int:
    where = f"{_NEW_YORK} and carrier_name = ?"
    found = gold.execute(f"select count(*) from shipments where {where}", [carrier]).fetchone()
    assert found is not None
    return int(found[0])


def test_the_fastest_one_after_a_cut_ranking_is_the_fastest_of_all(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    first = session.ask("Rank the carriers by average transit into New York in 2025", "fast")
    carriers = [row[0] for row in gold.execute(_RANKED).fetchall()]
    assert len(first.results[0].rows) < len(carriers)  # the ranking was cut short
    assert carriers[0] not in [row[0] for row in first.results[0].rows]
    answer = session.ask("how many shipments did the fastest one have?", "fast")
    assert answer.results[0].rows == [[_count_of(gold, carriers[0])]]


def test_which_was_quickest_ranks_every_group_of_a_cut_ranking(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Rank the carriers by average transit into New York in 2025", "quick")
    answer = session.ask("which carrier was the quickest?", "quick")
    fastest = gold.execute(f"{_RANKED} limit 1").fetchone()
    assert fastest is not None
    assert answer.results[0].rows[0][0] == fastest[0]


def test_the_fastest_one_after_a_top_3_is_the_fastest_of_those_3(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("top 3 carriers by average transit into New York in 2025", "top3")
    answer = session.ask("how many shipments did the fastest one have?", "top3")
    third = [row[0] for row in gold.execute(f"{_RANKED} desc limit 3").fetchall()][-1]
    assert answer.results[0].rows == [[_count_of(gold, third)]]
