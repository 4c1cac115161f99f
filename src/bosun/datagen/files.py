"""Read a user's data files with DuckDB and infer their Elasticsearch mapping (`bosun data load`).

DuckDB reads every format (CSV of any dialect, compressed or not, Parquet, JSON Lines); this module
only picks the reader, names columns the way field names are written, and chooses a mapping from the
column types and a profile of their values. A file that cannot be read becomes one LoadError line
naming the file, the row when there is one, and the problem.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from bosun.catalog.parts import DATE_PARTS, is_clock_values, part_name, part_sql
from bosun.catalog.schema import DatePartName
from bosun.datagen.intake import FileLimits, check_json_depth, checked_path, directory_files, extracted, linked
from bosun.datagen.rownames import row_numbers_column
from bosun.datagen.textforms import with_month_dates
from bosun.errors import LoadError

CSV_SUFFIXES = {".csv", ".tsv", ".txt", ".psv"}
JSON_SUFFIXES = {".jsonl", ".ndjson", ".json"}
PARQUET_SUFFIXES = {".parquet", ".pq"}
_FREE_TEXT_LENGTH = 30  # average characters from which a mostly-distinct string column is prose
_DATE_PARTS = {"year": ("year", "yr"), "month": ("month", "mon"), "day": ("day", "dayofmonth", "dom")}
_INT32 = 2**31 - 1
#: What R (NA), pandas (NaN, None, null), SQL exports (NULL) and spreadsheets (#N/A, N/A, -, ?) write for a
#: missing value. A text column whose other values are all numbers (or all dates) is read as that type with
#: these as missing; in a column of labels they stay as written ("NA" may be a code: Namibia, not applicable).
NULL_TOKENS = ("NA", "N/A", "n/a", "NULL", "null", "None", "none", "NaN", "nan", "#N/A", "-", "?", "")
#: the types a text column is tried as, in order (the first that holds every value but the null tokens), each
#: with the form its text must have: a cast alone would round 7.5 to a BIGINT and cut a time off to a DATE
_RETYPES = {"BIGINT": r"[+-]?\d+", "DOUBLE": r".*", "DATE": r"\d{4}-\d{1,2}-\d{1,2}",
            "TIMESTAMP": r".*\d(\.\d+)?", "TIMESTAMP WITH TIME ZONE": r".*"}


@dataclass(frozen=True)
class LoadedFile:
    """One index's rows read from its files, with the mapping inferred for them."""

    index: str
    table: pa.Table
    mapping: dict[str, Any]
    sources: tuple[Path, ...]
    notes: tuple[str, ...] = ()  # what the reading decided that a user should hear (missing values, time zones)


def default_index(path: Path) -> str:
    """The index a file loads into: its stem without compression suffixes, as a field-like name."""
    name = path.name
    while Path(name).suffix.lower() in {*CSV_SUFFIXES, *JSON_SUFFIXES, *PARQUET_SUFFIXES, ".gz", ".zip", ".zst"}:
        name = Path(name).stem
    return field_name(name) or "data"


def field_name(text: str) -> str:
    """`DepTime`, `Dep Time`, `dep-time` → `dep_time`: one way of writing names for fields and indices."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text.strip())
    return re.sub(r"[^a-z0-9]+", "_", spaced.lower()).strip("_")


def files_of(path: Path) -> list[Path]:
    """The data files at `path`: the file itself, or every readable file of a directory, sorted; a device, a
    pipe or an unreadable file is refused."""
    if not checked_path(path):
        return [path]
    found = [p for p in directory_files(path) if _kind(p) is not None]
    if not found:
        raise LoadError(f"{path}: the directory holds no CSV, Parquet or JSON Lines file")
    return found


def read_files(paths: list[Path], index: str, limits: FileLimits | None = None) -> LoadedFile:
    """All `paths` (one format) as one typed table plus its inferred mapping."""
    limits = limits or FileLimits.default()
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")  # a zoned timestamp is kept in UTC, whatever the machine's zone
    limits.memory.apply(con)
    try:
        with _readable(paths, limits) as readable:
            kinds = {_kind(p) for p in readable}
            if len(kinds) != 1 or None in kinds:
                raise LoadError(f"{paths[0]}: mixed or unknown formats; load CSV, Parquet, JSON or JSON Lines files")
            kind = kinds.pop() or ""
            if kind == "json":
                for path, shown in readable.items():
                    check_json_depth(path, shown, limits.json_depth)
            table, notes = _read(con, readable, kind, limits.columns)
    except duckdb.OutOfMemoryException:
        raise limits.memory.exceeded(f"reading {paths[0]}") from None
    finally:
        con.close()
    if table.num_rows == 0:
        raise LoadError(f"{paths[0]}: the file is empty (no rows)")
    table, months = with_month_dates(table, NULL_TOKENS)
    notes = [*notes, *months]
    table = _with_composed_date(table)
    table, derived = with_date_parts(table)
    return LoadedFile(index, table, infer_mapping(table), tuple(paths), tuple([*notes, *derived]))


def _kind(path: Path) -> str | None:
    suffixes = [s.lower() for s in path.suffixes]
    inner = [s for s in suffixes if s not in {".gz", ".zip", ".zst"}]
    last = inner[-1] if inner else ""
    if last in PARQUET_SUFFIXES:
        return "parquet"
    if last in JSON_SUFFIXES:
        return "json"
    if last in CSV_SUFFIXES or (suffixes and suffixes[-1] in {".gz", ".zip"} and not inner):
        return "csv"
    return None


@contextmanager
def _readable(paths: list[Path], limits: FileLimits) -> Iterator[dict[Path, Path]]:
    """The files DuckDB reads (→ the path a message names), in a temporary folder under names it reads
    literally: links to the files, and the checked members of `.zip` archives (DuckDB reads .gz, not .zip)."""
    with tempfile.TemporaryDirectory(prefix="bosun-load-") as name:
        folder = Path(name)
        readable: dict[Path, Path] = {}
        for path in paths:
            if path.suffix.lower() != ".zip":
                readable[linked(path, folder, len(readable))] = path
                continue
            for written, member in extracted(path, folder, len(readable), limits):
                if _kind(Path(member)) is not None:
                    readable[written] = path / member
        yield readable


def _read(con: duckdb.DuckDBPyConnection, readable: dict[Path, Path], kind: str,
          most_columns: int) -> tuple[pa.Table, list[str]]:
    """The typed table and its notes; a problem names the user's file, never the link read in its stead."""
    paths = list(readable)
    try:
        for path in paths if kind == "csv" else []:
            _check_header(path, most_columns)
        relation = _relation(con, paths, kind)
        if len(relation.columns) > most_columns:  # known from the header: no row is read yet
            raise LoadError(f"{paths[0]}: {len(relation.columns):,} columns, over the limit of {most_columns:,} "
                            "(BOSUN_MAX_COLUMNS)")
        return _typed_table(con, relation, paths)
    except LoadError as exc:
        message = str(exc)
        for link, shown in readable.items():
            message = message.replace(str(link), str(shown))
        raise LoadError(message) from None


def _relation(con: duckdb.DuckDBPyConnection, paths: list[Path], kind: str) -> duckdb.DuckDBPyRelation:
    names: Any = [str(p) for p in paths]  # DuckDB's readers take a list of files; its stubs say one
    try:
        if kind == "parquet":
            return con.read_parquet(names, union_by_name=True)
        if kind == "json":  # an array of records, or JSON Lines: DuckDB tells them apart
            return con.read_json(names, format="auto")
        return _read_csv(con, paths)
    except duckdb.OutOfMemoryException:
        raise
    except duckdb.Error as exc:
        raise LoadError(_problem(paths, exc)) from None


def _read_csv(con: duckdb.DuckDBPyConnection, paths: list[Path]) -> duckdb.DuckDBPyRelation:
    """DuckDB's sniffer, with no rows skipped: a ragged file is reported, never half-read."""
    names: Any = [str(p) for p in paths]
    relation = con.read_csv(names, skiprows=0, union_by_name=len(paths) > 1)
    if len(relation.columns) == 1:
        for path in paths:
            _check_ragged(path)
    return relation


def _check_header(path: Path, most_columns: int) -> None:
    """A header wider than the column limit is refused before DuckDB's sniffer reads it (which takes long on
    10,000 columns): its width is counted on the delimiter it holds most of, in its first 4 MB at most."""
    opener = gzip.open if path.suffix.lower() == ".gz" else open
    with opener(path, "rt", encoding="utf-8", errors="replace", newline="") as handle:
        header = handle.readline(4_000_000)
    width = max(header.count(d) for d in ",;\t|") + 1
    if width > most_columns:
        raise LoadError(f"{path}: {width:,} columns, over the limit of {most_columns:,} (BOSUN_MAX_COLUMNS)")


def _check_ragged(path: Path) -> None:
    """One column read from a file whose header has delimiters: find the row that broke the sniffer."""
    opener = gzip.open if path.suffix.lower() == ".gz" else open
    with opener(path, "rt", encoding="utf-8", errors="replace", newline="") as handle:
        sample = handle.read(64_000)
    try:
        dialect = csv.Sniffer().sniff(sample.splitlines()[0] if sample else "", delimiters=",;\t|")
    except csv.Error:
        return  # really one column
    rows = csv.reader(io.StringIO(sample), dialect)
    width = len(next(rows, []))
    for number, row in enumerate(rows, start=2):
        if row and len(row) != width:
            raise LoadError(f"{path}: row {number}: {len(row)} fields where the header has {width}")


def _problem(paths: list[Path], exc: duckdb.Error) -> str:
    """DuckDB's error as one line: the file, the row when DuckDB names it, and what is wrong."""
    text = str(exc)
    where = re.search(r'file = (\S+)|file "([^"]+)"|"([^"]+)"', text)
    named = next((g for g in where.groups() if g), None) if where else None
    path = named or str(paths[0])
    line = re.search(r"Line: (\d+)", text)
    row = f"row {line.group(1)}: " if line else ""
    if "No files found" in text:
        return f"{path}: no such file"
    if "unicode" in text.lower() or "utf-8" in text.lower():
        return f"{path}: {row}not UTF-8 text (convert the file to UTF-8)"
    detail = next((s for s in text.splitlines()[1:] if s and not s.startswith(("Original Line", "Possible"))), "")
    first = text.splitlines()[0].split("Error: ", 1)[-1]
    return f"{path}: {row}{detail or first}".strip()


def _typed_table(con: duckdb.DuckDBPyConnection, relation: duckdb.DuckDBPyRelation,
                 paths: list[Path]) -> tuple[pa.Table, list[str]]:
    """Columns renamed to field names and cast to types a mapping can hold, and notes on what was decided."""
    seen: set[str] = set()
    select, notes = [], []
    try:
        retyped = _retyped(relation)
        row_numbers = row_numbers_column(relation)
        notes += [row_numbers[1]] if row_numbers else []
        for column, sniffed in zip(relation.columns, relation.types, strict=True):
            if row_numbers and column == row_numbers[0]:
                continue
            name = _unique(field_name(column) or "column", seen)
            expr, kind = _quote(column), str(sniffed)
            said = []
            if column in retyped:
                kind, missing = retyped[column]
                expr = f"TRY_CAST(CASE WHEN {_is_token(expr)} THEN NULL ELSE trim({expr}) END AS {kind})"
                said.append(f"{missing:,} {'row' if missing == 1 else 'rows'} with a missing-value word "
                            f"(NA, NULL, None, -, ? ...) read as missing among {_KIND_WORDS[kind]}")
            if kind == "TIMESTAMP WITH TIME ZONE":
                said.insert(0, "date and time in UTC (the file gives a zone or Z)")
            elif kind.startswith("TIMESTAMP"):
                said.insert(0, "date and time as written, local time (the file gives no zone)")
            if said:
                notes.append(f"{name}: " + "; ".join(said))
            select.append(f'{_cast(expr, kind)} AS "{name}"')
        table: pa.Table = relation.select(", ".join(select)).to_arrow_table()
    except duckdb.OutOfMemoryException:
        raise
    except duckdb.Error as exc:
        raise LoadError(_problem(paths, exc)) from None
    return table, notes


_KIND_WORDS = {"BIGINT": "whole numbers", "DOUBLE": "numbers", "DATE": "dates", "TIMESTAMP": "dates and times",
               "TIMESTAMP WITH TIME ZONE": "dates and times"}


def _is_token(expr: str) -> str:
    return f"trim({expr}) IN ({', '.join(_sql_text(t) for t in NULL_TOKENS)})"


def _sql_text(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _retyped(relation: duckdb.DuckDBPyRelation) -> dict[str, tuple[str, int]]:
    """Text column → (type, rows holding a null token) when its values but the null tokens are all of that type.

    Evidence: every value that is not a null token casts to the type, and at least one null token is there
    (without one, DuckDB's own sniffing already decided, and a text column stays text).
    """
    texts = [c for c, t in zip(relation.columns, relation.types, strict=True) if str(t) == "VARCHAR"]
    if not texts:
        return {}
    parts = []
    for column in texts:
        expr = _quote(column)
        parts += [f"count(*) FILTER (WHERE {_is_token(expr)})", f"count({expr}) FILTER (WHERE NOT {_is_token(expr)})"]
        parts += [f"count(TRY_CAST(trim({expr}) AS {kind})) FILTER (WHERE NOT {_is_token(expr)} "
                  f"AND regexp_full_match(trim({expr}), {_sql_text(form)}))" for kind, form in _RETYPES.items()]
    row = relation.aggregate(", ".join(parts)).fetchall()[0]  # duckdb 2 relations have no fetchone()
    found, width = {}, 2 + len(_RETYPES)
    for i, column in enumerate(texts):
        tokens, present, *cast = row[i * width:(i + 1) * width]
        kind = next((k for k, n in zip(_RETYPES, cast, strict=True) if n == present), None)
        if tokens and present and kind:
            found[column] = (kind, int(tokens))
    return found


def _unique(name: str, seen: set[str]) -> str:
    candidate, number = name, 2
    while candidate in seen:
        candidate, number = f"{name}_{number}", number + 1
    seen.add(candidate)
    return candidate


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _cast(column: str, kind: str) -> str:
    """Decimals become doubles (NaN missing), zoned timestamps plain UTC ones, anything nested or unusual a string."""
    if kind.startswith("DECIMAL") or kind in {"FLOAT", "REAL", "DOUBLE"}:  # NaN is pandas' missing number
        return f"CASE WHEN isnan(CAST({column} AS DOUBLE)) THEN NULL ELSE CAST({column} AS DOUBLE) END"
    if kind in {"UBIGINT", "HUGEINT", "UHUGEINT"}:
        return f"CAST({column} AS BIGINT)"
    if kind == "TIMESTAMP WITH TIME ZONE":
        return f"CAST({column} AS TIMESTAMP)"
    known = {"VARCHAR", "BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER",
             "DOUBLE", "DATE", "TIMESTAMP", "TIMESTAMP_NS", "TIMESTAMP_MS", "TIMESTAMP_S"}
    return column if kind in known else f"CAST({column} AS VARCHAR)"


def _with_composed_date(table: pa.Table) -> pa.Table:
    """A `date` column made of year/month[/day] columns when the data has no date of its own."""
    types = {f.name: f.type for f in table.schema}
    if any(pa.types.is_date(t) or pa.types.is_timestamp(t) for t in types.values()):
        return table
    squeezed = {_squeezed(n): n for n, t in types.items() if pa.types.is_integer(t)}
    parts = {part: next((squeezed[n] for n in names if n in squeezed), None) for part, names in _DATE_PARTS.items()}
    if parts["year"] is None or (parts["month"] is None and not _years(table.column(parts["year"]))):
        return table
    month = f'coalesce("{parts["month"]}", 1)' if parts["month"] else "1"
    day = f'coalesce("{parts["day"]}", 1)' if parts["day"] else "1"
    name = _unique("date", set(types))
    con = duckdb.connect()
    try:
        con.register("__parts", table)
        sql = (f'SELECT *, try(make_date(CAST("{parts["year"]}" AS BIGINT), CAST({month} AS BIGINT), '
               f'CAST({day} AS BIGINT))) AS "{name}" FROM __parts')
        composed: pa.Table = con.sql(sql).to_arrow_table()
    finally:
        con.close()
    return composed


def _squeezed(name: str) -> str:
    """A column's name without underscores and a trailing "id" ("year_id", "yearID" → "year"): a year's number is
    often written as the key of the season it names."""
    squeezed = name.replace("_", "")
    return squeezed.removesuffix("id") or squeezed


def _years(column: pa.ChunkedArray) -> bool:
    """Evidence that a year column alone dates each row (a season's figures, a year's salaries): every value is a
    calendar year of the last millennium or this one, and there are several of them."""
    low, high = pc.min(column).as_py(), pc.max(column).as_py()
    return low is not None and 1000 <= low < high <= 2999


def _new_years(column: pa.ChunkedArray) -> bool:
    """Every date is a January 1st: the dates stand for years, which have no weekday or month to group by."""
    present = column.drop_null()
    if not len(present):
        return False
    return bool(pc.all(pc.and_(pc.equal(pc.month(present), 1), pc.equal(pc.day(present), 1))).as_py())


def with_date_parts(table: pa.Table) -> tuple[pa.Table, list[str]]:
    """The table with a field per date part (catalog/parts.py), and a note for each source said to the user.

    Evidence: a date's weekday and month (none where every date is a January 1st: years; no weekday where every
    date is a month's first day: months); an hour where some timestamp has a time of day other than midnight;
    an hour of an integer column whose values are HHMM clock times (many, 0–2400, minutes under 60).
    """
    types = {f.name: f.type for f in table.schema}
    wanted: list[tuple[str, DatePartName, bool]] = []
    for name, kind in types.items():
        if (pa.types.is_date(kind) or pa.types.is_timestamp(kind)) and not _new_years(table.column(name)):
            monthly = _all_first_days(table.column(name))
            wanted += [(name, part, False) for part in DATE_PARTS if not (monthly and part == "weekday")]
        if pa.types.is_timestamp(kind) and _has_times(table.column(name)):
            wanted.append((name, "hour", False))
        elif pa.types.is_integer(kind) and _is_clock(table.column(name)):
            wanted.append((name, "hour", True))
    wanted = [(name, part, clock) for name, part, clock in wanted if part_name(name, part) not in types]
    if not wanted:
        return table, []
    parts = ", ".join(f'{part_sql(_quote(name), part, clock)} AS "{part_name(name, part)}"'
                      for name, part, clock in wanted)
    con = duckdb.connect()
    try:
        con.register("__dated", table)
        derived: pa.Table = con.sql(f"SELECT *, {parts} FROM __dated").to_arrow_table()
    finally:
        con.close()
    return derived, _part_notes(wanted)


_PER_DAY = {"s": 86_400, "ms": 86_400_000, "us": 86_400_000_000, "ns": 86_400_000_000_000}


def _has_times(column: pa.ChunkedArray) -> bool:
    """Some timestamp is not at midnight (in its own unit, so milliseconds count too)."""
    ticks = pc.cast(column, pa.int64())
    return bool(pc.any(pc.not_equal(pc.remainder(ticks, _PER_DAY[column.type.unit]), 0)).as_py())


def _all_first_days(column: pa.ChunkedArray) -> bool:
    days = column.drop_null()
    return len(days) > 0 and bool(pc.all(pc.equal(pc.day(days), 1)).as_py())


def _is_clock(column: pa.ChunkedArray) -> bool:
    distinct = pc.unique(column.drop_null())
    return is_clock_values([int(v) for v in distinct.to_pylist()], len(distinct))


def _part_notes(wanted: list[tuple[str, DatePartName, bool]]) -> list[str]:
    """"dep_time: HHMM clock times → hour of the day in dep_time_hour", one line per source."""
    notes = []
    for source in dict.fromkeys(name for name, _, _ in wanted):
        mine = [(part, clock) for name, part, clock in wanted if name == source]
        said = ", ".join(f"{part} in {part_name(source, part)}" for part, _ in mine)
        what = "dates and times" if any(part == "hour" for part, _ in mine) else "dates"
        what = "HHMM clock times" if any(clock for _, clock in mine) else what
        notes.append(f"{source}: {what} → {said} (derived at load, for questions by {', '.join(p for p, _ in mine)})")
    return notes


def infer_mapping(table: pa.Table) -> dict[str, Any]:
    """keyword / text(+keyword) / integer / long / double / boolean / date, from types and a value profile."""
    profile = _string_profile(table)
    properties: dict[str, Any] = {}
    for column in table.schema:
        properties[column.name] = _field_mapping(column, table, profile.get(column.name))
    return {"properties": properties}


def _field_mapping(column: pa.Field, table: pa.Table, strings: tuple[int, int, float] | None) -> dict[str, Any]:
    kind = column.type
    if pa.types.is_boolean(kind):
        return {"type": "boolean"}
    if pa.types.is_integer(kind):
        values = table.column(column.name)
        low, high = pc.min(values).as_py(), pc.max(values).as_py()
        small = low is None or (low >= -_INT32 - 1 and high <= _INT32)
        return {"type": "integer" if small else "long"}
    if pa.types.is_floating(kind):
        return {"type": "double"}
    if pa.types.is_date(kind) or pa.types.is_timestamp(kind):
        return {"type": "date"}
    if strings is not None and _free_text(*strings):
        return {"type": "text", "fields": {"keyword": {"type": "keyword"}}}
    return {"type": "keyword"}


def _free_text(present: int, distinct: int, length: float) -> bool:
    """Prose, not a label: long on average and rarely repeated."""
    return length >= _FREE_TEXT_LENGTH and distinct > 100 and distinct >= 0.5 * present


def _string_profile(table: pa.Table) -> dict[str, tuple[int, int, float]]:
    """String column → (values present, distinct values (approximate), average length)."""
    strings = [f.name for f in table.schema if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)]
    if not strings:
        return {}
    parts = [f'count("{n}"), approx_count_distinct("{n}"), coalesce(avg(length("{n}")), 0)' for n in strings]
    con = duckdb.connect()
    try:
        con.register("__profile", table)
        row = con.execute(f"SELECT {', '.join(parts)} FROM __profile").fetchone() or ()
    finally:
        con.close()
    return {n: (int(row[3 * i]), int(row[3 * i + 1]), float(row[3 * i + 2])) for i, n in enumerate(strings)}
