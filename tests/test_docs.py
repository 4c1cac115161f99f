"""The README and docs/: the configuration page is what the settings class renders, every relative
link leads to a file, every docs page is reachable from the README, every extra is listed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bosun.settings import Settings, configuration_markdown

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
REGENERATE = "PYTHONPATH=src python -m bosun.settings > docs/configuration.md"


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
