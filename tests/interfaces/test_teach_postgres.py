"""Taught words past one machine: two `bosun serve` processes on one PostgreSQL read what either was
taught."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.interfaces.serving import bosun_serve, data_copy
from tests.interfaces.test_postgres import postgres_url  # noqa: F401 - the throwaway server fixture

pytestmark = pytest.mark.slow


def _ask(base: str, question: str) -> dict[str, object]:
    thread = httpx.post(f"{base}/threads").json()["thread_id"]
    answer: dict[str, object] = httpx.post(
        f"{base}/threads/{thread}/turns", json={"question": question}, timeout=60
    ).json()
    return answer


def test_a_word_taught_through_one_server_is_read_by_the_other(
    data_dir: Path,
    tmp_path: Path,
    postgres_url: str,  # noqa: F811
) -> None:
    shared = {"BOSUN_CHECKPOINT_URL": postgres_url}
    with (
        bosun_serve(data_copy(data_dir, tmp_path / "a"), **shared) as one,
        bosun_serve(data_copy(data_dir, tmp_path / "b"), **shared) as two,
    ):
        unread = _ask(two, "shipments by liner in 2025")
        taught = httpx.post(f"{one}/vocabulary", json={"word": "liner", "means": "carrier"})
        read = _ask(two, "shipments by liner in 2025")
        listed = httpx.get(f"{two}/vocabulary").json()
        removed = httpx.delete(f"{two}/vocabulary/liner")
        forgotten = _ask(one, "shipments by liner in 2025")
    assert unread["not_understood"] == ["liner"] and taught.status_code == 201
    assert read["not_understood"] == [] and read["results"][0]["reading"].startswith(  # type: ignore[index]
        "number of shipments · by carrier"
    )
    assert read["assumptions"][-1].startswith("“liner” read as carrier name — taught by local on ")  # type: ignore[index]
    assert [(w["word"], w["target"]) for w in listed] == [("liner", "carrier_name")]
    assert removed.status_code == 204 and forgotten["not_understood"] == ["liner"]
    assert not (tmp_path / "a" / "conversations.sqlite").exists()
