"""The page in daily use (issue #38), in Chromium at 1366×900 and 390×844 against `bosun serve`:
failures that stay where they happened, states in words, the query each result ran, tables and
touch targets on a phone, the keyboard, dark mode, the exports the server writes, and a sidebar of
the page's own conversations.

Screenshots of each state are saved under the test's tmp folder, in shots/.
"""

from __future__ import annotations

import colorsys
import json
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from bosun.interfaces.cli.app import app as cli
from tests.conftest import missing_system_part
from tests.interfaces.serving import bosun_serve, data_copy
from tests.interfaces.test_export import _sheet
from tests.interfaces.test_web import AXE, ask, browser, serious_violations  # noqa: F401
from tests.reliability.badserver import wrong_server

pytestmark = pytest.mark.slow

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
LISTING = "Show shipments from Shanghai to Oakland in 2025"
AMBIGUOUS = "Show shipments from Acme Corp to Houston"

# whether an element is itself at its middle and near each edge: nothing drawn over any of it
UNCOVERED = """node => {
  const box = node.getBoundingClientRect();
  const [middle, centre] = [box.width / 2, box.height / 2];
  const points = [[middle, centre], [middle, 4], [middle, box.height - 4], [4, centre],
                  [box.width - 4, centre]];
  return points.every(([x, y]) => node.contains(document.elementFromPoint(box.x + x, box.y + y)));
}"""
# every button, link, field and sortable heading drawn under `root` that is less than 44 px a side
SMALL_TARGETS = """root => [...root.querySelectorAll('button, a[href], input, select, summary, th')]
  .filter(node => node.getClientRects().length > 0 && node.id !== 'skip')
  .map(node => [node.textContent.trim().slice(0, 30) || node.getAttribute('aria-label') || node.tagName,
                Math.round(node.getBoundingClientRect().width), Math.round(node.getBoundingClientRect().height)])
  .filter(([, width, height]) => width < 44 || height < 44)"""
# the lines a cell's text takes
LINES = """cell => { const range = document.createRange(); range.selectNodeContents(cell);
  return range.getClientRects().length; }"""
FIRST_TABBABLE = """[...document.querySelectorAll('a[href], button, input, select, [tabindex]')]
  .find(node => node.tabIndex >= 0 && !node.disabled && node.getClientRects().length > 0).id"""


@pytest.fixture(params=list(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def opened(browser: Any, base: str, size: str, **options: Any) -> Any:  # noqa: F811
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height}, **options)
    page.set_default_timeout(30_000)
    page.goto(base + "/")
    page.locator("#question").wait_for()
    return page


def shot(page: Any, tmp_path: Path, name: str) -> None:
    (tmp_path / "shots").mkdir(exist_ok=True)
    page.screenshot(path=str(tmp_path / "shots" / f"{name}.png"))


def plan_says(page: Any) -> str:
    return str(page.locator("#plan-status").inner_text())


def show_threads(page: Any, size: str) -> None:
    """The sidebar in view: on a phone, its drawer opened."""
    if size == "phone" and page.locator("#drawer").get_attribute("aria-expanded") != "true":
        page.locator("#drawer").click()
        page.wait_for_function("document.querySelector('#sidebar').getBoundingClientRect().x >= 0")


def hue(css: str) -> tuple[float, float]:
    """The hue in degrees and the saturation of an `rgb(…)` colour."""
    red, green, blue = (int(v) / 255 for v in re.findall(r"\d+", css)[:3])
    shade, _, saturation = colorsys.rgb_to_hls(red, green, blue)
    return shade * 360, saturation


def yellow(css: str) -> bool:
    degrees, saturation = hue(css)
    return 35 <= degrees <= 65 and saturation > 0.4


@contextmanager
def engine_down(folder: Path) -> Iterator[str]:
    """`bosun serve` on a cluster engine that answers every query with an HTTP 500."""
    folder.mkdir(parents=True, exist_ok=True)
    with (
        wrong_server("500") as cluster,
        bosun_serve(
            folder, ready="/openapi.json", BOSUN_ENGINE="opensearch", BOSUN_ENGINE_URL=cluster
        ) as base,
    ):
        yield base


def test_a_failed_question_stays_with_its_reason_and_a_retry_and_the_plan_speaks_words(
    browser: Any,  # noqa: F811
    tmp_path: Path,
    size: str,
) -> None:
    with engine_down(tmp_path / "d") as base:
        page = opened(browser, base, size)
        failed = ask(page, "How many shipments arrived last month?", 1)
        assert failed.get_attribute("data-status") == "failed"
        assert page.locator(".question").all_inner_texts() == [
            "How many shipments arrived last month?"
        ]
        assert "answered HTTP 500" in failed.locator(".text").inner_text()  # why, in one line
        assert failed.locator(".retry").is_visible()
        assert plan_says(page) == "failed: the search engine is down"
        shot(page, tmp_path, f"{size}-1-failed")

        ask(page, "What is a TEU?", 2)  # the glossary needs no engine
        assert plan_says(page) == "answered in 1 round"  # the failure is not said any more
        back = ask(page, AMBIGUOUS, 3)
        assert back.get_attribute("data-status") == "needs_clarification"
        assert plan_says(page) == "asked you a question"
        assert not yellow(back.evaluate("a => getComputedStyle(a).borderLeftColor"))
        page.locator("#plan-toggle").click()
        asking = page.locator("#dag .node").first
        assert asking.locator("text").nth(1).text_content().startswith("needs your answer")
        assert not yellow(asking.locator("rect").evaluate("r => getComputedStyle(r).fill"))
        plan = page.locator("#plan").text_content()
        assert not re.search(r"partial|needs_clarification|finished|success", plan), plan
        # the open plan covers none of the question back's buttons
        options = back.locator(".options button")
        assert options.count() == 2
        assert all(option.evaluate(UNCOVERED) for option in options.all())
        # nothing here gives figures to mark right or wrong
        assert page.locator(".verdict").count() == 0
        shot(page, tmp_path, f"{size}-2-question-back-and-plan")

        address = page.url
        failed.locator(".retry").click()  # asked again, as the thread's next turn
        again = page.locator(".answer[data-status]").nth(3)
        again.wait_for()
        assert (
            page.locator(".question").nth(3).inner_text()
            == "How many shipments arrived last month?"
        )
        assert page.url == address and again.get_attribute("data-status") == "failed"
        page.reload()
        page.wait_for_function("document.querySelectorAll('.answer[data-status]').length === 4")
        statuses = page.locator(".answer[data-status]").evaluate_all(
            "all => all.map(a => a.dataset.status)"
        )
        assert statuses == ["failed", "done", "needs_clarification", "failed"]
        assert page.locator(".answer[data-status=failed] .retry").count() == 2
        assert page.locator("#plan").is_hidden()
        shot(page, tmp_path, f"{size}-3-after-reload")
        page.close()


def _marks_within(url: str, seconds: float) -> list[dict[str, Any]]:
    deadline = time.monotonic() + seconds
    marks: list[dict[str, Any]] = httpx.get(url).json()
    while not marks and time.monotonic() < deadline:
        time.sleep(0.2)
        marks = httpx.get(url).json()
    return marks


def test_a_question_the_server_never_got_stays_in_its_place_with_a_retry(
    browser: Any,  # noqa: F811
    data_dir: Path,
    tmp_path: Path,
    size: str,
) -> None:
    with bosun_serve(data_copy(data_dir, tmp_path / "d")) as base:
        page = opened(browser, base, size)
        ask(page, "top 3 carriers by TEU in 2025", 1)
        assert page.locator(".turn").nth(0).locator(".verdict-right").is_visible()  # figures
        thread = page.url.split("#thread=")[1]

        page.route("**/turns", lambda route: route.abort())
        page.fill("#question", "Monthly shipments in 2025")
        page.press("#question", "Enter")
        unsent = page.locator(".answer.unsent")
        unsent.wait_for()
        assert unsent.inner_text().startswith("Not answered: the Bosun server cannot be reached.")
        assert page.locator(".turn").nth(1).locator(".question").inner_text() == (
            "Monthly shipments in 2025"
        )
        assert plan_says(page) == "failed: the Bosun server cannot be reached"
        assert page.locator("#banner").is_hidden()  # said where it happened, once
        shot(page, tmp_path, f"{size}-1-not-sent")
        page.unroute("**/turns")

        # the next answer is the thread's second turn on the server, and is marked as such
        ask(page, "How many shipments arrived in Houston last month?", 2)
        houston = page.locator(".turn").nth(2)
        houston.locator(".verdict-right").click()
        houston.locator(".verdict-said", has_text="Marked").wait_for()
        assert page.url.endswith(thread)
        # once in 6,000 tests on a loaded run the list came back empty just after "Marked" showed:
        # asked again for a few seconds, so a mark never stored still fails
        marks = _marks_within(f"{base}/threads/{thread}/marks", seconds=5)
        assert [(mark["turn"], mark["right"]) for mark in marks] == [(2, True)]

        unsent.locator(".retry").click()  # asked again in the same thread, now the newest turn
        page.wait_for_function("document.querySelectorAll('.answer[data-status]').length === 3")
        assert page.locator(".question").all_inner_texts()[-1] == "Monthly shipments in 2025"
        assert page.locator(".answer.unsent").count() == 0
        assert page.url.endswith(thread) and plan_says(page).startswith("answered in ")
        turns = httpx.get(f"{base}/threads/{thread}").json()["turns"]
        assert [turn["question"] for turn in turns][-1] == "Monthly shipments in 2025"
        shot(page, tmp_path, f"{size}-2-retried")

        # a rename the server refuses says so, and the list drawn again does not hide it
        page.route(
            f"**/threads/{thread}",
            lambda route: (
                route.fulfill(
                    status=500, json={"error": "internal", "detail": "the store is locked"}
                )
                if route.request.method == "PATCH"
                else route.continue_()
            ),
        )
        show_threads(page, size)
        page.locator("#threads li.current button.rename").click()
        page.locator("#threads .rename-form input").fill("Carriers")
        page.locator("#threads .rename-form input").press("Enter")
        page.locator("#threads .rename-form").wait_for(state="detached")
        page.locator("#threads li.current button.open").wait_for()
        assert page.locator("#banner").is_visible()
        assert "the store is locked" in page.locator("#banner").inner_text()
        page.close()


def test_each_result_shows_the_query_it_ran_to_copy_and_its_rows(
    browser: Any,  # noqa: F811
    data_dir: Path,
    tmp_path: Path,
    size: str,
) -> None:
    with bosun_serve(data_copy(data_dir, tmp_path / "d")) as base:
        page = opened(browser, base, size, permissions=["clipboard-read", "clipboard-write"])
        top = ask(page, "top 3 carriers by TEU in 2025", 1)
        query = top.locator(".query")
        assert query.locator("summary").inner_text() == "Query · 3 rows"
        assert query.locator("pre").is_hidden()  # folded until asked for
        query.locator("summary").click()
        text = query.locator("pre").inner_text()
        request, body = text.split("\n", 1)
        thread = page.url.split("#thread=")[1]
        (turn,) = httpx.get(f"{base}/threads/{thread}").json()["turns"]
        assert request == "GET shipments/_search"
        assert json.loads(body) == turn["answer"]["results"][0]["query"]
        query.locator("button.copy").click()
        query.locator(".copied", has_text="Copied").wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == text
        shot(page, tmp_path, f"{size}-query")

        listing = ask(page, LISTING, 2)
        total = re.search(r"\(([\d,]+) total\)", listing.locator(".result h3").inner_text())
        assert total is not None
        summary = listing.locator(".query summary").inner_text()
        assert summary == f"Query · 20 rows of {total[1]} records"
        page.close()


def test_on_a_phone_tables_scroll_with_a_cue_dates_stay_whole_and_targets_are_44_px(
    browser: Any,  # noqa: F811
    data_dir: Path,
    tmp_path: Path,
) -> None:
    with bosun_serve(data_copy(data_dir, tmp_path / "d")) as base:
        phone = opened(browser, base, "phone")
        listing = ask(phone, LISTING, 1)
        box = listing.locator(".table-box")
        scroller = box.locator(".table-scroll")
        assert scroller.evaluate("s => s.scrollWidth > s.clientWidth + 100")  # a wide table
        assert box.get_attribute("data-more") == "right"
        assert box.locator(".scroll-hint").is_visible()
        assert box.locator(".scroll-hint").inner_text() == "scroll →"
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # the table scrolls
        dates = listing.locator("td.keep")
        assert dates.count() >= 20
        assert [dates.nth(i).evaluate(LINES) for i in range(10)] == [1] * 10
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", dates.first.inner_text())
        box.evaluate("b => b.scrollIntoView()")  # the hint at the top of the table
        shot(phone, tmp_path, "phone-1-wide-table")
        scroller.evaluate("s => { s.scrollLeft = s.scrollWidth; }")
        phone.wait_for_function("document.querySelector('.table-box').dataset.more === ''")
        assert box.locator(".scroll-hint").is_hidden()
        assert listing.locator("th").last.bounding_box()["x"] < 390  # the last column in reach
        shot(phone, tmp_path, "phone-2-scrolled")

        back = ask(phone, AMBIGUOUS, 2)  # below a long table: the conversation scrolls
        phone.locator("#plan-toggle").click()
        phone.locator("#dag").wait_for()
        options = back.locator(".options button")
        assert options.count() == 2
        for option in options.all():  # in view (a phone scrolls), and not under the plan
            option.scroll_into_view_if_needed()
            assert option.evaluate(UNCOVERED)
        shot(phone, tmp_path, "phone-3-question-back-and-plan")
        phone.locator(".query summary").first.click()
        assert phone.locator("main").evaluate(SMALL_TARGETS) == []
        show_threads(phone, "phone")
        assert phone.locator("#sidebar").evaluate(SMALL_TARGETS) == []
        shot(phone, tmp_path, "phone-4-drawer")
        phone.close()


def test_the_keyboard_starts_in_the_question_box_skips_to_it_and_renames_in_place(
    browser: Any,  # noqa: F811
    data_dir: Path,
    tmp_path: Path,
    size: str,
) -> None:
    with bosun_serve(data_copy(data_dir, tmp_path / "d")) as base:
        page = opened(browser, base, size)
        page.locator("#suggestions button").first.wait_for()
        assert page.evaluate("document.activeElement.id") == "question"
        assert page.evaluate(FIRST_TABBABLE) == "skip"
        page.locator("#suggestions button").first.focus()
        page.locator("#skip").focus()
        shown = page.locator("#skip").bounding_box()
        assert shown["y"] >= 0 and shown["height"] > 20  # seen when it has the focus
        shot(page, tmp_path, f"{size}-1-skip-link")
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "question"
        assert "#" not in page.url  # no thread address made of it

        dialogs: list[str] = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        ask(page, "Monthly shipments in 2025", 1)
        show_threads(page, size)
        page.locator("#threads li.current button.rename").click()
        field = page.get_by_role("textbox", name="New name for “Monthly shipments in 2025”")
        assert field.evaluate("f => f === document.activeElement")
        field.fill("2025 by month")
        field.press("Escape")  # keeps the old name, and a phone's drawer open
        page.locator("#threads .rename-form").wait_for(state="detached")
        assert page.locator("#threads li.current .open").inner_text().startswith("Monthly")
        assert page.locator("#sidebar").bounding_box()["x"] >= 0
        page.locator("#threads li.current button.rename").click()
        field.fill("2025 by month")
        shot(page, tmp_path, f"{size}-2-renaming")
        field.press("Enter")
        page.wait_for_function(
            "document.querySelector('#threads li.current .open')?.textContent"
            ".startsWith('2025 by month')"
        )
        focused = "document.activeElement.closest('li')?.dataset.thread"
        assert page.evaluate(focused) == page.url.split("#thread=")[1]
        page.reload()
        page.wait_for_function(
            "document.querySelector('#threads li .open')?.textContent.startsWith('2025 by month')"
        )
        assert dialogs == []
        page.close()


def test_dark_mode_follows_the_system_and_axe_finds_nothing_serious_in_either(
    browser: Any,  # noqa: F811
    data_dir: Path,
    tmp_path: Path,
    size: str,
) -> None:
    if not AXE.exists():
        missing_system_part("no axe-core: python3 dev.py test installs it with npm")
    with bosun_serve(data_copy(data_dir, tmp_path / "d")) as base:
        for scheme, background in (("light", (255, 255, 255)), ("dark", (22, 26, 34))):
            page = opened(browser, base, size, color_scheme=scheme)
            page.locator("#suggestions button").first.wait_for()
            shade = page.evaluate("getComputedStyle(document.body).backgroundColor")
            assert tuple(int(v) for v in re.findall(r"\d+", shade)) == background
            assert serious_violations(page) == [], scheme
            every_kind_of_turn(page)
            assert serious_violations(page) == [], scheme
            shot(page, tmp_path, f"{size}-{scheme}")
            page.close()


def every_kind_of_turn(page: Any) -> None:
    """A chart, a wide table, a question back, a question never sent; the plan and a query open."""
    ask(page, "Compare Maersk vs Evergreen shipping volumes to LA last quarter", 1)
    page.locator(".chart svg").first.wait_for()
    ask(page, LISTING, 2)
    ask(page, AMBIGUOUS, 3)
    page.route("**/turns", lambda route: route.abort())
    page.fill("#question", "Monthly shipments in 2025")
    page.press("#question", "Enter")
    page.locator(".answer.unsent").wait_for()
    page.unroute("**/turns")
    page.locator("#plan-toggle").click()
    page.locator(".query summary").first.click()


def test_on_the_plain_install_no_xlsx_is_offered_and_the_csv_holds_the_whole_result(
    browser: Any,  # noqa: F811
    data_dir: Path,
    tmp_path: Path,
) -> None:
    plain = tmp_path / "plain"  # the XLSX writer (the `xlsx` extra) cannot be imported
    plain.mkdir()
    (plain / "sitecustomize.py").write_text("import sys\nsys.modules['xlsxwriter'] = None\n")
    path = os.pathsep.join(p for p in (str(plain), os.environ.get("PYTHONPATH", "")) if p)
    with bosun_serve(data_copy(data_dir, tmp_path / "d"), PYTHONPATH=path) as base:
        assert httpx.get(f"{base}/exports").json() == {"formats": ["csv"]}
        phone = opened(browser, base, "phone")
        listing = ask(phone, LISTING, 1)
        monthly = ask(phone, "Monthly shipments in 2025", 2)
        assert phone.locator(".pager button.xlsx").count() == 0
        shot(phone, tmp_path, "phone-no-xlsx")
        total = int(re.sub(r"\D", "", listing.locator(".pager button.csv").inner_text()))
        assert total > 20
        with phone.expect_download() as download:
            listing.locator(".pager button.csv").click()
        assert len(Path(download.value.path()).read_text().strip().splitlines()) == total + 1
        with phone.expect_download() as download:
            monthly.locator(".pager button.csv").click()
        assert len(Path(download.value.path()).read_text().strip().splitlines()) == 12 + 1
        phone.close()


def test_with_the_xlsx_writer_the_xlsx_holds_the_whole_result(
    browser: Any,  # noqa: F811
    data_dir: Path,
    tmp_path: Path,
) -> None:
    import xlsxwriter  # noqa: F401 - the `xlsx` extra, part of the dev install

    with bosun_serve(data_copy(data_dir, tmp_path / "d")) as base:
        page = opened(browser, base, "desktop")
        listing = ask(page, LISTING, 1)
        monthly = ask(page, "Monthly shipments in 2025", 2)
        total = int(re.sub(r"\D", "", listing.locator(".pager button.csv").inner_text()))
        with page.expect_download() as download:
            listing.locator(".pager button.xlsx").click()
        assert len(_sheet(Path(download.value.path()).read_bytes())) == total + 1
        with page.expect_download() as download:
            monthly.locator(".pager button.xlsx").click()
        assert len(_sheet(Path(download.value.path()).read_bytes())) == 12 + 1
        page.close()


def test_the_sidebar_lists_the_pages_conversations_and_the_command_lines_one_filter_away(
    browser: Any,  # noqa: F811
    data_dir: Path,
    tmp_path: Path,
    size: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = data_copy(data_dir, tmp_path / "d")
    monkeypatch.setenv("BOSUN_DATA_DIR", str(folder))
    said = CliRunner().invoke(cli, ["ask", "Monthly TEU into Savannah in 2025"])
    assert said.exit_code == 0, said.output
    with bosun_serve(folder) as base:
        page = opened(browser, base, size)
        ask(page, "top 3 carriers by TEU in 2025", 1)
        show_threads(page, size)
        listed = "document.querySelectorAll('#threads li .open')"
        page.wait_for_function(f"{listed}.length === 1")
        assert page.locator("#threads li .open").inner_text().startswith("top 3 carriers")
        page.get_by_role("button", name="Command line & MCP").click()
        page.wait_for_function(f"{listed}[0]?.textContent.startsWith('Monthly TEU into Savannah')")
        assert page.locator("#threads li").count() == 1
        assert page.locator("#origins [aria-pressed=true]").inner_text() == "Command line & MCP"
        shot(page, tmp_path, f"{size}-command-line-threads")
        page.locator("#threads li .open").click()
        page.wait_for_function(
            "document.querySelector('.question')?.textContent.startsWith('Monthly TEU')"
        )
        show_threads(page, size)
        page.get_by_role("button", name="This page").click()
        page.wait_for_function(f"{listed}[0]?.textContent.startsWith('top 3 carriers')")
        assert page.locator("#threads li").count() == 1
        page.close()
