"""Conversations: turns read against the thread's last ones, checked against SQL on the dev set's
data."""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from bosun.conversation.session import Session, open_session
from bosun.conversation.store import sqlite_store
from bosun.errors import StoreError
from bosun.interfaces.cli.app import app
from bosun.planner.answer import Answer
from bosun.settings import Settings


def rows(answer: Answer) -> list[list[Any]]:
    return [list(r) for r in answer.results[0].rows]


def sql(gold: duckdb.DuckDBPyConnection, query: str) -> list[list[Any]]:
    return [list(r) for r in gold.execute(query).fetchall()]


def assert_records(total: int, shown: list[list[Any]], wanted: list[list[Any]]) -> None:
    assert total == len(wanted) and {r[0] for r in shown} <= {r[0] for r in wanted} and shown


COUNT = (
    "select count(*) from shipments where port_of_unlading = '{port}' and arrival_date between "
    "'{start}' "
    "and '{end}'"
)


def test_refinements_replace_or_add_constraints(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    first = session.ask("How many shipments arrived in Savannah last month?", "r")
    assert rows(first) == sql(
        gold, COUNT.format(port="SAVANNAH", start="2026-05-01", end="2026-05-31")
    )
    charleston = session.ask("and in Charleston?", "r")
    assert rows(charleston) == sql(
        gold, COUNT.format(port="CHARLESTON", start="2026-05-01", end="2026-05-31")
    )
    before = session.ask("and the month before?", "r")
    assert rows(before) == sql(
        gold, COUNT.format(port="CHARLESTON", start="2026-04-01", end="2026-04-30")
    )
    top = session.ask("Top 5 shippers to LA by TEU in 2025", "s")
    assert len(rows(top)) == 5
    long_beach = session.ask("what about Long Beach?", "s")
    assert rows(long_beach) == sql(
        gold,
        "select shipper_name, sum(teu) t from shipments where port_of_unlading = "
        "'LONG BEACH' and arrival_date between '2025-01-01' and '2025-12-31' "
        "group by 1 order by t desc limit 5",
    )
    high_cube = session.ask("only 40HC containers", "s")
    assert rows(high_cube) == sql(
        gold,
        "select shipper_name, sum(teu) t from shipments where port_of_unlading = "
        "'LONG BEACH' and container_type = '40HC' and arrival_date between "
        "'2025-01-01' and '2025-12-31' group by 1 order by t desc limit 5",
    )


def test_follow_ups_build_on_the_last_result(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    where = "where carrier_name = 'MAERSK' and port_of_unlading = 'LOS ANGELES'"
    session.ask("Show me Maersk shipments to Los Angeles", "f")
    heaviest = session.ask("sort by weight", "f")
    wanted = sql(
        gold,
        f"select bol_number from shipments {where} order by gross_weight_kg desc, bol_number limit "
        "20",
    )
    assert [r[0] for r in rows(heaviest)] == [r[0] for r in wanted]
    more = session.ask("show me more", "f")
    assert [s.worker for s in more.trace.sub_goals][-1] == "page_query"
    wanted = sql(
        gold,
        f"select bol_number from shipments {where} order by gross_weight_kg desc, bol_number "
        "limit 20 offset 20",
    )
    assert [r[0] for r in rows(more)] == [r[0] for r in wanted]
    top = session.ask("Top 5 shippers to LA by TEU in 2025", "g")
    leader = rows(top)[0][0]
    broken_down = session.ask("break that down by carrier for the top one", "g")
    assert sorted(map(tuple, rows(broken_down))) == sorted(
        map(
            tuple,
            sql(
                gold,
                (
                    "select carrier_name, sum(teu) from shipments where port_of_unlading = 'LOS "
                    "ANGELES' and arrival_date "
                    f"between '2025-01-01' and '2025-12-31' and shipper_name = '{leader}' group by "
                    "1"
                ),
            ),
        )
    )


ACME = "select bol_number from shipments where shipper_name = '{name}' and port_of_unlading = 'HOUSTON'"


@pytest.mark.parametrize(
    ("reply", "name"),
    [
        ("Acme Corp LLC", "ACME CORP LLC"),
        ("the first one", "ACME CORP LLC"),
        ("2", "ACME CORPORATION"),
        ("the one in Vietnam", "ACME CORPORATION"),
    ],
)
def test_a_clarification_reply_picks_an_option(
    session: Session, gold: duckdb.DuckDBPyConnection, reply: str, name: str
) -> None:
    asked = session.ask("Show shipments from Acme Corp to Houston", "c")
    assert asked.status == "needs_clarification"
    answer = session.ask(reply, "c")
    assert answer.status == "done"
    assert_records(
        answer.results[0].total, answer.results[0].rows, sql(gold, ACME.format(name=name))
    )


def test_a_pick_with_a_refinement(session: Session, gold: duckdb.DuckDBPyConnection) -> None:
    asked = session.ask("How many shipments did Anna carry to Savannah?", "p")
    assert asked.clarification is not None and "MSC ANNA" in asked.clarification.options
    answer = session.ask("MSC ANNA, in 2025", "p")
    assert rows(answer) == sql(
        gold,
        "select count(*) from shipments where vessel_name = 'MSC ANNA' and "
        "port_of_unlading = 'SAVANNAH' and arrival_date between '2025-01-01' and "
        "'2025-12-31'",
    )


def test_a_reply_matching_no_option_asks_once_more_then_explains(session: Session) -> None:
    first = session.ask("Show shipments from Acme Corp to Houston", "u")
    again = session.ask("hmm, not sure", "u")
    assert first.clarification is not None and again.clarification is not None
    assert (
        again.status == "needs_clarification"
        and again.clarification.options == first.clarification.options
    )
    assert again.answer.startswith("I could not tell which one you meant by “hmm, not sure”.")
    explained = session.ask("whatever", "u")
    assert explained.status == "failed" and explained.results == []
    assert (
        "matches none of ACME CORP LLC, ACME CORPORATION" in explained.answer
        and "Ask about" in explained.answer
    )
    new_topic = session.ask("Show shipments from Acme Corp to Houston", "v")
    assert new_topic.status == "needs_clarification"
    assert session.ask("How many shipments arrived in Houston last month?", "v").status == "done"


def test_two_threads_used_alternately_do_not_leak(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("How many shipments arrived in Savannah last month?", "a")
    session.ask("Top 5 shippers to LA by TEU in 2025", "b")
    a = session.ask("and in Charleston?", "a")
    b = session.ask("what about Long Beach?", "b")
    assert rows(a) == sql(
        gold, COUNT.format(port="CHARLESTON", start="2026-05-01", end="2026-05-31")
    )
    assert b.results[0].columns == ["shipper_name", "TEU"] and len(rows(b)) == 5
    assert [t.human_message for t in session.history("a")] == [
        "How many shipments arrived in Savannah last month?",
        "and in Charleston?",
    ]


def test_an_unknown_thread_starts_a_new_conversation(session: Session) -> None:
    answer = session.ask("How many shipments arrived in Houston last month?", "never-seen-before")
    assert answer.status == "done" and len(session.history("never-seen-before")) == 1


def ask_cli(data_dir: Path, *args: str) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOSUN_DATA_DIR", str(data_dir))
        result = CliRunner().invoke(app, ["ask", *args, "--json"])
    assert result.exit_code == 0, result.output
    answer: dict[str, Any] = json.loads(result.output)
    return answer


def test_a_thread_continues_across_separate_runs(
    data_dir: Path, tmp_path: Path, gold: duckdb.DuckDBPyConnection
) -> None:
    (tmp_path / "bosun.duckdb").symlink_to(data_dir / "bosun.duckdb")
    ask_cli(tmp_path, "Show shipments from Acme Corp to Houston", "--thread", "x1")
    answer = ask_cli(tmp_path, "Acme Corp LLC", "--thread", "x1")
    (result,) = answer["results"]
    assert_records(result["total"], result["rows"], sql(gold, ACME.format(name="ACME CORP LLC")))


def test_a_corrupt_store_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "conversations.sqlite").write_bytes(b"this is not a database" * 100)
    with pytest.raises(
        StoreError,
        match=r"conversations\.sqlite is damaged \(file is not a database\); it was "
        r"moved to conversations\.sqlite\.damaged-",
    ):
        sqlite_store(tmp_path / "conversations.sqlite")
    (aside,) = tmp_path.glob("conversations.sqlite.damaged-*")
    assert aside.read_bytes() == b"this is not a database" * 100


def test_a_locked_store_fails_the_write_and_keeps_earlier_turns(
    session: Session, tmp_path: Path
) -> None:
    session.ask("How many shipments arrived in Savannah last month?", "l")
    session.store.timeout_s = 0.2
    locker = sqlite3.connect(str(tmp_path / "conversations.sqlite"))
    locker.execute("BEGIN EXCLUSIVE")
    with pytest.raises(StoreError, match="locked"):
        session.ask("and in Charleston?", "l")
    locker.rollback()
    locker.close()
    assert [t.human_message for t in session.history("l")] == [
        "How many shipments arrived in Savannah last month?"
    ]
    assert session.ask("and in Charleston?", "l").results[0].title.endswith("→ and in Charleston?")


@pytest.fixture
def pausing(data_dir: Path, tmp_path: Path) -> Iterator[Settings]:
    (tmp_path / "bosun.duckdb").symlink_to(data_dir / "bosun.duckdb")
    yield Settings(data_dir=tmp_path, clarification_mode="interrupt")


def test_interrupt_mode_pauses_at_the_node_and_resumes_there(
    pausing: Settings, gold: duckdb.DuckDBPyConnection
) -> None:
    session = open_session(pausing)
    asked = session.ask("Show shipments from Acme Corp to Houston", "i")
    assert asked.status == "needs_clarification" and asked.clarification is not None
    assert asked.clarification.options == ["ACME CORP LLC", "ACME CORPORATION"]
    paused = session.graph.get_state({"configurable": {"thread_id": "i"}})
    assert paused.next == ("f03_worker_executor",) and paused.interrupts
    session.close()
    session = open_session(pausing)  # another process: the pause is in the checkpoint
    again = session.ask("no idea", "i")
    assert again.status == "needs_clarification" and again.answer.startswith(
        "I could not tell which one"
    )
    answer = session.ask("the one in Vietnam", "i")
    assert answer.status == "done"
    assert_records(
        answer.results[0].total,
        answer.results[0].rows,
        sql(gold, ACME.format(name="ACME CORPORATION")),
    )
    workers = [s.worker for s in answer.trace.sub_goals]
    assert workers == ["metadata_lookup", "es_query_gen", "es_query_exec", "show_results"]
    follow = session.ask("sort by value", "i")
    assert follow.results[0].total == answer.results[0].total  # memory kept the picked reading
    session.close()


def test_interrupt_mode_gives_up_after_a_second_miss(pausing: Settings) -> None:
    session = open_session(pausing)
    session.ask("Show shipments from Acme Corp to Houston", "j")
    session.ask("no idea", "j")
    answer = session.ask("still no idea", "j")
    assert (
        answer.status == "failed"
        and "matches none of ACME CORP LLC, ACME CORPORATION" in answer.answer
    )
    assert session.ask("How many shipments arrived in Houston last month?", "j").status == "done"
    session.close()


def test_chat_keeps_the_thread_and_its_commands(data_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "bosun.duckdb").symlink_to(data_dir / "bosun.duckdb")
    lines = [
        "How many shipments arrived in Savannah last month?",
        "and in Charleston?",
        "/trace",
        "/bogus",
        "/new",
        "and in Charleston?",
        "SELECT * FROM shipments; DROP TABLE shipments",
        "/quit",
        "never read",
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOSUN_DATA_DIR", str(tmp_path))
        result = CliRunner().invoke(
            app, ["chat"], input="\n".join(lines) + "\n", terminal_width=200
        )
    assert result.exit_code == 0, result.output
    out = result.output
    # the same thread: the follow-up keeps the last question's constraints, and says so
    assert "Assumed: kept from the last question: number of shipments; May 2026" in out
    assert "plan: 4 steps in 4 rounds" in out and "unknown command /bogus" in out
    assert "new conversation" in out
    assert out.count("kept from the last question") == 1  # after /new it is not a refinement
    assert "never read" not in out


def test_any_reply_to_any_kind_of_turn_ends_with_a_message(session: Session) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    openers = [
        "Show shipments from Acme Corp to Houston",
        "Top 5 shippers to LA by TEU in 2025",
        "Show me Maersk shipments to Los Angeles",
        "What flag does the MSC GULSUN fly?",
        "what is a TEU",
    ]
    replies = st.one_of(
        st.text(max_size=200),
        st.sampled_from(
            [
                "and",
                "the",
                "more",
                "sort by",
                "the 9th one",
                "what about",
                "only",
                "#0",
                "and the year after",
            ]
        ),
    )

    threads = itertools.count()

    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(openers), replies)
    def conversation_goes_on(opener: str, reply: str) -> None:
        thread = f"h{next(threads)}"
        session.ask(opener, thread)
        answer = session.ask(reply, thread)
        assert answer.status in ("done", "needs_clarification", "failed") and answer.answer.strip()
        assert [t.human_message for t in session.history(thread)] == [opener, reply]

    conversation_goes_on()


def test_follow_ups_on_groups_reorder_regroup_or_say_there_is_no_more(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    top = session.ask("Top 5 shippers to LA by TEU in 2025", "og")
    shippers = {r[0] for r in rows(top)}
    by_weight = session.ask("order by weight", "og")
    assert by_weight.results[0].columns == ["shipper_name", "gross weight (kg)", "TEU"]
    assert {r[0] for r in rows(by_weight)} == shippers  # the same five, in another order
    weights = [r[1] for r in rows(by_weight)]
    assert weights == sorted(weights, reverse=True)
    assert session.ask("show me more", "og").answer.startswith(
        "I could not complete “show me more”: The last answer showed all its rows"
    )
    # a question of its own, not a breakdown
    carriers = session.ask("Which carriers serve Honolulu?", "og")
    assert carriers.results[0].title == "Which carriers serve Honolulu?"
    ordered = session.ask("sort them by TEU", "og")
    assert rows(ordered) == sql(
        gold,
        "select carrier_name, sum(teu) t from shipments where port_of_unlading = "
        "'HONOLULU' group by 1 order by t desc",
    )
    session.ask("How many shipments arrived in Savannah in 2025?", "om")
    monthly = session.ask("break that down by month", "om")
    wanted = sql(
        gold,
        "select strftime(date_trunc('month', arrival_date), '%Y-%m-%d'), count(*) from shipments "
        "where port_of_unlading = 'SAVANNAH' and arrival_date between '2025-01-01' and "
        "'2025-12-31' "
        "group by 1 order by 1",
    )
    assert rows(monthly) == wanted and len(wanted) == 12


def test_follow_ups_list_the_records_behind_a_count_and_measure_groups_anew(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    count = session.ask("How many shipments did Evergreen bring into Oakland in March 2026?", "sm")
    listed = session.ask("show them", "sm")
    assert (
        listed.results[0].total == rows(count)[0][0]
        and listed.results[0].columns[0] == "bol_number"
    )
    session.ask("Top 3 carriers into Savannah by TEU last quarter", "mg")
    where = (
        "where port_of_unlading = 'SAVANNAH' and arrival_date between '2026-01-01' and '2026-03-31'"
    )
    added = session.ask("and the average transit time?", "mg")
    assert added.results[0].columns == ["carrier_name", "TEU", "average transit days"]
    assert [r[:2] for r in rows(added)] == sql(
        gold,
        f"select carrier_name, sum(teu) t from shipments {where} "
        "group by 1 order by t desc limit 3",
    )
    reranked = session.ask("what about by weight?", "mg")
    assert [r[0] for r in rows(reranked)] == [
        r[0]
        for r in sql(
            gold,
            (
                f"select carrier_name, sum(gross_weight_kg) w from shipments {where} group by 1 "
                "order by w desc limit 3"
            ),
        )
    ]


def test_a_row_of_the_last_answer_pointed_at_by_its_place(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    ranked = session.ask("top 3 carriers into Savannah this year", "p")
    second, last = rows(ranked)[1][0], rows(ranked)[2][0]
    busiest = session.ask("what about the busiest month for the second one?", "p")
    months = sql(
        gold,
        "select strftime(date_trunc('month', arrival_date), '%Y-%m-%d'), count(*) n from shipments "
        f"where port_of_unlading = 'SAVANNAH' and carrier_name = '{second}' and arrival_date "
        "between "
        # June is not whole
        "'2026-01-01' and '2026-05-31' group by 1 order by n desc, 1 limit 1",
    )
    assert rows(busiest) == months and busiest.not_understood == []
    session.ask("top 3 carriers into Savannah this year", "p2")
    alone = session.ask("and the last one?", "p2")
    assert rows(alone) == sql(
        gold,
        "select count(*) from shipments where port_of_unlading = 'SAVANNAH' and "
        f"carrier_name = '{last}' and arrival_date between '2026-01-01' and '2026-06-15'",
    )


def test_a_period_of_the_last_answer_pointed_at_by_its_place(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    months = session.ask("the 3 busiest months for Savannah in 2025", "m")
    second = rows(months)[1]
    alone = session.ask("and the second one?", "m")
    end = sql(
        gold, f"select (date '{second[0]}' + interval 1 month - interval 1 day)::date::varchar"
    )[0][0]
    assert (
        rows(alone)
        == sql(
            gold,
            "select count(*) from shipments where port_of_unlading = 'SAVANNAH' and "
            f"arrival_date between '{second[0]}' and '{end}'",
        )
        == [[second[1]]]
    )


def test_a_superlative_points_at_the_row_first_on_its_measure(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("shipments per month into Savannah this year", "s")
    quietest = session.ask("and the quietest one?", "s")
    months = sql(
        gold,
        "select strftime(date_trunc('month', arrival_date), '%Y-%m-%d') m, count(*) n from "
        "shipments "
        "where port_of_unlading = 'SAVANNAH' and arrival_date between '2026-01-01' and "
        "'2026-05-31' "
        # June is cut short by the dates: not the quietest
        "group by 1 order by n, m limit 1",
    )
    assert (
        rows(quietest) == [[months[0][1]]]
        and f"“quietest one” read as {months[0][0]}" in quietest.assumptions
    )
    session.ask("TEU by carrier into Savannah this year", "t")
    slowest = session.ask("and the slowest one?", "t")  # another measure: the carriers ranked on it
    assert [[r[0], r[1]] for r in rows(slowest)] == sql(
        gold,
        "select carrier_name, round(avg(transit_days), 2) a from shipments where port_of_unlading "
        "= "
        "'SAVANNAH' and arrival_date between '2026-01-01' and '2026-06-15' group by 1 order by a "
        "desc limit 1",
    )


KEPT = "kept from the last question"


def test_a_short_follow_up_groups_the_last_records(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    """ "what vessels?" after "did anything arrive …?": the vessels of those same records, and it
    says so."""
    arrived = session.ask("did anything arrive in Los Angeles yesterday?", "v")
    where = "where port_of_unlading = 'LOS ANGELES' and arrival_date = '2026-06-14'"
    assert arrived.results[0].total == sql(gold, f"select count(*) from shipments {where}")[0][0]
    vessels = session.ask("what vessels?", "v")
    assert sorted(rows(vessels)) == sql(
        gold, f"select distinct vessel_name from shipments {where} order by 1"
    )
    assert (
        f"{KEPT}: port of unlading LOS ANGELES; 14 Jun 2026 (arrival date)" in vessels.assumptions
    )
    assert vessels.not_understood == []


def test_how_another_value_stacks_up_puts_both_series_side_by_side(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    """ "and how does Tacoma stack up?" after TEU into Seattle by quarter: both ports' quarters, not
    Tacoma's description."""
    session.ask("TEU into Seattle by quarter", "t")
    both = session.ask("and how does Tacoma stack up?", "t")
    wanted = sql(
        gold,
        "select port_of_unlading, strftime(date_trunc('quarter', arrival_date), '%Y-%m-%d'), "
        "sum(teu) from shipments where port_of_unlading in ('SEATTLE', 'TACOMA') "
        "and arrival_date is not null group by 1, 2",
    )
    assert sorted(rows(both)) == sorted(wanted)
    assert both.results[0].columns == ["port_of_unlading", "period", "TEU"]
    assert f"{KEPT}: total TEU; per quarter" in both.assumptions


def test_a_follow_up_of_a_flagged_turn_says_the_word_again(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    """The last turn did not read "bicycles": the refinement built on it says so first, again."""
    first = session.ask("How many bicycles came into Baltimore last month?", "b")
    assert first.not_understood == ["bicycles"]
    norfolk = session.ask("and in Norfolk?", "b")
    assert rows(norfolk) == sql(
        gold, COUNT.format(port="NORFOLK", start="2026-05-01", end="2026-05-31")
    )
    assert norfolk.not_understood == ["bicycles"]
    assert norfolk.answer.startswith("I did not understand “bicycles”, so I did not use it")
    assert f"{KEPT}: number of shipments; May 2026 (arrival date)" in norfolk.assumptions
    by_carrier = session.ask("by carrier", "b")
    assert sorted(rows(by_carrier)) == sql(
        gold,
        "select carrier_name, count(*) from shipments where port_of_unlading "
        "= 'NORFOLK' and arrival_date between '2026-05-01' and '2026-05-31' "
        "group by 1 order by 1",
    )
    assert by_carrier.not_understood == ["bicycles"]


def test_an_average_per_period_has_no_period_for_a_superlative_to_point_at(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    """A row's cell is a period only by its role in the result table: an average per month's one row
    ([average, months, total]) holds no period, so its figure is never read as a date (it crashed on
    `Invalid isoformat string: '14579.83'` when the first cell was taken for one)."""
    average = session.ask("average TEU per month this year", "a")
    total = sql(
        gold,
        "select sum(teu) from shipments where arrival_date between '2026-01-01' and '2026-06-15'",
    )[0][0]
    assert average.status == "done" and rows(average) == [[round(total / 6, 2), 6, total]]
    busiest = session.ask("and the busiest one?", "a")
    assert busiest.status == "done" and busiest.not_understood == ["busiest"], busiest.answer
