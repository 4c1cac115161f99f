"""Read a user's data files with DuckDB and infer their Elasticsearch mapping (`bosun data load`).

DuckDB reads every format (CSV of any dialect, compressed or not, Parquet, JSON Lines); this module
only picks the reader, names columns the way field names are written, and chooses a mapping from the
column types and a profile of their values. A file that cannot be read becomes one LoadError line
naming the file, the row when there is one, and the problem.

No row passes through Python: DuckDB writes the typed rows to a table of a DuckDB file of the load's
own (within its memory limit, spilling past it), every decision is an aggregate query, and the
engine copies the staged rows from that file (engines/staged.py).
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
from typing import TYPE_CHECKING, Any

import duckdb

from bosun.catalog.parts import DATE_PARTS, is_clock_values, part_name, part_sql
from bosun.catalog.schema import DatePartName
from bosun.datagen.intake import (
    FileLimits,
    check_json_depth,
    checked_path,
    directory_files,
    extracted,
    linked,
)
from bosun.datagen.rownames import row_numbers_column
from bosun.datagen.textforms import month_columns
from bosun.engines.staged import SEQ, StagedRows
from bosun.errors import LoadError, quoting

if TYPE_CHECKING:
    import pyarrow as pa

CSV_SUFFIXES = {".csv", ".tsv", ".txt", ".psv"}
JSON_SUFFIXES = {".jsonl", ".ndjson", ".json"}
PARQUET_SUFFIXES = {".parquet", ".pq"}
_UNNAMED = re.compile(r"column\d+")  # DuckDB's names for columns without a header
_FREE_TEXT_LENGTH = 30  # average characters from which a mostly-distinct string column is prose
_DATE_PARTS = {
    "year": ("year", "yr"),
    "month": ("month", "mon"),
    "day": ("day", "dayofmonth", "dom"),
}
_INT32 = 2**31 - 1
_PER_STATEMENT = 50  # aggregates asked in one statement over a loaded table
# in a load's DuckDB file: the rows of a text file as read, the table typed, the view adding date
# parts
_READ, _TYPED, _STAGED = "as_read", "typed", "rows"
# : What R (NA), pandas (NaN, None, null), SQL exports (NULL) and spreadsheets (#N/A, N/A, -, ?)
# write for a : missing value. A text column whose other values are all numbers (or all dates) is
# read as that type with : these as missing; in a column of labels they stay as written ("NA" may be
# a code: Namibia, not applicable).
NULL_TOKENS = (
    "NA",
    "N/A",
    "n/a",
    "NULL",
    "null",
    "None",
    "none",
    "NaN",
    "nan",
    "#N/A",
    "-",
    "?",
    "",
)
# : the types a text column is tried as, in order (the first that holds every value but the null
# tokens), each : with the form its text must have: a cast alone would round 7.5 to a BIGINT and cut
# a time off to a DATE
_RETYPES = {
    "BIGINT": r"[+-]?\d+",
    "DOUBLE": r".*",
    "DATE": r"\d{4}-\d{1,2}-\d{1,2}",
    "TIMESTAMP": r".*\d(\.\d+)?",
    "TIMESTAMP WITH TIME ZONE": r".*",
}


@dataclass(frozen=True)
class LoadedFile:
    """One index's rows read from its files, with the mapping inferred for them."""

    index: str
    # the typed rows, with their derived date parts, in a DuckDB file of the load's own
    staged: StagedRows
    mapping: dict[str, Any]
    sources: tuple[Path, ...]
    # what the reading decided that a user should hear (missing values, time zones)
    notes: tuple[str, ...] = ()


def default_index(path: Path) -> str:
    """The index a file loads into: its stem without compression suffixes, as a field-like name."""
    name = path.name
    while Path(name).suffix.lower() in {
        *CSV_SUFFIXES,
        *JSON_SUFFIXES,
        *PARQUET_SUFFIXES,
        ".gz",
        ".zip",
        ".zst",
    }:
        name = Path(name).stem
    return field_name(name) or "data"


def field_name(text: str) -> str:
    """`DepTime`, `Dep Time`, `dep-time` → `dep_time`: one way of writing names for fields and
    indices."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text.strip())
    return re.sub(r"[^a-z0-9]+", "_", spaced.lower()).strip("_")


def files_of(path: Path) -> list[Path]:
    """The data files at `path`: the file itself, or every readable file of a directory, sorted; a
    device, a pipe or an unreadable file is refused."""
    if not checked_path(path):
        return [path]
    found = [p for p in directory_files(path) if _kind(p) is not None]
    if not found:
        raise LoadError(f"{path}: the directory holds no CSV, Parquet or JSON Lines file")
    return found


def read_files(
    paths: list[Path], index: str, folder: Path, limits: FileLimits | None = None
) -> LoadedFile:
    """All `paths` (one format) read by DuckDB into a typed table of a DuckDB file in `folder`
    (which the caller removes), with its derived date parts, plus its inferred mapping: no row
    passes through Python, and DuckDB's memory limit bounds the reading (it spills to its temp
    directory past it)."""
    limits = limits or FileLimits.default()
    path = Path(tempfile.mkdtemp(prefix="bosun-stage-", dir=folder)) / "rows.duckdb"
    con = duckdb.connect(str(path))
    # a zoned timestamp is kept in UTC, whatever the machine's zone
    con.execute("SET TimeZone = 'UTC'")
    limits.memory.apply(con)
    try:
        notes = _staged(con, paths, limits)
        rows = int(con.execute(f"SELECT count(*) FROM {_TYPED}").fetchall()[0][0])
        if rows == 0:
            raise LoadError(f"{paths[0]}: the file is empty (no rows)")
        derived = _with_derived(con, _TYPED, _STAGED)
        mapping = infer_mapping(con, _STAGED)
    except duckdb.OutOfMemoryException:
        raise limits.memory.exceeded(f"reading {paths[0]}") from None
    finally:
        con.close()
    return LoadedFile(
        index, StagedRows(path, _STAGED, rows), mapping, tuple(paths), tuple([*notes, *derived])
    )


def _staged(con: duckdb.DuckDBPyConnection, paths: list[Path], limits: FileLimits) -> list[str]:
    """The files' rows written to the typed table; the notes on what reading them decided."""
    with _readable(paths, limits) as readable:
        kinds = {_kind(p) for p in readable}
        if len(kinds) != 1 or None in kinds:
            raise LoadError(
                f"{paths[0]}: mixed or unknown formats; load CSV, Parquet, JSON or JSON Lines files"
            )
        kind = kinds.pop() or ""
        if kind == "json":
            for path, shown in readable.items():
                check_json_depth(path, shown, limits.json_depth)
        return _read(con, readable, kind, limits.columns)


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
    """The files DuckDB reads (→ the path a message names), in a temporary folder under names it
    reads literally: links to the files, and the checked members of `.zip` archives (DuckDB reads
    .gz, not .zip)."""
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


def _read(
    con: duckdb.DuckDBPyConnection, readable: dict[Path, Path], kind: str, most_columns: int
) -> list[str]:
    """The typed table written, and its notes; a problem names the user's file, never the link read
    in its stead."""
    paths = list(readable)
    try:
        for path in paths if kind == "csv" else []:
            _check_header(path, most_columns)
        relation = _relation(con, paths, kind)
        if len(relation.columns) > most_columns:  # known from the header: no row is read yet
            raise LoadError(
                f"{paths[0]}: {len(relation.columns):,} columns, over the limit of "
                f"{most_columns:,} "
                "(BOSUN_MAX_COLUMNS)"
            )
        return _typed_table(con, relation, kind, paths)
    except LoadError as exc:
        message = str(exc)
        for link, shown in readable.items():
            message = message.replace(str(link), str(shown))
        raise LoadError(message) from None


def _relation(
    con: duckdb.DuckDBPyConnection, paths: list[Path], kind: str
) -> duckdb.DuckDBPyRelation:
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
    relation = _sniffed_once(con, paths[0]) if len(paths) == 1 else _read_csvs(con, paths)
    if len(relation.columns) == 1:
        for path in paths:
            _check_ragged(path)
    return relation


def _sniffed_once(con: duckdb.DuckDBPyConnection, path: Path) -> duckdb.DuckDBPyRelation:
    """One file read as DuckDB's sniffer reads it, sniffed once: `sniff_csv` gives the `read_csv`
    call with every option it found spelled out and detection off, so no later scan sniffs again
    (a sniff of 1,000 columns takes seconds, and a re-sniff may miss a header whose first cell is
    empty, R's "")."""
    call = con.execute("SELECT Prompt FROM sniff_csv(?, skip = 0)", [str(path)]).fetchall()[0][0]
    return con.sql(f"SELECT * {str(call).rstrip().rstrip(';')}")


def _read_csvs(con: duckdb.DuckDBPyConnection, paths: list[Path]) -> duckdb.DuckDBPyRelation:
    """Several files, each sniffed, their columns matched by name."""
    names: Any = [str(p) for p in paths]  # DuckDB's readers take a list of files; its stubs say one
    relation = con.read_csv(names, skiprows=0, union_by_name=True)
    # a header was found: say so, for every later
    if not all(_UNNAMED.fullmatch(c) for c in relation.columns):
        # scan of the file re-sniffs it, and DuckDB 2.0 then misses a header whose first cell is
        # empty (R's "")
        relation = con.read_csv(names, skiprows=0, header=True, union_by_name=True)
    return relation


def _check_header(path: Path, most_columns: int) -> None:
    """A header wider than the column limit is refused before DuckDB's sniffer reads it (which takes
    long on 10,000 columns): its width is counted on the delimiter it holds most of, in its first 4
    MB at most."""
    opener = gzip.open if path.suffix.lower() == ".gz" else open
    with opener(path, "rt", encoding="utf-8", errors="replace", newline="") as handle:
        header = handle.readline(4_000_000)
    width = max(header.count(d) for d in ",;\t|") + 1
    if width > most_columns:
        raise LoadError(
            f"{path}: {width:,} columns, over the limit of {most_columns:,} (BOSUN_MAX_COLUMNS)"
        )


def _check_ragged(path: Path) -> None:
    """One column read from a file whose header has delimiters: find the row that broke the
    sniffer."""
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
    """DuckDB's error as one line: the file, the row when DuckDB names it, and what is wrong (a
    value it quotes cut short: DuckDB quotes a whole cell)."""
    text = quoting(str(exc))
    path = _file_named(text, paths)
    line = re.search(r"Line: (\d+)", text)
    row = f"row {line.group(1)}: " if line else ""
    if "No files found" in text:
        return f"{path}: no such file"
    if "unicode" in text.lower() or "utf-8" in text.lower():
        return f"{path}: {row}not UTF-8 text (convert the file to UTF-8)"
    detail = next(
        (s for s in text.splitlines()[1:] if s and not s.startswith(("Original Line", "Possible"))),
        "",
    )
    first = text.splitlines()[0].split("Error: ", 1)[-1]
    return f"{path}: {row}{detail or first}".strip()


def _file_named(text: str, paths: list[Path]) -> str:
    """The file DuckDB's error names (`file = …`, `file "…"`, or a quoted path of those read);
    else the first file read. A quoted column name is no file."""
    said = re.search(r'file = (\S+)|file "([^"]+)"', text)
    if said:
        return said.group(1) or said.group(2)
    given = {str(path) for path in paths}
    quoted = [name for name in re.findall(r'"([^"]+)"', text) if name in given]
    return quoted[0] if quoted else str(paths[0])


def _typed_table(
    con: duckdb.DuckDBPyConnection,
    relation: duckdb.DuckDBPyRelation,
    file_kind: str,
    paths: list[Path],
) -> list[str]:
    """The typed table written: columns renamed to field names and cast to types a mapping can hold;
    notes on what was decided."""
    try:
        _read_once(con, relation, file_kind)
        select, notes = _typed_columns(con, con.table(_READ))
        con.execute(f"CREATE TABLE {_TYPED} AS SELECT {', '.join(select)} FROM {_READ}")
        con.execute(f"DROP {'VIEW' if file_kind == 'parquet' else 'TABLE'} {_READ}")
    except duckdb.OutOfMemoryException:
        raise
    except duckdb.Error as exc:
        raise LoadError(_problem(paths, exc)) from None
    return notes


def _read_once(
    con: duckdb.DuckDBPyConnection, relation: duckdb.DuckDBPyRelation, file_kind: str
) -> None:
    """The rows as read, under the name `_READ` that the checks and the typing read: a table of a
    CSV or JSON file's rows, so that a text file is parsed once, not once per check; a view of a
    Parquet file, which is read a column at a time."""
    if file_kind == "parquet":
        relation.create_view(_READ)
    else:
        relation.create(_READ)


def _typed_columns(
    con: duckdb.DuckDBPyConnection, read: duckdb.DuckDBPyRelation
) -> tuple[list[str], list[str]]:
    """The select list of the typed table (each column cast and named as a field) and the notes."""
    seen: set[str] = set()
    select, notes = [], []
    retyped = _retyped(con, _READ, _types(con, _READ))
    row_numbers = row_numbers_column(read)
    notes += [row_numbers[1]] if row_numbers else []
    for column, sniffed in zip(read.columns, read.types, strict=True):
        if row_numbers and column == row_numbers[0]:
            continue
        name = _unique(field_name(column) or "column", seen)
        expr, kind = _quote(column), str(sniffed)
        said = []
        if column in retyped:
            kind, missing = retyped[column]
            expr = (
                f"TRY_CAST(CASE WHEN {_is_token(expr)} THEN NULL ELSE trim({expr}) END AS {kind})"
            )
            said.append(
                f"{missing:,} {'row' if missing == 1 else 'rows'} with a missing-value word "
                f"(NA, NULL, None, -, ? ...) read as missing among {_KIND_WORDS[kind]}"
            )
        if kind == "TIMESTAMP WITH TIME ZONE":
            said.insert(0, "date and time in UTC (the file gives a zone or Z)")
        elif kind.startswith("TIMESTAMP"):
            said.insert(0, "date and time as written, local time (the file gives no zone)")
        if said:
            notes.append(f"{name}: " + "; ".join(said))
        select.append(f'{_cast(expr, kind)} AS "{name}"')
    return select, notes


_KIND_WORDS = {
    "BIGINT": "whole numbers",
    "DOUBLE": "numbers",
    "DATE": "dates",
    "TIMESTAMP": "dates and times",
    "TIMESTAMP WITH TIME ZONE": "dates and times",
}


def _is_token(expr: str) -> str:
    return f"trim({expr}) IN ({', '.join(_sql_text(t) for t in NULL_TOKENS)})"


def _sql_text(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _retyped(
    con: duckdb.DuckDBPyConnection, table: str, types: dict[str, str]
) -> dict[str, tuple[str, int]]:
    """Text column → (type, rows holding a null token) when its values but the null tokens are all
    of that type.

    Evidence: every value that is not a null token casts to the type, and at least one null token is
    there (without one, DuckDB's own sniffing already decided, and a text column stays text).
    """
    texts = [name for name, kind in types.items() if kind == "VARCHAR"]
    # the counts asked a few columns at a time: 200 text columns' regular expressions in one
    # aggregate over the file took 4.7 GB past a 1 GB limit
    counts = _aggregate(con, table, [part for c in texts for part in _retype_counts(c)])
    found, width = {}, 2 + len(_RETYPES)
    for i, column in enumerate(texts):
        tokens, present, *cast = counts[i * width : (i + 1) * width]
        kind = next((k for k, n in zip(_RETYPES, cast, strict=True) if n == present), None)
        if tokens and present and kind:
            found[column] = (kind, int(tokens))
    return found


def _retype_counts(column: str) -> list[str]:
    """A text column's rows with a null token, its other values, and how many of those cast to each
    type of `_RETYPES` with that type's form."""
    expr = _quote(column)
    return [
        f"count(*) FILTER (WHERE {_is_token(expr)})",
        f"count({expr}) FILTER (WHERE NOT {_is_token(expr)})",
        *(
            f"count(TRY_CAST(trim({expr}) AS {kind})) FILTER (WHERE NOT {_is_token(expr)} "
            f"AND regexp_full_match(trim({expr}), {_sql_text(form)}))"
            for kind, form in _RETYPES.items()
        ),
    ]


def _unique(name: str, seen: set[str]) -> str:
    candidate, number = name, 2
    while candidate in seen:
        candidate, number = f"{name}_{number}", number + 1
    seen.add(candidate)
    return candidate


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _cast(column: str, kind: str) -> str:
    """Decimals become doubles (NaN missing), zoned timestamps plain UTC ones, anything nested or
    unusual a string."""
    # NaN is pandas' missing number
    if kind.startswith("DECIMAL") or kind in {"FLOAT", "REAL", "DOUBLE"}:
        return (
            f"CASE WHEN isnan(CAST({column} AS DOUBLE)) THEN NULL ELSE CAST({column} AS DOUBLE) END"
        )
    if kind in {"UBIGINT", "HUGEINT", "UHUGEINT"}:
        return f"CAST({column} AS BIGINT)"
    if kind == "TIMESTAMP WITH TIME ZONE":
        return f"CAST({column} AS TIMESTAMP)"
    known = {
        "VARCHAR",
        "BOOLEAN",
        "TINYINT",
        "SMALLINT",
        "INTEGER",
        "BIGINT",
        "UTINYINT",
        "USMALLINT",
        "UINTEGER",
        "DOUBLE",
        "DATE",
        "TIMESTAMP",
        "TIMESTAMP_NS",
        "TIMESTAMP_MS",
        "TIMESTAMP_S",
    }
    return column if kind in known else f"CAST({column} AS VARCHAR)"


def _types(con: duckdb.DuckDBPyConnection, table: str) -> dict[str, str]:
    """Each column's DuckDB type, in order."""
    rows = con.execute(f"SELECT column_name, column_type FROM (DESCRIBE {table})").fetchall()
    return {str(name): str(kind) for name, kind in rows}


def _is_integer(kind: str) -> bool:
    return kind in _INTEGERS


def _is_dated(kind: str) -> bool:
    return kind == "DATE" or kind.startswith("TIMESTAMP")


_INTEGERS = {
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "BIGINT",
    "HUGEINT",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
    "UBIGINT",
}


def _with_derived(con: duckdb.DuckDBPyConnection, source: str, target: str) -> list[str]:
    """View `target`: table `source` plus a composed date, the date parts and the load order (SEQ),
    in SQL; a note per source said. A view: the rows are written once more only where they go, into
    the index."""
    types = _types(con, source)
    months = month_columns(
        con, source, [n for n, kind in types.items() if kind == "VARCHAR"], NULL_TOKENS
    )
    types |= {name: "DATE" for name in months}
    sources = {name: _quote(name) for name in types} | {
        name: f"({sql})" for name, (sql, _) in months.items()
    }
    composed = _composed_date(con, source, types)
    extra = [f'{composed[1]} AS "{composed[0]}"'] if composed else []
    if composed:
        types[composed[0]] = "DATE"
        sources[composed[0]] = f"({composed[1]})"
    wanted = _wanted_parts(con, source, types, sources)
    extra += [
        f'{part_sql(sources[name], part, clock)} AS "{part_name(name, part)}"'
        for name, part, clock in wanted
    ]
    replaced = (
        f" REPLACE ({', '.join(f'{sql} AS {_quote(n)}' for n, (sql, _) in months.items())})"
        if months
        else ""
    )
    con.execute(
        f"CREATE VIEW {target} AS SELECT *{replaced}{''.join(', ' + e for e in extra)}, rowid AS "
        f"{SEQ} "
        f"FROM {source}"
    )
    return [*(note for _, note in months.values()), *_part_notes(wanted)]


def _composed_date(
    con: duckdb.DuckDBPyConnection, table: str, types: dict[str, str]
) -> tuple[str, str] | None:
    """(name, expression) of a `date` made of year/month[/day] columns when the data has no date of
    its own; a year column alone dates each row as its year's January 1st where its values are
    calendar years (a season's figures, a year's salaries: several years of the last millennium or
    this one)."""
    if any(_is_dated(kind) for kind in types.values()):
        return None
    squeezed = {_squeezed(n): n for n, kind in types.items() if _is_integer(kind)}
    parts = {
        part: next((squeezed[n] for n in names if n in squeezed), None)
        for part, names in _DATE_PARTS.items()
    }
    year = parts["year"]
    if year is None:
        return None
    if parts["month"] is None:
        low, high = _aggregate(con, table, [f"min({_quote(year)})", f"max({_quote(year)})"])
        if low is None or not 1000 <= low < high <= 2999:
            return None
    month = f'coalesce("{parts["month"]}", 1)' if parts["month"] else "1"
    day = f'coalesce("{parts["day"]}", 1)' if parts["day"] else "1"
    return (
        _unique("date", set(types)),
        f'try(make_date(CAST("{year}" AS BIGINT), CAST({month} AS BIGINT), CAST({day} AS BIGINT)))',
    )


def _squeezed(name: str) -> str:
    """A column's name without underscores and a trailing "id" ("year_id", "yearID" → "year"): a
    year's number is often written as the key of the season it names."""
    squeezed = name.replace("_", "")
    return squeezed.removesuffix("id") or squeezed


def _wanted_parts(
    con: duckdb.DuckDBPyConnection, table: str, types: dict[str, str], sources: dict[str, str]
) -> list[tuple[str, DatePartName, bool]]:
    """The date parts to derive: (source, part, whether the source is an HHMM clock).

    Evidence: a date's weekday and month (none where every date is a January 1st: years; no weekday
    where every date is a month's first day: months); an hour where some timestamp has a time of day
    other than midnight; an hour of an integer column whose values are HHMM clock times (many,
    0–2400, minutes under 60).
    """
    timed, clocks = _timed(con, table, types), _clocks(con, table, types)
    years, months = _calendar(
        con, table, [n for n, kind in types.items() if _is_dated(kind)], sources
    )
    wanted: list[tuple[str, DatePartName, bool]] = []
    for name, kind in types.items():
        if _is_dated(kind) and name not in years:
            wanted += [
                (name, part, False)
                for part in DATE_PARTS
                if not (name in months and part == "weekday")
            ]
        if name in timed:
            wanted.append((name, "hour", False))
        elif name in clocks:
            wanted.append((name, "hour", True))
    return [
        (name, part, clock) for name, part, clock in wanted if part_name(name, part) not in types
    ]


def _calendar(
    con: duckdb.DuckDBPyConnection, table: str, dated: list[str], sources: dict[str, str]
) -> tuple[set[str], set[str]]:
    """The date columns whose every date is a January 1st (years), and those whose every date is a
    month's first day (months): neither has a weekday to group by, nor years a month."""
    found = _aggregate(
        con,
        table,
        [f"bool_and(month({sources[n]}) = 1 AND day({sources[n]}) = 1)" for n in dated]
        + [f"bool_and(day({sources[n]}) = 1)" for n in dated],
    )
    years = {n for n, yes in zip(dated, found[: len(dated)], strict=True) if yes}
    return years, {n for n, yes in zip(dated, found[len(dated) :], strict=True) if yes}


def _timed(con: duckdb.DuckDBPyConnection, table: str, types: dict[str, str]) -> set[str]:
    """The timestamp columns where some value is not at midnight."""
    names = [n for n, kind in types.items() if kind.startswith("TIMESTAMP")]
    if not names:
        return set()
    found = _aggregate(
        con, table, [f"bool_or(CAST({_quote(n)} AS TIME) <> TIME '00:00:00')" for n in names]
    )
    return {name for name, timed in zip(names, found, strict=True) if timed}


def _clocks(con: duckdb.DuckDBPyConnection, table: str, types: dict[str, str]) -> set[str]:
    """The integer columns holding HHMM clock times: their distinct values are read only where all
    lie in 0–2400."""
    names = [n for n, kind in types.items() if _is_integer(kind)]
    ranges = _aggregate(
        con, table, [f"min({_quote(n)}) >= 0 AND max({_quote(n)}) <= 2400" for n in names]
    )
    within = [name for name, ok in zip(names, ranges, strict=True) if ok]
    values = _aggregate(
        con,
        table,
        [f"list(DISTINCT {_quote(n)}) FILTER (WHERE {_quote(n)} IS NOT NULL)" for n in within],
    )
    return {
        name
        for name, found in zip(within, values, strict=True)
        if is_clock_values([int(v) for v in found or []], len(found or []))
    }


def _aggregate(con: duckdb.DuckDBPyConnection, table: str, parts: list[str]) -> list[Any]:
    """One row of aggregates over the table (none asked, none read), asked a few at a time: DuckDB
    plans many DISTINCT aggregates of one statement in time and memory that grow with their square
    (1,000 columns' distinct values took 89 s and 1.2 GB in one statement, 2 s in batches)."""
    found: list[Any] = []
    for start in range(0, len(parts), _PER_STATEMENT):
        batch = ", ".join(parts[start : start + _PER_STATEMENT])
        found += con.execute(f"SELECT {batch} FROM {table}").fetchall()[0]
    return found


def with_date_parts(table: pa.Table) -> tuple[pa.Table, list[str]]:
    """An Arrow table with a field per date part (catalog/parts.py), as `data load` derives them,
    and the notes."""
    con = duckdb.connect()
    try:
        con.register("__dated", table)
        con.execute("CREATE TABLE __source AS SELECT * FROM __dated")
        notes = _with_derived(con, "__source", "__derived")
        derived: pa.Table = con.sql(
            f"SELECT * EXCLUDE ({SEQ}) FROM __derived ORDER BY {SEQ}"
        ).to_arrow_table()
    finally:
        con.close()
    return derived, notes


def _part_notes(wanted: list[tuple[str, DatePartName, bool]]) -> list[str]:
    """ "dep_time: HHMM clock times → hour of the day in dep_time_hour", one line per source."""
    notes = []
    for source in dict.fromkeys(name for name, _, _ in wanted):
        mine = [(part, clock) for name, part, clock in wanted if name == source]
        said = ", ".join(f"{part} in {part_name(source, part)}" for part, _ in mine)
        what = "dates and times" if any(part == "hour" for part, _ in mine) else "dates"
        what = "HHMM clock times" if any(clock for _, clock in mine) else what
        notes.append(
            f"{source}: {what} → {said} (derived at load, for questions by "
            f"{', '.join(p for p, _ in mine)})"
        )
    return notes


def infer_mapping(con: duckdb.DuckDBPyConnection, table: str) -> dict[str, Any]:
    """keyword / text(+keyword) / integer / long / double / boolean / date, from types and a value
    profile taken in SQL (one aggregate over the table)."""
    types = {name: kind for name, kind in _types(con, table).items() if name != SEQ}
    integers = [n for n, kind in types.items() if _is_integer(kind)]
    strings = [n for n, kind in types.items() if kind == "VARCHAR"]
    parts = [
        f"min({_quote(n)}) >= {-_INT32 - 1} AND max({_quote(n)}) <= {_INT32}" for n in integers
    ]
    parts += [
        f"count({_quote(n)}), approx_count_distinct({_quote(n)}), "
        f"coalesce(avg(length({_quote(n)})), 0)"
        for n in strings
    ]
    found = _aggregate(con, table, parts)
    small = {n: ok is None or bool(ok) for n, ok in zip(integers, found, strict=False)}
    rest = found[len(integers) :]
    profile = {
        n: (int(rest[3 * i]), int(rest[3 * i + 1]), float(rest[3 * i + 2]))
        for i, n in enumerate(strings)
    }
    return {
        "properties": {
            name: _field_mapping(kind, small.get(name, True), profile.get(name))
            for name, kind in types.items()
        }
    }


def _field_mapping(
    kind: str, small: bool, strings: tuple[int, int, float] | None
) -> dict[str, Any]:
    if kind == "BOOLEAN":
        return {"type": "boolean"}
    if _is_integer(kind):
        return {"type": "integer" if small else "long"}
    if kind in {"DOUBLE", "FLOAT", "REAL"}:
        return {"type": "double"}
    if _is_dated(kind):
        return {"type": "date"}
    if strings is not None and _free_text(*strings):
        return {"type": "text", "fields": {"keyword": {"type": "keyword"}}}
    return {"type": "keyword"}


def _free_text(present: int, distinct: int, length: float) -> bool:
    """Prose, not a label: long on average and rarely repeated."""
    return length >= _FREE_TEXT_LENGTH and distinct > 100 and distinct >= 0.5 * present
