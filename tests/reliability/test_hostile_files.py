"""Hostile files for `bosun data load`: each refused in one line naming the file and the limit,
nothing left in the temporary directory; file names are literal, never globs; JSON arrays and JSON
Lines both load."""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from bosun.engines.embedded import EmbeddedEngine
from bosun.errors import LoadError
from bosun.interfaces.cli.app import app
from tests.reliability.conftest import bosun


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BOSUN_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The temporary directory a load uses, checked empty after the test."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    assert list(folder.iterdir()) == []


def _load(*args: str) -> Result:
    return CliRunner().invoke(app, ["data", "load", *args])


def _refused(result: Result, message: str) -> None:
    """One LoadError line, as `bosun` prints it."""
    assert isinstance(result.exception, LoadError), result.output
    assert str(result.exception) == message


def _rows(data_dir: Path, index: str) -> list[dict[str, object]]:
    engine = EmbeddedEngine(data_dir / "bosun.duckdb", read_only=True)
    try:
        return [
            h["_source"]
            for h in engine.search(index, {"size": 100, "sort": ["_doc"]})["hits"]["hits"]
        ]
    finally:
        engine.close()


def test_json_nested_past_the_limit_is_refused_before_parsing_and_leaves_no_temp_file(
    tmp_path: Path,
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"a": ' + "[" * 5000 + "1" + "]" * 5000 + "}\n")
    folder = tmp_path / "tmp"
    folder.mkdir()
    done = bosun(tmp_path / "data", "data", "load", str(deep), env={"TMPDIR": str(folder)})
    assert (done.returncode, done.stdout) == (2, "")  # a segmentation fault is -11
    assert (
        done.stderr == f"bosun: {deep}: JSON nested more than 100 levels deep; the limit is 100 "
        "(BOSUN_LOAD_MAX_JSON_DEPTH)\n"
    )
    assert list(folder.iterdir()) == []


def test_brackets_and_escaped_quotes_inside_strings_are_not_nesting(
    tmp_path: Path, data_dir: Path, temp: Path
) -> None:
    lines = [{"note": "[[[[" * 50 + '\\"{{{'}, {"note": '"]]]' * 50}, {"note": "plain\\"}]
    (tmp_path / "notes.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert _load(str(tmp_path / "notes.jsonl")).exit_code == 0
    assert _rows(data_dir, "notes") == lines


def test_a_zip_that_expands_past_the_limit_is_refused_before_extraction(
    tmp_path: Path, data_dir: Path, temp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOSUN_LOAD_MAX_ARCHIVE_BYTES", "1000000")
    with zipfile.ZipFile(tmp_path / "bomb.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("big.csv", "x\n" + "0\n" * 2_000_000)
    assert (tmp_path / "bomb.zip").stat().st_size < 10_000
    _refused(
        _load(str(tmp_path / "bomb.zip")),
        f"{tmp_path / 'bomb.zip'}: the archive expands to 4,000,002 bytes; "
        "the limit is 1,000,000 (BOSUN_LOAD_MAX_ARCHIVE_BYTES)",
    )


def test_a_zip_of_too_many_files_is_refused(
    tmp_path: Path, data_dir: Path, temp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOSUN_LOAD_MAX_ARCHIVE_MEMBERS", "3")
    with zipfile.ZipFile(tmp_path / "many.zip", "w") as archive:
        for n in range(4):
            archive.writestr(f"part{n}.csv", "x\n1\n")
    _refused(
        _load(str(tmp_path / "many.zip")),
        f"{tmp_path / 'many.zip'}: the archive holds 4 files; the limit is 3 "
        "(BOSUN_LOAD_MAX_ARCHIVE_MEMBERS)",
    )


@pytest.mark.parametrize("member", ["../../evil.csv", "/tmp/evil.csv", "a/../../evil.csv"])
def test_a_zip_naming_a_file_outside_itself_is_refused(
    tmp_path: Path, data_dir: Path, temp: Path, member: str
) -> None:
    with zipfile.ZipFile(tmp_path / "slip.zip", "w") as archive:
        archive.writestr(zipfile.ZipInfo(member), "x\n1\n")
    _refused(
        _load(str(tmp_path / "slip.zip")),
        f"{tmp_path / 'slip.zip'}: the archive names a file outside itself ({member!r}); refused",
    )


def test_zip_members_with_glob_names_load_literally(
    tmp_path: Path, data_dir: Path, temp: Path
) -> None:
    with zipfile.ZipFile(tmp_path / "globs.zip", "w") as archive:
        archive.writestr("[ab].csv", "y\n10\n")
        archive.writestr("a.csv", "y\n1\n")
    assert _load(str(tmp_path / "globs.zip")).exit_code == 0
    # each member once, none twice
    assert sorted(r["y"] for r in _rows(data_dir, "globs")) == [1, 10]


@pytest.mark.parametrize(
    ("name", "siblings"),
    [
        ("[ab].csv", ["a.csv", "b.csv"]),
        ("q?.csv", ["q1.csv", "qq.csv"]),
        ("*.csv", ["x.csv"]),
        ("{a,b}.csv", ["a.csv"]),
    ],
)
def test_a_file_name_with_glob_characters_is_read_literally(
    tmp_path: Path, data_dir: Path, temp: Path, name: str, siblings: list[str]
) -> None:
    (tmp_path / name).write_text("own\n7\n")
    for sibling in siblings:
        (tmp_path / sibling).write_text("other\n99\n")
    result = _load(str(tmp_path / name), "--index", "literal")
    assert result.exit_code == 0, result.output
    assert _rows(data_dir, "literal") == [{"own": 7}]


@pytest.mark.parametrize("spacing", [None, 2])
def test_a_json_array_of_records_loads_as_records_and_json_lines_still_do(
    tmp_path: Path, data_dir: Path, temp: Path, spacing: int | None
) -> None:
    records = [{"id": n, "name": f"item {n}", "price": n * 1.5} for n in range(1000)]
    (tmp_path / "items.json").write_text(json.dumps(records, indent=spacing))
    (tmp_path / "lines.json").write_text("".join(json.dumps(r) + "\n" for r in records[:3]))
    assert "loaded 1,000 rows into index 'items'" in _load(str(tmp_path / "items.json")).output
    assert "loaded 3 rows into index 'lines'" in _load(str(tmp_path / "lines.json")).output
    assert _rows(data_dir, "items")[:2] == records[:2]
    assert _rows(data_dir, "lines") == records[:3]


@pytest.mark.parametrize(
    "index",
    [
        "__tok__shipments__product_description",
        "_bosun_indices",
        "bosun_meta",
        ".security",
        "-x",
        "Shipments",
        "a b",
        "a/b",
    ],
)
def test_an_index_the_engine_or_bosun_keeps_for_itself_is_refused(
    tmp_path: Path, data_dir: Path, temp: Path, index: str
) -> None:
    (tmp_path / "a.csv").write_text("x\n1\n")
    result = _load(str(tmp_path / "a.csv"), "--index", index)
    assert isinstance(result.exception, LoadError), result.output
    assert str(result.exception).startswith(f"index {index!r}") and "\n" not in str(
        result.exception
    )
    assert (
        not (data_dir / "bosun.duckdb").exists()
        or index not in EmbeddedEngine(data_dir / "bosun.duckdb", read_only=True).indices()
    )


def test_a_file_named_like_bosuns_own_index_is_refused(
    tmp_path: Path, data_dir: Path, temp: Path
) -> None:
    (tmp_path / "bosun_meta.csv").write_text("x\n1\n")
    _refused(
        _load(str(tmp_path / "bosun_meta.csv")),
        "index 'bosun_meta' is Bosun's own; load into another --index",
    )


@pytest.mark.parametrize("kind", ["/dev/zero", "/dev/null", "fifo"])
def test_a_device_or_a_pipe_is_one_line(
    tmp_path: Path, data_dir: Path, temp: Path, kind: str
) -> None:
    path = Path(kind)
    if kind == "fifo":
        path = tmp_path / "pipe.csv"
        os.mkfifo(path)
    _refused(
        _load(str(path)),
        f"{path}: not a regular file (a device, a pipe or a socket); load a data file",
    )


def test_a_directory_without_data_files_is_one_line(
    tmp_path: Path, data_dir: Path, temp: Path
) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    os.mkfifo(folder / "pipe.csv")  # not a file: not listed, never opened
    _refused(
        _load(str(folder)), f"{folder}: the directory holds no CSV, Parquet or JSON Lines file"
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_is_one_line(tmp_path: Path, data_dir: Path, temp: Path) -> None:
    path = tmp_path / "secret.csv"
    path.write_text("x\n1\n")
    path.chmod(0)
    _refused(_load(str(path)), f"{path}: cannot be read (Permission denied)")


def test_a_two_megabyte_cell_is_quoted_in_at_most_eighty_characters(
    tmp_path: Path, data_dir: Path, temp: Path
) -> None:
    """A column of whole numbers whose last cell is 2 MB of text: the error names the file and the
    row, and quotes the cell's start, not the cell."""
    path = tmp_path / "wide_cell.csv"
    rows = "".join(f"{n},{n}\n" for n in range(30_000))
    path.write_text(f"id,n\n{rows}99999,{'x' * 2_000_000}\n")
    result = _load(str(path))
    assert isinstance(result.exception, LoadError), result.output
    said = str(result.exception)
    assert said.startswith(f"{path}: row 30002: ") and "\n" not in said, said[:300]
    assert "x" * 80 in said and "x" * 81 not in said and len(said) < 400, said[:300]
