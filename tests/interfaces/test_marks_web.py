"""Marking answers on the page, in Chromium against `bosun serve`: the buttons, the correction form,
and the marks shown again after a reload."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.interfaces.test_web import ask, browser, page  # noqa: F401 - Chromium and a served page

pytestmark = pytest.mark.slow


def test_answers_are_marked_right_or_corrected_and_stay_marked_after_a_reload(page: Any) -> None:  # noqa: F811
    first = ask(page, "How many shipments arrived in Houston last month?", 1)
    turn = page.locator(".turn").nth(0)
    turn.locator(".verdict-right").click()
    turn.locator(".verdict-said", has_text="Marked").wait_for()  # once the server has answered
    assert turn.locator(".verdict-said").inner_text() == "Marked right"
    assert turn.locator(".verdict-right").get_attribute("aria-pressed") == "true"
    assert first.get_attribute("data-status") == "done"

    ask(page, "Top 3 carriers by TEU in 2025", 2)
    second = page.locator(".turn").nth(1)
    assert second.locator(".verdict-form").is_hidden()
    second.locator(".verdict-wrong").click()
    second.locator(".verdict-figure").fill("1234")
    second.locator(".verdict-note").fill("held ones count too")
    second.locator(".verdict-form button").click()
    second.locator(".verdict-said", has_text="Marked").wait_for()
    assert second.locator(".verdict-said").inner_text() == "Marked wrong (should be 1234)"
    assert second.locator(".verdict-form").is_hidden()

    thread = re.search(r"thread=([\w-]+)", page.url)
    assert thread is not None
    base = page.url.split("/#")[0]
    marks = httpx.get(f"{base}/threads/{thread.group(1)}/marks").json()
    assert [(m["turn"], m["right"], m["figure"], m["correction"]) for m in marks] == [
        (1, True, None, ""),
        (2, False, 1234.0, "held ones count too"),
    ]

    page.reload()
    page.wait_for_function(
        "document.querySelectorAll('.verdict-said')[1]?.textContent.startsWith('Marked wrong')"
    )
    assert (
        page.locator(".turn").nth(0).locator(".verdict-right").get_attribute("aria-pressed")
        == "true"
    )
    assert (
        page.locator(".turn").nth(1).locator(".verdict-wrong").get_attribute("aria-pressed")
        == "true"
    )
