"""The five scenarios of the planner's design (seed 000), answered with `BOSUN_UNDERSTANDING=llm`.

The model's readings of the questions are scripted here, as a model would answer them; its plans
are the rules planner's rounds in the model's form and its texts restate the prompt's summary (the
oracle). Each answer is checked against SQL on the same data, and its trace against the scenario.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.chat import client as chat
from bosun.conversation.session import Session, open_session
from bosun.planner.answer import Answer
from bosun.settings import Settings
from tests.llm.oracle import Oracle, oracle_model
from tests.llm.scripted import DispatchFakeModel

LA = {"field": "port_of_unlading", "values": ["LOS ANGELES"]}
READINGS: dict[str, dict[str, Any]] = {
    "what's shipment and find me a shipment arrived yesterday": {
        "goals": [
            {"kind": "definition", "text": "What is a shipment?", "terms": ["shipment"]},
            {
                "text": "shipments that arrived yesterday",
                "records": True,
                "time": {
                    "field": "arrival_date",
                    "start": "2026-06-14",
                    "end": "2026-06-14",
                    "words": "yesterday",
                },
            },
        ]
    },
    "Show me Maersk shipments to Los Angeles": {
        "goals": [
            {
                "text": "Maersk shipments to Los Angeles",
                "records": True,
                "filters": [{"field": "carrier_name", "values": ["MAERSK"]}, LA],
            }
        ]
    },
    "Compare Maersk vs Evergreen shipping volumes to LA last quarter": {
        "goals": [
            {
                "text": "TEU of Maersk and Evergreen to Los Angeles, 2026 Q1",
                "measures": [{"agg": "sum", "field": "teu"}],
                "filters": [{"field": "carrier_name", "values": ["MAERSK", "EVERGREEN"]}, LA],
                "group_by": ["carrier_name"],
                "time": {
                    "field": "arrival_date",
                    "start": "2026-01-01",
                    "end": "2026-03-31",
                    "words": "last quarter",
                },
            }
        ]
    },
    "Show shipments from Acme Corp to Houston": {
        "goals": [
            {
                "text": "shipments from Acme Corp to Houston",
                "records": True,
                "filters": [{"field": "port_of_unlading", "values": ["HOUSTON"]}],
                "ambiguous": [
                    {"phrase": "Acme Corp", "options": ["ACME CORP LLC", "ACME CORPORATION"]}
                ],
            }
        ]
    },
    "Acme Corp LLC": {
        "continuation": "clarification_reply",
        "goals": [
            {
                "text": "shipments from ACME CORP LLC to Houston",
                "records": True,
                "filters": [
                    {"field": "shipper_name", "values": ["ACME CORP LLC"]},
                    {"field": "port_of_unlading", "values": ["HOUSTON"]},
                ],
            }
        ],
    },
    "Top 5 shippers to LA and their average transit times": {
        "goals": [
            {
                "text": "top 5 shippers to Los Angeles, with their average transit days",
                "filters": [LA],
                "measures": [{"agg": "count"}, {"agg": "avg", "field": "transit_days"}],
                "group_by": ["shipper_name"],
                "top_n": 5,
            }
        ]
    },
}
GOLD = {
    "yesterday": "select count(*) from shipments where arrival_date = '2026-06-14'",
    "maersk_la": "select count(*) from shipments where carrier_name = 'MAERSK' and port_of_unlading = 'LOS ANGELES'",
    "compare": "select carrier_name, sum(teu) from shipments where carrier_name in ('MAERSK', 'EVERGREEN') and "
    "port_of_unlading = 'LOS ANGELES' and arrival_date between '2026-01-01' and '2026-03-31' group "
    "by 1",
    "acme": "select count(*) from shipments where shipper_name = 'ACME CORP LLC' and port_of_unlading = 'HOUSTON'",
    "top5": "select shipper_name, count(*) n, avg(transit_days) from shipments where port_of_unlading = "
    "'LOS ANGELES' group by 1 order by n desc limit 5",
}


@pytest.fixture(scope="module")
def gold(dev_data_dir: Path) -> dict[str, list[tuple[Any, ...]]]:
    with duckdb.connect(str(dev_data_dir / "bosun.duckdb"), read_only=True) as connection:
        return {name: connection.sql(sql).fetchall() for name, sql in GOLD.items()}


@pytest.fixture(scope="module")
def model(dev_data_dir: Path, gold: dict[str, Any]) -> Iterator[tuple[Session, Oracle]]:
    with pytest.MonkeyPatch.context() as patch, oracle_model(patch, READINGS) as oracle:
        session = open_session(
            Settings(data_dir=dev_data_dir, understanding="llm", llm_model="openai:scripted")
        )
        yield session, oracle
        session.close()


def ask(model: tuple[Session, Oracle], question: str, thread: str) -> Answer:
    session, oracle = model
    before = oracle.calls["ModelReading"]
    answer = session.ask(question, thread)
    # read by the model, first time
    assert oracle.calls["ModelReading"] == before + 1 and oracle.retries == 0
    assert answer.tokens is not None and answer.tokens.by_node["f01"].calls == 1
    assert not any("was not used" in a for a in answer.assumptions)
    return answer


def rounds(answer: Answer) -> list[tuple[int, str]]:
    return [(e.round, e.worker) for e in answer.trace.sub_goals]


def test_scenario_1_a_definition_and_a_search_in_one_turn(model: Any, gold: dict[str, Any]) -> None:
    answer = ask(model, "what's shipment and find me a shipment arrived yesterday", "s1")
    assert answer.status == "done" and "bill of lading" in answer.answer.lower()
    assert answer.results[0].total == gold["yesterday"][0][0]
    assert rounds(answer)[:2] == [(1, "common_helpdesk"), (1, "metadata_lookup")]


def test_scenario_2_the_chain_of_workers_one_round_each(model: Any, gold: dict[str, Any]) -> None:
    answer = ask(model, "Show me Maersk shipments to Los Angeles", "s2")
    assert rounds(answer) == [
        (1, "metadata_lookup"),
        (2, "es_query_gen"),
        (3, "es_query_exec"),
        (4, "show_results"),
    ]
    assert answer.results[0].total == gold["maersk_la"][0][0]


def test_scenario_3_a_comparison_with_its_analysis(model: Any, gold: dict[str, Any]) -> None:
    answer = ask(model, "Compare Maersk vs Evergreen shipping volumes to LA last quarter", "s3")
    (table,) = answer.results
    assert {row[0]: row[1] for row in table.rows} == dict(gold["compare"])
    assert "analyze_results" in [w for _, w in rounds(answer)]
    # "last quarter" did not name its date field
    assert any("read as arrival date" in a for a in answer.assumptions)
    assert [(c.said, c.chosen) for c in answer.choices] == [("last quarter", "arrival date")]


def test_scenario_4_a_clarification_then_the_reply(model: Any, gold: dict[str, Any]) -> None:
    asked = ask(model, "Show shipments from Acme Corp to Houston", "s4")
    assert asked.status == "needs_clarification" and asked.clarification is not None
    assert asked.clarification.options == ["ACME CORP LLC", "ACME CORPORATION"]
    assert asked.clarification.question == "Which Acme Corp did you mean?"  # the model's words
    answer = ask(model, "Acme Corp LLC", "s4")
    assert answer.status == "done" and answer.results[0].total == gold["acme"][0][0]


def test_scenario_5_a_ranking_with_a_measure_beside_it(model: Any, gold: dict[str, Any]) -> None:
    answer = ask(model, "Top 5 shippers to LA and their average transit times", "s5")
    (table,) = answer.results
    assert [row[0] for row in table.rows] == [row[0] for row in gold["top5"]]
    assert [round(row[2], 1) for row in table.rows] == [round(row[2], 1) for row in gold["top5"]]
    assert answer.tokens is not None and answer.tokens.total > 0


def test_a_turn_past_its_token_budget_is_finished_by_the_rules(
    dev_data_dir: Path, gold: dict[str, Any]
) -> None:
    with pytest.MonkeyPatch.context() as patch, oracle_model(patch, READINGS) as oracle:
        settings = Settings(
            data_dir=dev_data_dir,
            understanding="llm",
            llm_model="openai:scripted",
            # the scripted calls bill 150 tokens each: three calls
            llm_turn_token_budget=400,
        )
        session = open_session(settings)
        answer = session.ask("Top 5 shippers to LA and their average transit times", "budget")
        session.close()
    assert (
        answer.tokens is not None and answer.tokens.total == 450 and sum(oracle.calls.values()) == 3
    )
    assert answer.status == "done" and [row[0] for row in answer.results[0].rows] == [
        r[0] for r in gold["top5"]
    ]
    assert (
        "This turn used its model token budget (400 tokens, BOSUN_LLM_TURN_TOKEN_BUDGET): the "
        "rules answered "
        "the rest of it, without the model." in answer.assumptions
    )


def test_a_model_that_cannot_be_reached_is_asked_once_per_turn(
    dev_data_dir: Path, gold: dict[str, Any]
) -> None:
    calls = []

    def down(tool: str, messages: list[Any]) -> Any:
        calls.append(tool)
        raise ConnectionRefusedError("[Errno 111] Connection refused")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chat, "open_chat_model", lambda settings: DispatchFakeModel(script=down))
        session = open_session(
            Settings(data_dir=dev_data_dir, understanding="llm", llm_model="openai:down")
        )
        answer = session.ask("Top 5 shippers to LA and their average transit times", "down")
        session.close()
    assert calls == ["ModelReading"]
    assert [row[0] for row in answer.results[0].rows] == [r[0] for r in gold["top5"]]
    assert [a for a in answer.assumptions if "model" in a] == [
        "The chat model could not be reached (ConnectionRefusedError: [Errno 111] Connection "
        "refused): the rules "
        "answered this turn."
    ]
