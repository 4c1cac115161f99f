"""The embedded engine: a DuckDB file that answers Elasticsearch query DSL in ES's response
shape."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from bosun.engines.base import Body, Engine, Response
from bosun.engines.embedded.aggs import Aggregator, Limits
from bosun.engines.embedded.fields import Field, flatten_mapping, quote, text_columns, token_table
from bosun.engines.embedded.hits import (
    check_source,
    json_value,
    search_after_sql,
    sort_keys,
    source_columns,
    source_filter,
)
from bosun.engines.embedded.integrity import check_once
from bosun.engines.embedded.memo import PageMemo
from bosun.engines.embedded.memory import Memory
from bosun.engines.embedded.pipelines import run_pipelines
from bosun.engines.embedded.query import TRUE, Compiler, Sql
from bosun.engines.embedded.scope import Scope
from bosun.engines.params import integer
from bosun.engines.staged import SEQ
from bosun.errors import (
    BadQuery,
    GuardrailViolation,
    LoadError,
    MissingIndex,
    QueryTimeout,
    StoreError,
    UnsupportedQuery,
    quoting,
)
from bosun.files import move_aside

if TYPE_CHECKING:
    import pyarrow as pa  # numpy and pyarrow load only to load data: a question needs neither

    from bosun.engines.staged import StagedRows

_META = "_bosun_indices"
_BODY_KEYS = {
    "query",
    "size",
    "from",
    "sort",
    "_source",
    "track_total_hits",
    "search_after",
    "aggs",
    "aggregations",
    "timeout",
    "track_scores",
    "version",
    "seq_no_primary_term",
}
_SKIP = {"_id", "_seq"}
_STAGED_DB = "__staged"
_FEW = 32  # up to this many documents are fetched one equality each (see fetch_sources)


def _check_shapes(body: Body) -> None:
    """What a cluster refuses before it runs anything: an empty or null query, a null or malformed
    `_source`, an empty `search_after`, aggregations that are not an object."""
    if "query" in body and not body["query"]:
        raise BadQuery(
            "query", f"an empty query ({body['query']!r}): leave it out to match every record"
        )
    check_source(body, "_source")
    if "search_after" in body and (
        not isinstance(body["search_after"], list) or not body["search_after"]
    ):
        raise BadQuery(
            "search_after",
            f"expected the sort values of the last hit, got {body['search_after']!r:.80}",
        )
    for key in ("aggs", "aggregations"):
        if key in body and not isinstance(body[key], dict):
            raise BadQuery(key, f"expected an object of named aggregations, got {body[key]!r:.80}")


_SPLIT = "list_filter(regexp_split_to_array(lower(v), '[^\\p{L}\\p{N}]+'), lambda t: t <> '')"


_DAMAGE = ("corrupt", "checksum", "not a valid duckdb", "invalid database")
_LOCKED = "Could not set lock on file"  # DuckDB: another process has the file open
_RELOAD = "reload it with `bosun data load` (the sample: `bosun data generate`)"


def _damaged(exc: BaseException) -> bool:
    """Whether DuckDB's error says its file is damaged (it raises the base class for a checksum
    mismatch)."""
    text = str(exc).lower()
    return any(word in text for word in _DAMAGE)


def _first_line(exc: BaseException) -> str:
    return " ".join(quoting(str(exc)).split())[:200]


def _held(path: Path, message: str, read_only: bool) -> str:
    """Another process has the file open (DuckDB locks it: many readers or one writer), in words
    that say which and what to do."""
    holder = re.search(r"\(PID (\d+)\)", message)
    who = f"another Bosun process (PID {holder.group(1)})" if holder else "another Bosun process"
    if read_only:  # only a writer keeps a reader out
        return f"{who} is writing the data file {path}: wait until it is done, then run this again"
    return (
        f"{who} holds the data file {path}: stop it (a `bosun serve`, `bosun chat`…), then run "
        "this again"
    )


def _connect(path: Path | None, read_only: bool, memory: Memory) -> duckdb.DuckDBPyConnection:
    """Open the DuckDB file within its memory, read whole once when it is opened to be read
    (`integrity`); a damaged one is moved aside and named, with what to do."""
    con: duckdb.DuckDBPyConnection | None = None
    try:
        con = duckdb.connect(str(path) if path else ":memory:", read_only=read_only)
        con.execute("SET enable_progress_bar = false")
        memory.apply(con)
        con.execute(f"SELECT count(*) FROM duckdb_tables() WHERE table_name = '{_META}'").fetchall()
        if path is not None and read_only:
            check_once(con, path)
        return con
    except duckdb.Error as exc:
        if con is not None:
            con.close()
        if path is not None and _LOCKED in str(exc):
            raise StoreError(_held(path, str(exc), read_only)) from None
        if path is None or not _damaged(exc):
            raise StoreError(
                f"the embedded engine's data file {path} cannot be opened: {_first_line(exc)}"
            ) from None
        aside = move_aside(path)
        raise StoreError(
            f"the embedded engine's data file {path} is damaged ({_first_line(exc)}); it was moved "
            f"to {aside.name}: {_RELOAD}"
        ) from None


class EmbeddedEngine(Engine):
    """DuckDB behind the Engine interface. Safe for parallel readers: one cursor per thread."""

    kind = "embedded"

    def __init__(
        self,
        path: Path | None = None,
        *,
        read_only: bool = False,
        clock: Callable[[], datetime] | None = None,
        limits: Limits | None = None,
        memory: Memory | None = None,
    ) -> None:
        self.path = path
        # like a cluster's search.max_buckets and max_result_window
        self.limits = limits or Limits()
        self.memory = memory or Memory()
        if path is not None and not read_only:
            path.parent.mkdir(parents=True, exist_ok=True)
        self._con = _connect(path, read_only, self.memory)
        self._clock = clock or (lambda: datetime.now(UTC))
        self._local = threading.local()
        self._write = threading.Lock()
        self._mappings: dict[str, dict[str, Any]] = {}
        # per index, built once: searches only read it
        self._field_maps: dict[str, dict[str, Field]] = {}
        self._cursors: list[duckdb.DuckDBPyConnection] = []
        self._memo = PageMemo()
        if not read_only:
            self._con.execute(
                f"CREATE TABLE IF NOT EXISTS {_META} (name VARCHAR PRIMARY KEY, mapping VARCHAR)"
            )

    # -- plumbing --------------------------------------------------------------------------------
    def _cursor(self) -> duckdb.DuckDBPyConnection:
        cursor = getattr(self._local, "cursor", None)
        if cursor is None:
            cursor = self._con.cursor()
            self._local.cursor = cursor
            with self._write:
                self._cursors.append(cursor)
        return cursor

    def _run(self, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
        try:
            return self._cursor().execute(sql, params).fetchall()
        except duckdb.InterruptException:
            raise QueryTimeout("the query was interrupted") from None
        except duckdb.OutOfMemoryException:
            raise self.memory.exceeded("the query") from None
        except duckdb.Error as exc:
            if not _damaged(exc):
                raise UnsupportedQuery(
                    "query", f"the embedded engine could not run it: {_first_line(exc)}"
                ) from None
            raise StoreError(
                f"the embedded engine's data file {self.path} is damaged ({_first_line(exc)}): "
                f"{_RELOAD}"
            ) from None

    def interrupt_all(self) -> None:
        """Stop every running query (a guardrail's deadline)."""
        for cursor in list(self._cursors):
            cursor.interrupt()

    def _mapping(self, index: str) -> dict[str, Any]:
        if index not in self._mappings:
            try:
                rows = (
                    self._cursor()
                    .execute(f"SELECT mapping FROM {_META} WHERE name = ?", [index])
                    .fetchall()
                )
            except duckdb.CatalogException:
                rows = []
            if not rows:
                raise MissingIndex(
                    f"no index {index!r} in the embedded engine: load it with `bosun data load "
                    "FILE` "
                    "(or build the sample with `bosun data generate`)"
                )
            self._mappings[index] = json.loads(rows[0][0])
        return self._mappings[index]

    def _fields(self, index: str) -> dict[str, Field]:
        if index not in self._field_maps:
            mapping = self._mapping(index)
            rows = (
                self._cursor()
                .execute(f"SELECT column_name, column_type FROM (DESCRIBE {quote(index)})")
                .fetchall()
            )
            self._field_maps[index] = flatten_mapping(
                mapping, index, {str(n): str(t) for n, t in rows}
            )
        return self._field_maps[index]

    def _compiler(self, index: str) -> Compiler:
        return Compiler(self._fields(index), self._clock())

    # -- Engine ----------------------------------------------------------------------------------
    def indices(self) -> list[str]:
        try:
            return sorted(
                r[0] for r in self._cursor().execute(f"SELECT name FROM {_META}").fetchall()
            )
        except duckdb.CatalogException:
            return []

    def mapping(self, index: str) -> dict[str, Any]:
        return json.loads(json.dumps(self._mapping(index)))

    def count(self, index: str, body: Body | None = None) -> int:
        where = self._compiler(index).compile((body or {}).get("query"))
        return int(
            self._run(f"SELECT count(*) FROM {quote(index)} WHERE {where.text}", where.params)[0][0]
        )

    def bulk_load(
        self, index: str, table: pa.Table, mapping: dict[str, Any], id_field: str | None = None
    ) -> int:
        import numpy as np
        import pyarrow as pa

        ids = (
            table.column(id_field).cast(pa.string())
            if id_field
            else pa.array(np.arange(table.num_rows).astype(str))
        )
        loaded = table.append_column("_id", ids).append_column(
            "_seq", pa.array(np.arange(table.num_rows))
        )
        with self._write:
            self._con.register("__load", loaded)
            try:
                self._replaced(index, mapping, "SELECT * FROM __load")
            finally:
                self._con.unregister("__load")
        return table.num_rows

    def load_staged(self, index: str, staged: StagedRows, mapping: dict[str, Any]) -> int:
        """The staged table copied in by DuckDB, table to table: its memory limit bounds the load,
        not the rows."""
        with self._write, self._attached(staged):
            self._replaced(
                index,
                mapping,
                f"SELECT * EXCLUDE ({SEQ}), CAST({SEQ} AS VARCHAR) AS _id, {SEQ} AS _seq "
                f"FROM {_staged(staged)}",
            )
        return staged.rows

    def append_staged(self, index: str, staged: StagedRows) -> int:
        """The staged rows added after the index's own, cast to its columns' types; the index's rows
        stay."""
        columns = self._fields_of(index)
        cast = ", ".join(f"CAST({quote(name)} AS {kind})" for name, kind in columns.items())
        first = f"(SELECT coalesce(max(_seq) + 1, 0) FROM {quote(index)})"
        select = (
            f"SELECT {', '.join(map(quote, columns))}, _id, _seq FROM {quote(index)} UNION ALL "
            f"SELECT {cast}, CAST({SEQ} + {first} AS VARCHAR), {SEQ} + {first} FROM "
            f"{_staged(staged)}"
        )
        with self._write, self._attached(staged):
            try:
                self._replaced(index, self._mapping(index), select)
            except duckdb.ConversionException as exc:
                raise LoadError(
                    f"its values do not fit index {index!r}: {_first_line(exc)}"
                ) from None
        return staged.rows

    def _fields_of(self, index: str) -> dict[str, str]:
        """An index's loaded columns and their DuckDB types, in order (not _id or _seq)."""
        rows = (
            self._cursor()
            .execute(f"SELECT column_name, column_type FROM (DESCRIBE {quote(index)})")
            .fetchall()
        )
        return {str(n): str(t) for n, t in rows if n not in _SKIP}

    @contextmanager
    def _attached(self, staged: StagedRows) -> Iterator[None]:
        self._con.execute(f"ATTACH {staged.quoted_path} AS {_STAGED_DB} (READ_ONLY)")
        try:
            yield
        finally:
            self._con.execute(f"DETACH {_STAGED_DB}")

    def _replaced(self, index: str, mapping: dict[str, Any], select: str) -> None:
        """`index` replaced by the rows of `select` in one transaction: readers see the old or the
        new, never half."""
        self._con.begin()
        try:
            self._replace(index, mapping, select)
            self._con.commit()
        except duckdb.OutOfMemoryException:
            self._con.rollback()
            raise self.memory.exceeded(f"loading {index!r}") from None
        except BaseException:
            self._con.rollback()
            raise
        self._mappings.pop(index, None)
        self._field_maps.pop(index, None)
        self._memo.forget(quote(index))

    def _replace(self, index: str, mapping: dict[str, Any], select: str) -> None:
        self._con.execute(f"CREATE OR REPLACE TABLE {quote(index)} AS {select}")
        for column in text_columns(mapping):
            self._con.execute(
                f"CREATE OR REPLACE TABLE {quote(token_table(index, column))} AS SELECT v, "
                f"{_SPLIT} AS toks "
                f"FROM (SELECT DISTINCT {quote(column)} AS v FROM {quote(index)} WHERE v IS NOT "
                "NULL)"
            )
        self._con.execute(
            f"INSERT OR REPLACE INTO {_META} VALUES (?, ?)", [index, json.dumps(mapping)]
        )

    def to_arrow(self, index: str) -> pa.Table:
        """Every row of an index in load order, with the columns it was loaded with."""
        columns = [quote(name) for name in self._mapping(index).get("properties", {})]
        return (
            self._cursor()
            .sql(f"SELECT {', '.join(columns)} FROM {quote(index)} ORDER BY _seq")
            .to_arrow_table()
        )

    def sql(self, text: str) -> list[tuple[Any, ...]]:
        """Rows of SQL over the indices' tables (one per index, its fields as columns, plus `_id`
        and `_seq`): what benchmarks and tests compare the DSL's answers with. Not for user or model
        text."""
        return self._cursor().execute(text).fetchall()

    def close(self) -> None:
        with self._write:  # the threads' cursors too: each keeps the database (and its memory) open
            for cursor in self._cursors:
                cursor.close()
        self._con.close()

    # -- search ----------------------------------------------------------------------------------
    def search(self, index: str, body: Body) -> Response:
        started = time.perf_counter()
        body = body or {}
        if not isinstance(body, dict):
            raise BadQuery("body", f"expected an object, got {body!r:.80}")
        unknown = set(body) - _BODY_KEYS
        if unknown:
            raise UnsupportedQuery(sorted(unknown)[0])
        _check_shapes(body)
        compiler = self._compiler(index)
        where = compiler.compile(body.get("query"))
        response: Response = {
            "took": 0,
            "timed_out": False,
            "_shards": {"total": 1, "successful": 1, "skipped": 0, "failed": 0},
            "hits": self._hits(index, body, compiler, where),
        }
        aggs = body.get("aggs", body.get("aggregations"))
        if aggs:
            aggregator = Aggregator(compiler, self._run, quote(index), self.limits, self._memo)
            found = aggregator.evaluate(aggs, Scope(quote(index), where))
            results = aggregator.fill(aggs, found, ())
            run_pipelines(aggs, results)
            response["aggregations"] = self._finish(index, results)
        response["took"] = int((time.perf_counter() - started) * 1000)
        return response

    def _hits(self, index: str, body: Body, compiler: Compiler, where: Sql) -> dict[str, Any]:
        size, offset = integer(body, "search", "size", 10), integer(body, "search", "from", 0)
        if size + offset > self.limits.max_hits:
            raise GuardrailViolation(
                f"from + size = {size + offset:,} is over the cap of {self.limits.max_hits:,} hits"
            )
        keys = sort_keys(compiler, body.get("sort"))
        total = self._total(index, where, body.get("track_total_hits", 10_000))
        if size <= 0:
            return (
                {"total": total, "max_score": None, "hits": []}
                if total
                else {"max_score": None, "hits": []}
            )
        condition = where
        if body.get("search_after") is not None:
            after = search_after_sql(keys, body["search_after"])
            condition = Sql(f"({where.text}) AND {after.text}", [*where.params, *after.params])
        order = ", ".join([k.order_sql() for k in keys] + ["_seq ASC"])
        rule = source_filter(body.get("_source"))
        names = source_columns(list(self._mapping(index).get("properties", {})), rule)
        columns = ", ".join(["_id", *(k.expr for k in keys), *(quote(n) for n in names)])
        sql = (
            f"SELECT {columns} FROM {quote(index)} WHERE {condition.text} "
            f"ORDER BY {order} LIMIT {size} OFFSET {offset}"
        )
        hits = []
        for row in self._run(sql, condition.params):
            hit: dict[str, Any] = {"_index": index, "_id": row[0], "_score": None if keys else 1.0}
            if rule is not None:
                hit["_source"] = {
                    n: json_value(v) for n, v in zip(names, row[1 + len(keys) :], strict=True)
                }
            if keys:
                hit["sort"] = [
                    k.sort_value(v) for k, v in zip(keys, row[1 : 1 + len(keys)], strict=True)
                ]
            hits.append(hit)
        max_score = 1.0 if hits and not keys else None  # a sorted search has no scores
        result: dict[str, Any] = {"max_score": max_score, "hits": hits}
        return {"total": total, **result} if total else result

    def _total(self, index: str, where: Sql, track: Any) -> dict[str, Any] | None:
        if track is False:
            return None
        tracked = {} if track is None else {"track_total_hits": track}
        limit = None if track is True else integer(tracked, "search", "track_total_hits", 10_000)
        count_sql = f"SELECT count(*) FROM {quote(index)} WHERE {where.text}"
        # an unfiltered count(*) is read from the table's statistics
        if limit is not None and where.text != TRUE:
            count_sql = (
                f"SELECT count(*) FROM (SELECT 1 FROM {quote(index)} WHERE {where.text} LIMIT "
                f"{limit + 1})"
            )
        count = int(self._run(count_sql, where.params)[0][0])
        if limit is not None and count > limit:
            return {"value": limit, "relation": "gte"}
        return {"value": count, "relation": "eq"}

    def fetch_sources(
        self, index: str, seqs: list[int], names: list[str] | None = None
    ) -> dict[int, dict[str, Any]]:
        """_source documents (plus `_id`) by load position: every mapped column, or only `names`."""
        if not seqs:
            return {}
        names = list(self._mapping(index).get("properties", {})) if names is None else names
        select = (
            f"SELECT {', '.join(['_seq', '_id', *(quote(n) for n in names)])} FROM {quote(index)}"
        )
        # `_seq = n` is a filter inside the scan, which reads only the rows it keeps
        if len(seqs) <= _FEW:
            # (written as int literals, which DuckDB plans faster than parameters: no text of a
            # user's gets in)
            rows = self._run(
                " UNION ALL ".join(f"{select} WHERE _seq = {int(seq)}" for seq in seqs), []
            )
        # a join reads every row of every column; the positions go as one text, since DuckDB
        # converts a
        else:
            # list parameter element by element (trying to import pandas for each: 10 s for 10,000)
            rows = self._run(
                f"{select} WHERE _seq IN (SELECT unnest(string_split(?, ',')::BIGINT[]))",
                [",".join(str(int(seq)) for seq in seqs)],
            )
        return {
            r[0]: {"_id": r[1], **{n: json_value(v) for n, v in zip(names, r[2:], strict=True)}}
            for r in rows
        }

    def _finish(self, index: str, results: dict[str, Any]) -> dict[str, Any]:
        """Replace top_hits placeholders with hits, every placeholder's sources fetched in one
        query."""
        placeholders = list(_placeholders(results))
        if not placeholders:
            return results
        everything = list(self._mapping(index).get("properties", {}))
        rules = [source_filter(p["__spec__"].get("_source")) for p in placeholders]
        wanted = {n for rule in rules for n in source_columns(everything, rule)}
        seqs = sorted({seq for p in placeholders for _, seq, _ in p["__top_hits__"]["seqs"]})
        docs = self.fetch_sources(index, seqs, [n for n in everything if n in wanted])

        def walk(node: Any) -> Any:
            if isinstance(node, dict):
                if "__top_hits__" in node:
                    return _top_hits(index, node["__top_hits__"], node["__spec__"], docs)
                return {k: walk(v) for k, v in node.items()}
            if isinstance(node, list):
                return [walk(v) for v in node]
            return node

        finished: dict[str, Any] = walk(results)
        return finished


def _staged(staged: StagedRows) -> str:
    return f"{_STAGED_DB}.{quote(staged.table)}"


def _placeholders(node: Any) -> Iterator[dict[str, Any]]:
    """The top_hits placeholders in aggregation results (see Aggregator._a_top_hits)."""
    if isinstance(node, dict):
        if "__top_hits__" in node:
            yield node
            return
        for value in node.values():
            yield from _placeholders(value)
    elif isinstance(node, list):
        for value in node:
            yield from _placeholders(value)


def _top_hits(
    index: str, found: dict[str, Any], spec: dict[str, Any], docs: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    rule = source_filter(spec.get("_source"))
    sorted_by = bool(spec.get("sort"))
    hits = []
    # every fetched document has the same fields: the rule is matched once
    kept: list[str] | None = None
    for doc_id, seq, sort_values in found["seqs"]:
        hit: dict[str, Any] = {"_index": index, "_id": doc_id, "_score": None if sorted_by else 1.0}
        if rule is not None:
            kept = (
                source_columns([k for k in docs[seq] if k != "_id"], rule) if kept is None else kept
            )
            hit["_source"] = {name: docs[seq][name] for name in kept}
        if sorted_by:
            hit["sort"] = sort_values
        hits.append(hit)
    max_score = None if sorted_by else 1.0
    return {
        "hits": {
            "total": {"value": int(found["total"]), "relation": "eq"},
            "max_score": max_score,
            "hits": hits,
        }
    }
