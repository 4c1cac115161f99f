"""`BOSUN_LLM_RAW_DSL=true`: the model's query clause for words a Meaning cannot use, checked before
it runs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session, open_session
from bosun.settings import Settings
from bosun.workers.raw_dsl import clause_problems
from tests.llm.oracle import Oracle, oracle_model

QUESTION = "How many Houston shipments are described as bananas?"
READING = {
    "goals": [
        {
            "text": QUESTION,
            "measures": [{"agg": "count"}],
            "not_understood": ["bananas"],
            "filters": [{"field": "port_of_unlading", "values": ["HOUSTON"]}],
        }
    ]
}
BANANAS = {"clause": {"match": {"product_description": "bananas"}}, "words": ["bananas"]}
GOLD = (
    "select count(*) from shipments where port_of_unlading = 'HOUSTON' and "
    "regexp_matches(lower(product_description), '\\bbananas\\b')"
)


@pytest.fixture(scope="module")
def gold(dev_data_dir: Path) -> int:
    with duckdb.connect(str(dev_data_dir / "bosun.duckdb"), read_only=True) as connection:
        found = connection.execute(GOLD).fetchone()
    assert found is not None and found[0] > 0
    return int(found[0])


@pytest.fixture(scope="module")
def model(dev_data_dir: Path, gold: int) -> Iterator[tuple[Session, Oracle]]:
    with pytest.MonkeyPatch.context() as patch, oracle_model(patch, {QUESTION: READING}) as oracle:
        settings = Settings(
            data_dir=dev_data_dir,
            understanding="llm",
            llm_model="openai:scripted",
            llm_raw_dsl=True,
        )
        session = open_session(settings)
        yield session, oracle
        session.close()


def count(answer: Any) -> int:
    (table,) = answer.results
    return int(table.rows[0][0])


def test_the_models_clause_filters_the_words_the_reading_could_not_use(
    model: Any, gold: int
) -> None:
    session, oracle = model
    oracle.queued["ModelClause"] = [BANANAS]
    answer = session.ask(QUESTION, "raw-1")
    assert count(answer) == gold and answer.not_understood == []
    assert any("“bananas” read by the model as the filter" in a for a in answer.assumptions)
    assert "bananas" in str(answer.results[0].query)


def test_a_refused_clause_is_retried_with_the_problems(model: Any, gold: int) -> None:
    session, oracle = model
    scripted = {"clause": {"script": {"source": "doc['teu'].value > 0"}}, "words": ["bananas"]}
    unknown = {"clause": {"match": {"password": "bananas"}}, "words": ["bananas"]}
    oracle.queued["ModelClause"] = [scripted, BANANAS]
    retries = oracle.retries
    assert count(session.ask(QUESTION, "raw-2")) == gold and oracle.retries == retries + 1
    oracle.queued["ModelClause"] = [unknown, unknown]
    answer = session.ask(QUESTION, "raw-3")
    assert answer.not_understood == ["bananas"] and count(answer) > gold  # the words were not used
    assert any(
        "query clause was not used" in a and "unknown field 'password'" in a
        for a in answer.assumptions
    )


def test_the_engine_refusing_the_dry_run_is_a_problem_the_model_sees(model: Any, gold: int) -> None:
    session, oracle = model
    malformed = {"clause": {"range": {"teu": {"gte": "lots"}}}, "words": ["bananas"]}
    oracle.queued["ModelClause"] = [malformed, malformed]
    answer = session.ask(QUESTION, "raw-4")
    assert any("the engine refused the query" in a for a in answer.assumptions), answer.assumptions


@pytest.mark.parametrize(
    ("clause", "problem"),
    [
        ({"terms": {"carrier_name": ["MAERSK"]}}, None),
        (
            {
                "bool": {
                    "should": [{"term": {"status": "DELAYED"}}, {"exists": {"field": "eta_date"}}]
                }
            },
            None,
        ),
        ({"script": {"source": "1"}}, "'script' is not allowed"),
        ({"bool": {"filter": [{"match_all": {}}]}}, "'match_all' is not allowed"),
        ({"exists": {"field": "_index"}}, "unknown field '_index'"),
        ({"term": {"a": 1}, "range": {"b": {}}}, "one query kind"),
        ({"bool": {"must_not": {"term": {"x": 1}}, "boost": 2}}, "bool has no 'boost'"),
    ],
)
def test_only_read_only_clauses_over_the_catalogs_fields_pass(
    clause: dict[str, Any], problem: str | None
) -> None:
    found = clause_problems(clause, {"carrier_name", "status", "eta_date"})
    assert (not found) if problem is None else any(problem in p for p in found), found
