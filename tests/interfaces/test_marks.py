"""Answers marked right or wrong, end to end: `bosun chat`, the API (token, restart), PostgreSQL,
MCP, and `bosun eval export` → `bosun eval` round trips."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anyio
import duckdb
import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from typer.testing import CliRunner

from bosun.conversation.marking import mark_turn
from bosun.conversation.marks import MarkStore
from bosun.conversation.session import open_session
from bosun.interfaces.cli.app import app
from bosun.settings import Settings
from tests.interfaces.serving import bosun_serve, data_copy
from tests.interfaces.test_postgres import postgres_url  # noqa: F401 - the throwaway server fixture

HOUSTON = "How many shipments arrived in Houston last month?"
TOP = "Top 3 carriers by TEU in 2025"
MAERSK_LA = "Show me Maersk shipments to Los Angeles"
SAVANNAH = "How many shipments arrived in Savannah last month?"
REEFER = "what is a reefer"


def _cli(folder: Path, *args: str, lines: list[str] | None = None) -> str:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOSUN_DATA_DIR", str(folder))
        text = "\n".join(lines) + "\n" if lines is not None else None
        result = CliRunner().invoke(app, list(args), input=text, terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


def _gold(data_dir: Path, sql: str) -> Any:
    with duckdb.connect(str(data_dir / "bosun.duckdb"), read_only=True) as connection:
        return connection.execute(sql).fetchall()


def _scores(output: str) -> dict[str, tuple[int, int]]:
    """kind → (passed, items) from `bosun eval`'s table."""
    rows = re.findall(r"│ (\w+)\s*│ (\d+)\s*│ (\d+)\s*│", output)
    return {kind: (int(passed), int(items)) for kind, passed, items in rows}


def test_chat_marks_and_eval_export_round_trips_every_confirmed_answer(
    data_dir: Path, tmp_path: Path
) -> None:
    folder = data_copy(data_dir, tmp_path / "d")
    out = _cli(
        folder,
        "chat",
        lines=[
            HOUSTON,
            "/right",
            TOP,
            "/right",
            MAERSK_LA,
            "/right",
            REEFER,
            "/right",
            SAVANNAH,
            "/wrong",
            "/right",
            "/new",
            "/wrong",
            "/quit",
        ],
    )
    assert out.count("marked turn 1 right") == 1 and "marked turn 4 right" in out
    # the last mark of a turn wins
    assert "marked turn 5 wrong" in out and "marked turn 5 right" in out
    assert "no answer to mark yet on this conversation" in out  # after /new
    exported = tmp_path / "confirmed.jsonl"
    said = _cli(folder, "eval", "export", "--out", str(exported))
    assert (
        "exported 4 of 5 marked answers; skipped 1" in said
        and f"(“{REEFER}”): marked right, with no figure" in said
    )
    items = [json.loads(line) for line in exported.read_text().splitlines()]
    [(houston,)] = _gold(
        data_dir,
        "select count(*) from shipments where port_of_unlading = 'HOUSTON' and "
        "arrival_date between '2026-05-01' and '2026-05-31'",
    )
    [(la,)] = _gold(
        data_dir,
        "select count(*) from shipments where carrier_name = 'MAERSK' and "
        "port_of_unlading = 'LOS ANGELES'",
    )
    top = _gold(
        data_dir,
        "select carrier_name, sum(teu) t from shipments where arrival_date between '2025-01-01' "
        "and '2025-12-31' group by 1 order by t desc limit 3",
    )
    assert [(i["turns"], i["expect"]) for i in items] == [
        ([HOUSTON], {"kind": "value", "gold_sql": f"select {houston}"}),
        (
            [HOUSTON, TOP],
            {
                "kind": "table",
                "ordered": True,
                "gold_sql": "select * from (values "
                + ", ".join(f"('{name}', {teu})" for name, teu in top)
                + ")",
            },
        ),
        ([HOUSTON, TOP, MAERSK_LA], {"kind": "count", "gold_sql": f"select {la}"}),
        (
            [HOUSTON, TOP, MAERSK_LA, REEFER, SAVANNAH],
            {"kind": "value", "gold_sql": items[3]["expect"]["gold_sql"]},
        ),
    ]
    assert all(i["confirmed"]["right"] and i["confirmed"]["by"] for i in items)
    scores = _scores(_cli(folder, "eval", str(exported), "--failures"))
    assert scores["overall"] == (4, 4)


def test_a_corrected_figure_fails_in_eval_until_the_answer_gives_it(
    data_dir: Path, tmp_path: Path
) -> None:
    folder = data_copy(data_dir, tmp_path / "d")
    [(april,)] = _gold(
        data_dir,
        "select count(*) from shipments where port_of_unlading = 'SAVANNAH' and "
        "arrival_date between '2026-04-01' and '2026-04-30'",
    )
    out = _cli(
        folder,
        "chat",
        lines=[SAVANNAH, f"/wrong {april} I meant April", HOUSTON, "/wrong not this", "/quit"],
    )
    assert f"marked turn 1 wrong (should be {april})" in out and "marked turn 2 wrong" in out
    exported = tmp_path / "corrected.jsonl"
    said = _cli(folder, "eval", "export", "--out", str(exported))
    assert "exported 1 of 2 marked answers; skipped 1" in said
    assert f"turn 2 (“{HOUSTON}”): marked wrong, without a corrected figure" in said
    [item] = [json.loads(line) for line in exported.read_text().splitlines()]
    assert item["expect"] == {"kind": "value", "gold_sql": f"select {float(april)!r}::DOUBLE"}
    assert item["confirmed"]["correction"] == "I meant April" and not item["confirmed"]["right"]
    failing = _cli(folder, "eval", str(exported), "--failures")
    assert _scores(failing)["overall"] == (0, 1) and f"expected {float(april)!r}" in failing
    # a month later "last month" is April: the answer changes, and now gives the corrected figure
    assert _scores(_cli(folder, "eval", str(exported), "--as-of", "2026-05-15"))["overall"] == (
        1,
        1,
    )


def test_the_api_marks_with_the_token_and_marks_survive_a_restart(
    data_dir: Path, tmp_path: Path
) -> None:
    folder = data_copy(data_dir, tmp_path / "d")
    token = {"Authorization": "Bearer s3cret"}
    with bosun_serve(folder, BOSUN_API_TOKEN="s3cret") as base:
        thread = httpx.post(f"{base}/threads", headers=token).json()["thread_id"]
        httpx.post(
            f"{base}/threads/{thread}/turns", json={"question": HOUSTON}, headers=token, timeout=60
        )
        path = f"{base}/threads/{thread}/turns/1/mark"
        assert httpx.post(path, json={"right": True}).status_code == 401
        first = httpx.post(path, json={"right": True, "by": "anna"}, headers=token).json()
        second = httpx.post(
            path, json={"right": False, "figure": 61, "correction": "held ones too"}, headers=token
        ).json()
        unknown = httpx.post(
            f"{base}/threads/{thread}/turns/2/mark", json={"right": True}, headers=token
        )
        nothread = httpx.post(
            f"{base}/threads/nope/turns/1/mark", json={"right": True}, headers=token
        )
        bad = httpx.post(path, json={"right": "perhaps"}, headers=token)
    # who marks is the request's identity (the token's name), never the body's "by"
    assert (first["right"], first["by"], second["right"], second["figure"], second["by"]) == (
        True,
        "api",
        False,
        61.0,
        "api",
    )
    assert (unknown.status_code, unknown.json()["error"]) == (404, "unknown_turn")
    assert (nothread.status_code, bad.status_code) == (404, 400)
    with bosun_serve(folder, BOSUN_API_TOKEN="s3cret") as base:
        kept = httpx.get(f"{base}/threads/{thread}/marks", headers=token).json()
        httpx.delete(f"{base}/threads/{thread}", headers=token)
    assert kept == [second]
    # deleted with its thread
    assert "exported 0 of 0 marked answers" in _cli(folder, "eval", "export")


def test_marks_live_in_postgres_beside_the_turns(
    data_dir: Path,
    tmp_path: Path,
    postgres_url: str,  # noqa: F811
) -> None:
    settings = Settings(data_dir=data_copy(data_dir, tmp_path / "d"), checkpoint_url=postgres_url)
    session = open_session(settings)
    session.ask(HOUSTON, "pg-marks")
    mark_turn(session, "pg-marks", None, False, "anna", 12.5, "wrong month")
    mark_turn(session, "pg-marks", 1, False, "bob", 13.0, "wrong month, really")
    session.close()
    session = open_session(settings)
    [kept] = MarkStore(session.store).confirmed()
    session.close()
    assert (kept.mark.by, kept.mark.figure, kept.mark.correction, kept.question) == (
        "bob",
        13.0,
        "wrong month, really",
        HOUSTON,
    )
    assert not (settings.data_dir / "conversations.sqlite").exists()


def test_mcp_marks_the_last_answer_of_a_thread(data_dir: Path, tmp_path: Path) -> None:
    folder = data_copy(data_dir, tmp_path / "d")

    async def marked(base: str) -> tuple[Any, Any, str]:
        async with Client(streamable_http_client(f"{base}/mcp")) as client:
            asked = (await client.call_tool("ask", {"question": HOUSTON})).structured_content
            assert asked is not None
            mark = await client.call_tool(
                "mark_answer",
                {
                    "thread_id": asked["thread_id"],
                    "right": False,
                    "figure": 60,
                    "correction": "one more",
                },
            )
            missing = await client.call_tool("mark_answer", {"thread_id": "nope", "right": True})
            return asked["thread_id"], mark.structured_content, missing.content[0].text  # type: ignore[union-attr]

    with bosun_serve(folder) as base:
        thread, mark, missing = anyio.run(marked, base)
        kept = httpx.get(f"{base}/threads/{thread}/marks").json()
    assert mark is not None and (mark["turn"], mark["right"], mark["figure"], mark["by"]) == (
        1,
        False,
        60.0,
        "local",  # on loopback, no token
    )
    assert kept == [mark]
    assert missing == "Error executing tool mark_answer: no thread 'nope'"
