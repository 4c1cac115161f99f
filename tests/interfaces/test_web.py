"""The web page in Debian's headless Chromium (driven by Playwright) against `bosun serve` on
loopback.

Screenshots of each state are saved under test-output/browser/ for a person to look at.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import missing_system_part
from tests.engines.graphql_server import free_port
from tests.interfaces.serving import bosun_serve, data_copy

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "browser"
AXE = (
    Path(__file__).resolve().parents[2]
    / ".venv"
    / "axe-core"
    / "node_modules"
    / "axe-core"
    / "axe.min.js"
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        missing_system_part(
            f"no {CHROMIUM}: install Debian's chromium (python3 dev.py test does so as root)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module", autouse=True)
def shots() -> None:
    """The screenshots of this run only."""
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)


@pytest.fixture
def page(browser: Any, data_dir: Path, tmp_path: Path) -> Iterator[Any]:
    with bosun_serve(data_copy(data_dir, tmp_path / "d")) as base:
        opened = browser.new_page(viewport={"width": 1280, "height": 900})
        opened.set_default_timeout(30_000)
        opened.goto(base + "/")
        yield opened
        opened.close()


EDGES_THROUGH_BOXES = """(() => {
  const boxes = [...document.querySelectorAll('#dag .node rect')].map(r => r.getBBox());
  let crossing = 0;
  for (const edge of document.querySelectorAll('#dag .edge')) {
    const length = edge.getTotalLength();
    for (let at = 2; at < length - 2; at += 2) {
      const p = edge.getPointAtLength(at);
      crossing += boxes.some(b => p.x > b.x + 1 && p.x < b.x + b.width - 1 && p.y > b.y + 1 &&
                             p.y < b.y + b.height - 1) ? 1 : 0;
    }
  }
  return crossing;
})()"""


def ask(page: Any, question: str, answers: int) -> Any:
    """Type the question, wait for its answer (the page's `answers`-th); returns that answer's
    element."""
    page.fill("#question", question)
    page.press("#question", "Enter")
    page.wait_for_function(f"document.querySelectorAll('.answer[data-status]').length >= {answers}")
    return page.locator(".answer[data-status]").nth(answers - 1)


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_compare_trend_clarify_follow_up_and_reload(page: Any) -> None:
    compared = ask(page, "Compare Maersk vs Evergreen shipping volumes to LA last quarter", 1)
    compared.locator(".chart[data-mark=bar] svg .mark-rect path").first.wait_for()
    assert compared.locator(".mark-rect path").count() == 2  # one bar per carrier
    assert (
        page.locator("#dag .node.success").count() >= 4 and page.locator("#dag .edge").count() >= 3
    )
    assert page.locator("#dag").is_hidden()  # the plan is folded until someone opens it
    page.locator("#plan-toggle").click()
    assert page.locator("#dag").is_visible() and page.evaluate(EDGES_THROUGH_BOXES) == 0
    assert page.locator("#dag .node text").first.inner_html() == "read the question"
    shot(page, "1-comparison-bars")

    followed = ask(page, "what about Long Beach?", 2)
    # titled by how it was read, above chart and table
    reading = followed.locator(".result h3.reading")
    assert reading.inner_text() == (
        "Total volume (TEU) · by carrier · carrier MAERSK or EVERGREEN · port of unlading "
        "LONG BEACH · Q1 2026 (arrival date) (2 total)"
    )
    # the question is said once, in its bubble
    assert followed.locator(".chart svg .role-title").count() == 0
    shot(page, "2-follow-up")

    trend = ask(page, "Monthly shipments in 2025", 3)
    trend.locator(".chart[data-mark=line] svg .mark-line path").first.wait_for()
    assert trend.locator("tbody tr").count() == 12
    # periods as people write them
    assert trend.locator("tbody tr td").first.inner_text() == "January 2025"
    # and so does the answer, never 2025-01-01
    assert "January 2025" in trend.locator(".text").first.inner_text()
    assert "2025-01-01" not in trend.inner_text()
    axis = trend.locator(".chart svg .role-axis-label text").evaluate_all(
        "all => all.map(t => t.textContent)"
    )
    assert "Jan 2025" in axis and not any(re.search(r"\d{4}-\d{2}", label) for label in axis), axis
    assert trend.locator(".pager button").all_inner_texts()[-2:] == [
        "download CSV",
        "download XLSX",
    ]
    assert trend.locator("th").first.inner_text() == "month"  # the answer's heading
    counts = trend.locator("tbody td.num").all_inner_texts()
    # thousands grouped, every row
    assert all(re.fullmatch(r"\d{1,3}(,\d{3})*", c) for c in counts), counts
    shot(page, "3-trend-line")

    asked = ask(page, "Show shipments from Acme Corp to Houston", 4)
    assert asked.get_attribute("data-status") == "needs_clarification"
    shot(page, "4-clarification")
    asked.locator(".options button", has_text="ACME CORP LLC").click()
    picked = page.locator(".answer[data-status]").nth(4)
    picked.wait_for()
    assert "shipper ACME CORP LLC" in picked.locator(".result h3").inner_text()
    picked.locator("th", has_text="arrival").first.click()  # sort by a column
    assert picked.locator("th[aria-sort=ascending]").inner_text().startswith("arrival")
    shot(page, "5-option-picked")

    page.reload()
    page.wait_for_function("document.querySelectorAll('.answer[data-status]').length === 5")
    questions = page.locator(".question").all_inner_texts()
    assert questions[0].startswith("Compare Maersk") and questions[-1] == "ACME CORP LLC"
    # charts drawn from history too
    page.locator(".chart[data-mark=line] svg .mark-line path").first.wait_for()
    assert page.locator("#threads li.current").inner_text().startswith("Compare Maersk")
    shot(page, "6-after-reload")


TEXTS = "all => all.map(t => t.textContent)"  # an SVG text has no inner text


def test_charts_are_titled_in_the_answers_words_and_draw_every_measure(page: Any) -> None:
    answer = ask(page, "Top 5 shippers to LA and their average transit times", 1)
    answer.locator(".chart[data-mark=bar] svg .mark-rect path").first.wait_for()
    titles = answer.locator(".chart svg .role-axis-title text").evaluate_all(TEXTS)
    # two measures, two views: each axis titled as the table heads its column
    assert sorted(set(titles)) == ["average transit days", "shipments", "shipper"], titles
    assert not any("_" in title for title in titles)
    assert answer.locator("th").all_inner_texts() == [
        "shipper",
        "shipments",
        "average transit days",
    ]
    shot(page, "7-chart-titles-two-measures")

    share = ask(page, "share of TEU by carrier in 2025", 2)
    share.locator(".chart svg .mark-rect path").first.wait_for()
    legend = share.locator(".chart svg .role-legend-label text").evaluate_all(TEXTS)
    assert len(legend) == len(share.locator("tbody tr").all()) == 12  # every part in the legend
    colours = share.locator(".chart svg .role-legend-symbol path").evaluate_all(
        "all => all.map(p => p.getAttribute('fill'))"
    )
    assert len(set(colours)) == 12, colours  # each in a colour of its own
    assert legend[0] == share.locator("tbody tr td").first.inner_text()  # largest first
    shot(page, "8-share-full-legend")


@pytest.fixture
def phone(browser: Any, data_dir: Path, tmp_path: Path) -> Iterator[Any]:
    with bosun_serve(data_copy(data_dir, tmp_path / "d")) as base:
        opened = browser.new_page(viewport={"width": 390, "height": 844})
        opened.set_default_timeout(30_000)
        opened.goto(base + "/")
        yield opened
        opened.close()


def test_a_chart_of_two_measures_fits_a_phone(phone: Any) -> None:
    answer = ask(phone, "Top 5 shippers to LA and their average transit times", 1)
    chart = answer.locator(".chart")
    chart.locator("svg .mark-rect path").first.wait_for()
    inside, drawn = chart.evaluate("c => [c.clientWidth, c.scrollWidth]")
    assert drawn <= inside, (drawn, inside)  # both views, axes and all, within the page
    chart.scroll_into_view_if_needed()
    shot(phone, "phone-chart-two-measures")


def test_a_phone_sized_page_starts_with_suggestions_and_answers_without_sideways_scrolling(
    phone: Any,
) -> None:
    suggestion = phone.locator("#suggestions button").first
    suggestion.wait_for()
    assert phone.locator("#suggestions button").count() == 6
    assert (
        "50,000 shipments from 24 Jun 2024 to 15 Jun 2026" in phone.locator("#holds").inner_text()
    )
    shot(phone, "phone-1-start")
    asked = suggestion.inner_text()
    suggestion.click()
    phone.wait_for_function("document.querySelectorAll('.answer[data-status]').length >= 1")
    answer = phone.locator(".answer[data-status]").first
    assert answer.get_attribute("data-status") == "done"
    assert phone.locator(".question").first.inner_text() == asked
    assert phone.locator("#start").is_hidden()
    chart = answer.locator(".chart svg").first
    chart.wait_for()
    assert chart.bounding_box()["width"] > 250  # drawn at the width of the screen, not squeezed
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing scrolls sideways
    ask_button = phone.locator("form#ask button").bounding_box()
    assert (
        ask_button["x"] + ask_button["width"] <= 390
        and ask_button["y"] + ask_button["height"] <= 844
    )
    shot(phone, "phone-2-answer")

    assert phone.locator("#sidebar").bounding_box()["x"] < 0  # the threads are in a closed drawer
    phone.locator("#drawer").click()
    phone.wait_for_function("document.querySelector('#sidebar').getBoundingClientRect().x >= 0")
    assert phone.locator("#threads li.current").inner_text().startswith(asked)
    shot(phone, "phone-3-drawer")


def test_a_question_asked_while_the_server_is_unreachable_stays_with_a_retry(
    page: Any,
) -> None:
    page.locator("#suggestions button").first.wait_for()
    page.route("**/threads**", lambda route: route.abort())
    page.fill("#question", "How many shipments arrived last month?")
    page.press("#question", "Enter")
    unsent = page.locator(".answer.unsent")
    unsent.wait_for()
    assert "cannot be reached" in unsent.inner_text()
    assert page.locator(".question").all_inner_texts() == ["How many shipments arrived last month?"]
    assert page.locator("#plan-status").inner_text().startswith("failed")
    shot(page, "7-unreachable")
    page.unroute("**/threads**")
    unsent.locator(".retry").click()
    page.wait_for_function("document.querySelectorAll('.answer[data-status]').length === 1")
    assert page.locator(".answer[data-status]").first.get_attribute("data-status") == "done"
    assert page.locator(".turn").count() == 1 and page.locator("#banner").is_hidden()


def test_threads_follow_the_url_and_the_back_button(page: Any) -> None:
    ask(page, "Monthly shipments in 2025", 1)
    first = page.evaluate("location.hash")
    page.locator("#new-thread").click()
    assert page.locator("#start").is_visible() and page.locator(".turn").count() == 0
    ask(page, "top 3 carriers by TEU", 1)
    assert page.evaluate("location.hash") != first
    page.go_back()  # the new conversation's empty start
    page.go_back()  # the first thread
    page.wait_for_function(
        "document.querySelectorAll('.question').length === 1 && "
        "document.querySelector('.question').textContent === 'Monthly shipments in 2025'"
    )
    assert page.evaluate("location.hash") == first
    assert page.locator("#threads li").count() == 2  # no empty thread was left behind
    # threads are reachable by keyboard; the list may still re-render once after the back
    # button, so the focus is given until it holds
    page.wait_for_function(
        "(() => { document.querySelector('#threads li button').focus(); "
        "return document.activeElement.closest('#threads') !== null; })()"
    )


def test_a_long_record_list_pages_through_the_server_and_downloads_whole(page: Any) -> None:
    asked: list[dict[str, Any]] = []  # the pager's requests, to see it page on by cursor
    page.on(
        "request",
        lambda request: (
            asked.append(request.post_data_json) if request.url.endswith("/records") else None
        ),
    )
    listing = ask(page, "Show shipments from Shanghai to Oakland in 2025", 1)
    total = int(
        re.search(r"\(([\d,]+) total\)", listing.locator(".result h3").inner_text())[1].replace(
            ",", ""
        )
    )
    assert total > 40 and listing.locator("tbody tr").count() == 20
    first = listing.locator("tbody tr").first.inner_text()
    listing.locator(".pager button", has_text="next").click()
    page.wait_for_function("document.querySelector('.pager span').textContent.startsWith('page 2')")
    listing.locator("tbody tr").first.wait_for()
    assert (
        listing.locator("tbody tr").count() == 20
        and listing.locator("tbody tr").first.inner_text() != first
    )
    assert f"of {-(-total // 20)}" in listing.locator(".pager span").inner_text()
    shot(page, "8-page-two")
    second = listing.locator("tbody tr").first.inner_text()
    listing.locator(".pager button", has_text="next").click()
    page.wait_for_function("document.querySelector('.pager span').textContent.startsWith('page 3')")
    listing.locator("tbody tr").first.wait_for()
    assert listing.locator("tbody tr").first.inner_text() not in (first, second)
    assert [("offset" in body, "cursor" in body) for body in asked] == [
        (True, False),
        (False, True),
    ]
    with page.expect_download() as download:
        listing.locator(".pager button.csv").click()
    lines = Path(download.value.path()).read_text().strip().splitlines()
    assert len(lines) == total + 1 and lines[0].startswith("bol_number")


@pytest.mark.parametrize("size", [(1366, 900), (390, 844)], ids=["desktop", "phone"])
def test_a_reading_is_changed_and_a_suggestion_asked_with_a_click_in_the_same_thread(
    browser: Any, data_dir: Path, tmp_path: Path, size: tuple[int, int]
) -> None:
    """Issue 38 item 2: the date field chosen is a control under the result; its other reading,
    clicked, is asked in the same thread and read that way."""
    with bosun_serve(data_copy(data_dir, tmp_path / "d")) as base:
        opened = browser.new_page(viewport={"width": size[0], "height": size[1]})
        opened.set_default_timeout(30_000)
        opened.goto(base + "/")
        first = ask(opened, "TEU by carrier last month", 1)
        choices = first.locator(".choices li")
        assert choices.count() == 1
        assert choices.first.inner_text().startswith("“last month” read as arrival date.")
        assert choices.first.locator("button").all_inner_texts() == ["departure date", "eta"]
        thread = opened.evaluate("location.hash")
        choices.first.scroll_into_view_if_needed()
        if AXE.exists():
            assert serious_violations(opened) == []
        shot(opened, f"choices-1-{size[0]}")
        choices.first.locator("button", has_text="departure date").click()
        opened.wait_for_function("document.querySelectorAll('.answer[data-status]').length >= 2")
        second = opened.locator(".answer[data-status]").nth(1)
        assert opened.locator(".question").nth(1).inner_text() == "last month by departure date"
        assert (
            second.locator(".result h3.reading")
            .inner_text()
            .startswith("Total TEU · by carrier · May 2026 (departure date)")
        )
        assert opened.evaluate("location.hash") == thread  # the same conversation
        assert opened.evaluate("document.documentElement.scrollWidth") <= size[0]
        shot(opened, f"choices-2-{size[0]}")
        # issue 38 item 4: a question suggested next, clicked, is asked here and read as it says
        suggested = second.locator(".next button")
        assert suggested.count() == 3
        question = suggested.nth(1).inner_text()
        assert "April 2026 vs May 2026 compared" in question
        suggested.nth(1).scroll_into_view_if_needed()
        shot(opened, f"suggestions-1-{size[0]}")
        suggested.nth(1).click()
        opened.wait_for_function("document.querySelectorAll('.answer[data-status]').length >= 3")
        third = opened.locator(".answer[data-status]").nth(2)
        assert opened.locator(".question").nth(2).inner_text() == question
        reading = third.locator(".result h3.reading").inner_text()
        assert reading.lower().startswith(question.lower()), reading
        assert opened.evaluate("location.hash") == thread
        assert opened.locator("#threads li").count() == 1
        shot(opened, f"suggestions-2-{size[0]}")
        opened.close()


def serious_violations(page: Any) -> list[str]:
    """What axe-core finds of serious or critical impact on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations"
        ".filter(v => ['serious', 'critical'].includes(v.impact))"
        ".map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', ')))"
    )
    return list(found)


@pytest.mark.parametrize("size", [(1400, 900), (390, 844)], ids=["desktop", "phone"])
def test_axe_finds_no_serious_violation_on_the_start_screen_or_an_answer(
    browser: Any, data_dir: Path, tmp_path: Path, size: tuple[int, int]
) -> None:
    if not AXE.exists():
        missing_system_part("no axe-core: python3 dev.py test installs it with npm")
    with bosun_serve(data_copy(data_dir, tmp_path / "d")) as base:
        opened = browser.new_page(viewport={"width": size[0], "height": size[1]})
        opened.goto(base + "/")
        opened.locator("#suggestions button").first.wait_for()
        assert serious_violations(opened) == []
        ask(opened, "Compare Maersk vs Evergreen shipping volumes to LA last quarter", 1)
        opened.locator(".chart svg").first.wait_for()
        assert serious_violations(opened) == []
        opened.close()


def test_threads_are_renamed_deleted_with_undo_and_a_deleted_link_says_so(page: Any) -> None:
    ask(page, "Monthly shipments in 2025", 1)
    link = page.url
    rename(page, "2025 by month")
    page.wait_for_function(
        "document.querySelector('#threads li.current .open')?.textContent.startsWith('2025 by')"
    )
    page.reload()
    page.wait_for_function(
        "document.querySelector('#threads li .open')?.textContent.startsWith('2025 by month')"
    )

    page.locator("#threads li button.delete").first.click()
    page.wait_for_function("document.querySelectorAll('#threads li').length === 0")
    assert page.locator("#deleted").is_visible()
    shot(page, "9-deleted-with-undo")
    page.locator("#undo").click()
    page.wait_for_function("document.querySelectorAll('#threads li').length === 1")

    page.locator("#threads li button.delete").first.click()
    # deleted on the server
    page.wait_for_function("!document.querySelector('#deleted')", timeout=15_000)
    page.goto(link)
    page.locator("#banner").wait_for()
    assert "does not exist" in page.locator("#banner").inner_text()
    answer = ask(page, "How many shipments arrived last month?", 1)
    assert answer.get_attribute("data-status") == "done"
    assert page.url != link
    page.wait_for_function("document.querySelectorAll('#threads li').length === 1")


def rename(page: Any, title: str) -> None:
    """Rename the current thread in its place in the list."""
    page.locator("#threads li.current button.rename").click()
    page.locator("#threads .rename-form input").fill(title)
    page.locator("#threads .rename-form input").press("Enter")


def test_an_analysts_session_on_a_phone_survives_a_server_restart(
    browser: Any, data_dir: Path, tmp_path: Path
) -> None:
    """Ask and read a chart, export every record, follow up, rename the thread; the server stops and
    comes back on the same address, and the thread and its answers are all there (issue #26)."""
    folder, port = data_copy(data_dir, tmp_path / "d"), free_port()
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.set_default_timeout(30_000)
    with bosun_serve(folder, port=port) as base:
        phone.goto(base + "/")
        trend = ask(phone, "Monthly TEU into Savannah in 2025", 1)
        trend.locator(".chart[data-mark=line] svg .mark-line path").first.wait_for()
        listing = ask(phone, "Show shipments from Shanghai to Oakland in 2025", 2)
        total = int(
            re.search(r"\(([\d,]+) total\)", listing.locator(".result h3").inner_text())[1].replace(
                ",", ""
            )
        )
        with phone.expect_download() as download:
            listing.locator(".pager button.csv").click()
        assert len(Path(download.value.path()).read_text().strip().splitlines()) == total + 1
        followed = ask(phone, "what about Seattle?", 3)
        assert followed.get_attribute("data-status") == "done"
        phone.locator("#drawer").click()
        rename(phone, "Savannah and Oakland")
        phone.wait_for_function(
            "document.querySelector('#threads li.current .open')?.textContent"
            ".startsWith('Savannah and Oakland')"
        )
        phone.locator("#drawer-close").click()
        shot(phone, "phone-4-session")
    phone.fill("#question", "How many shipments arrived last month?")
    phone.press("#question", "Enter")
    # the server is down: said where the question stands, with a Retry
    unsent = phone.locator(".answer.unsent")
    unsent.wait_for()
    assert phone.locator(".question").last.inner_text() == "How many shipments arrived last month?"
    shot(phone, "phone-5-server-down")
    with bosun_serve(folder, port=port):
        unsent.locator(".retry").click()
        phone.wait_for_function("document.querySelectorAll('.answer[data-status]').length === 4")
        assert phone.locator(".answer[data-status]").nth(3).get_attribute("data-status") == "done"
        phone.reload()
        phone.wait_for_function("document.querySelectorAll('.answer[data-status]').length === 4")
        assert phone.locator("#threads li.current").inner_text().startswith("Savannah and Oakland")
        shot(phone, "phone-6-after-restart")
    phone.close()
