"""A user's files loaded and drafted as a user types it: `bosun data load`, then `bosun catalog
init`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from bosun.conversation.session import Session, open_session
from bosun.interfaces.cli.app import app
from bosun.settings import load_settings

# (data dir, the drafted catalog, what `catalog init` printed)
Drafted = tuple[Path, dict[str, Any], str]


def load_and_draft(folder: Path, *names: str) -> Drafted:
    """`folder/<name>.csv` of each name loaded, then a catalog drafted with each as an `--index`
    (the first is the records), into `folder/data` and `folder/catalog.yaml`."""
    env = {"BOSUN_DATA_DIR": str(folder / "data"), "BOSUN_CATALOG": None}
    files = [str(folder / f"{name}.csv") for name in names]
    loaded = CliRunner().invoke(app, ["data", "load", *files], env=env)  # type: ignore[arg-type]  # None unsets
    assert loaded.exit_code == 0, loaded.output
    out = folder / "catalog.yaml"
    indexes = [arg for name in names for arg in ("--index", name)]
    drafted = CliRunner().invoke(app, ["catalog", "init", *indexes, "--out", str(out)], env=env)  # type: ignore[arg-type]
    assert drafted.exit_code == 0, drafted.output
    return folder / "data", yaml.safe_load(out.read_text()), drafted.output


def drafted_session(drafted: Drafted) -> Iterator[Session]:
    """A session on the drafted data and catalog, as `bosun ask` opens one (for a module fixture to
    yield from)."""
    data_dir = drafted[0]
    opened = open_session(
        load_settings(data_dir=data_dir, catalog=data_dir.parent / "catalog.yaml")
    )
    yield opened
    opened.close()
