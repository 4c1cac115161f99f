"""The README and docs/: the configuration page is what the settings class prints, every relative
link leads to a file and a heading there, every docs page is linked from the README, and the README
lists every extra."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bosun.settings import Settings, configuration_markdown

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
REGENERATE = "PYTHONPATH=src python -m bosun.settings > docs/configuration.md"
# [text](file#anchor) with a relative file (empty: this page); absolute URLs are not followed
LINK = re.compile(r"\]\((?!https?://|mailto:)([^)#\s]*)(?:#([^)\s]*))?\)")
FENCED = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
HEADING = re.compile(r"^#+ (.+)$", re.MULTILINE)


def _links(page: Path) -> list[tuple[Path, str]]:
    """Each relative link of `page`: the file it leads to and its anchor ('' for none)."""
    text = FENCED.sub("", page.read_text(encoding="utf-8"))
    found = LINK.findall(text)
    return [
        ((page.parent / target if target else page).resolve(), anchor) for target, anchor in found
    ]


def _anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub writes them: lower case, punctuation dropped,
    spaces as hyphens."""
    headings = HEADING.findall(FENCED.sub("", page.read_text(encoding="utf-8")))
    return {
        re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings
    }


def test_configuration_page_is_what_the_settings_print() -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "bosun.settings"], capture_output=True, text=True, check=True
    ).stdout
    written = (DOCS / "configuration.md").read_text(encoding="utf-8")
    assert written == printed, (
        f"docs/configuration.md differs from src/bosun/settings.py; regenerate it: {REGENERATE}"
    )


def test_every_setting_is_described_on_the_page() -> None:
    page = configuration_markdown()
    for name, field in Settings.model_fields.items():
        assert field.description, f"Settings.{name} has no description"
        assert f"| `BOSUN_{name.upper()}` |" in page, name


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_relative_links_lead_to_a_file_and_heading(page: Path) -> None:
    broken = [
        f"{target.relative_to(ROOT)}#{anchor}".rstrip("#")
        for target, anchor in _links(page)
        if not target.exists() or (anchor and anchor not in _anchors(target))
    ]
    assert broken == [], f"{page.relative_to(ROOT)} has links that lead nowhere"


def test_every_docs_page_is_linked_from_the_readme() -> None:
    linked = {target for target, _ in _links(README)}
    unlinked = [page.name for page in PAGES[1:] if page.resolve() not in linked]
    assert unlinked == [], "docs pages the README does not link to"


def test_the_readme_lists_every_extra() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extras = pyproject["project"]["optional-dependencies"]
    readme = README.read_text(encoding="utf-8")
    missing = [extra for extra in extras if f"| `{extra}` |" not in readme]
    assert missing == [], "extras of pyproject.toml without a row in the README's table"
