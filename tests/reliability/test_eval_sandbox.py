"""`bosun eval` runs a question file's gold SQL in a sandbox (issue #39 item 6): a file from someone
else cannot write a file, read one, attach a database or load an extension. Each such item fails
with one line naming it and what was refused; the other items are judged as before."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.reliability.conftest import bosun

QUESTION = "How many shipments are there?"


def _item(item_id: str, gold_sql: str) -> dict[str, object]:
    return {"id": item_id, "turns": [QUESTION], "expect": {"kind": "count", "gold_sql": gold_sql}}


def test_gold_sql_cannot_touch_files_attach_or_load_and_the_run_goes_on(
    data_dir: Path, tmp_path: Path
) -> None:
    written, secret = tmp_path / "written.csv", tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n")
    items = [
        _item("good", "select count(*) from shipments"),
        _item("copy", f"copy (select * from shipments) to '{written}'"),
        _item("read", f"select count(*) from read_csv('{secret}', sep = ':')"),
        _item("text", f"select length(content) from read_text('{secret}')"),
        _item("attach", f"attach '{tmp_path / 'other.duckdb'}' as other"),
        _item("install", "install httpfs"),
        _item("load", "load httpfs"),
        _item("export", f"export database '{tmp_path / 'dump'}'"),
        _item("settings", "set enable_external_access = true"),
        _item("two", f"select 1; copy (select 1) to '{written}'"),
        {
            "id": "multi",
            "turns": [QUESTION],
            "expect": {
                "kind": "multi",
                "parts": [
                    {"kind": "count", "gold_sql": "select count(*) from shipments"},
                    {"kind": "count", "gold_sql": f"copy (select 1) to '{written}'"},
                ],
            },
        },
        _item("after", "select count(*) from shipments"),
    ]
    file = tmp_path / "hostile.jsonl"
    file.write_text("".join(json.dumps(item) + "\n" for item in items))
    done = bosun(data_dir, "eval", str(file), "--failures", env={"COLUMNS": "200"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert not written.exists() and not (tmp_path / "other.duckdb").exists()
    assert not (tmp_path / "dump").exists()
    overall = re.search(r"overall\s+│\s+(\d+)\s+│\s+(\d+)", done.stdout)
    assert overall is not None and overall.groups() == ("2", str(len(items))), done.stdout
    reasons = dict(re.findall(r"^(\w+) .*\n\s+(.*)$", done.stdout, re.M))
    off = f'gold SQL may not reach files: Cannot access file "{secret}"'
    assert {key: reasons.pop(key).split(" - ")[0] for key in ("read", "text")} == {
        "read": off,
        "text": off,
    }
    assert reasons == {
        "copy": "gold SQL may only read: COPY refused",
        "attach": "gold SQL may only read: ATTACH refused",
        "install": "gold SQL may only read: INSTALL refused",
        "load": "gold SQL may only read: LOAD refused",
        "export": "gold SQL may only read: EXPORT refused",
        "settings": "gold SQL may only read: SET refused",
        "two": "gold SQL must be one statement; this is 2",
        "multi": "gold SQL may only read: COPY refused",
    }
    assert "root:x" not in done.stdout
