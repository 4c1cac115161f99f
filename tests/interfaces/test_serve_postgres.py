"""Past one machine: two `bosun serve` processes share one PostgreSQL and carry one thread between
them."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.interfaces.serving import bosun_serve, data_copy
from tests.interfaces.test_postgres import postgres_url  # noqa: F401 - the throwaway server fixture

pytestmark = pytest.mark.slow


def test_one_thread_continues_alternately_through_two_servers(
    data_dir: Path,
    tmp_path: Path,
    postgres_url: str,  # noqa: F811
) -> None:
    shared = {"BOSUN_CHECKPOINT_URL": postgres_url}
    questions = [
        "How many shipments arrived in Savannah last month?",
        "and in Charleston?",
        "Show shipments from Acme Corp to Houston",
        "ACME CORP LLC",
    ]
    with (
        bosun_serve(data_copy(data_dir, tmp_path / "a"), **shared) as one,
        bosun_serve(data_copy(data_dir, tmp_path / "b"), **shared) as two,
    ):
        thread = httpx.post(f"{one}/threads").json()["thread_id"]
        answers = [
            httpx.post(f"{base}/threads/{thread}/turns", json={"question": q}, timeout=60).json()
            for base, q in zip([one, two, one, two], questions, strict=True)
        ]
        seen_by_two = httpx.get(f"{two}/threads/{thread}").json()["turns"]
        seen_by_one = httpx.get(f"{one}/threads/{thread}").json()["turns"]
    # read with turn 1 from server one
    assert answers[1]["results"][0]["title"].endswith("→ and in Charleston?")
    assert answers[2]["status"] == "needs_clarification"
    assert answers[3]["results"][0]["title"] == "Show shipments from ACME CORP LLC to Houston"
    assert [t["answer"] for t in seen_by_two] == answers == [t["answer"] for t in seen_by_one]
    assert not (tmp_path / "a" / "conversations.sqlite").exists()
