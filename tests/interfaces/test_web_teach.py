"""Teaching a word on the page, in Chromium: the button next to a word an answer did not understand
offers the catalog's entries, refuses a shadowing word until asked again, and the next question
reads the word taught."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.interfaces.serving import bosun_serve, data_copy
from tests.interfaces.test_web import ask, browser, shot  # noqa: F401 - the Chromium fixture

pytestmark = pytest.mark.slow


@pytest.fixture
def page(browser: Any, data_dir: Path, tmp_path: Path) -> Iterator[Any]:  # noqa: F811
    with bosun_serve(data_copy(data_dir, tmp_path / "d")) as base:
        opened = browser.new_page(viewport={"width": 1280, "height": 900})
        opened.set_default_timeout(30_000)
        opened.goto(base + "/")
        yield opened
        opened.close()


def test_a_word_is_taught_from_the_not_understood_line_and_read_next_time(page: Any) -> None:
    first = ask(page, "shipments by liner in 2025", 1)
    assert first.locator(".unread").all_inner_texts() == ["liner"]
    first.get_by_role("button", name="Teach “liner”").click()
    choice = first.get_by_label("What “liner” means")
    choice.locator("option").first.wait_for(state="attached")
    assert "field carrier name" in choice.locator("option").all_inner_texts()
    # a measure: typed in, it is checked as any entry
    first.get_by_role("textbox", name="“liner” means").fill("volume")
    first.get_by_role("button", name="Teach", exact=True).click()
    said = first.locator(".teach-said")
    said.get_by_text("Taught: “liner” means measure volume").wait_for()
    shot(page, "teach-1-taught")
    second = ask(page, "total liner by carrier in 2025", 2)
    assert second.locator(".not-understood").count() == 0
    assert (
        "“liner” read as volume — taught by local on "
        in second.locator(".assumptions").inner_text()
    )


def test_a_grammar_word_and_a_meaning_outside_the_catalog_are_refused_on_the_page(
    page: Any,
) -> None:
    # an unknown word where a measure goes is refused outright ("total haul by carrier" names no
    # measure); asked as a count, both unread words are offered to teach
    first = ask(page, "how many haul by carrier in 2025, both", 1)
    assert first.locator(".unread").all_inner_texts() == ["haul", "both"]
    first.get_by_role("button", name="Teach “both”").click()
    first.get_by_role("textbox", name="“both” means").fill("teu")
    first.get_by_role("button", name="Teach", exact=True).click()
    refusal = first.get_by_role("alert")
    # a grammar word: never taught, and no "Teach anyway" to offer
    refusal.get_by_text(
        re.compile("“both” is a word of the grammar .*: it cannot be taught")
    ).wait_for()
    assert refusal.get_by_role("button", name="Teach anyway").count() == 0
    first.get_by_role("button", name="Teach “haul”").click()
    first.get_by_role("textbox", name="“haul” means").fill("password_hash")
    first.get_by_role("button", name="Teach", exact=True).click()
    first.get_by_role("alert").get_by_text(
        "“password_hash” names nothing in the catalog"
    ).wait_for()
    shot(page, "teach-2-refused")
    first.get_by_role("textbox", name="“haul” means").fill("TEU")
    first.get_by_role("button", name="Teach", exact=True).click()
    first.locator(".teach-said").get_by_text("Taught: “haul” means measure teu").wait_for()
    second = ask(page, "how many haul by carrier in 2025", 2)
    assert second.locator(".not-understood").count() == 0  # "haul" now reads the measure taught
