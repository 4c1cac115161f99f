"""The records of a search a page at a time, each page continuing from a cursor: what `/records`
serves the web page's pager.

A page is one search, whatever its depth: the search's sort, made stable by the record's id field
(or `_doc` without one) after it, continues from the sort values of the page before
(`search_after`), so page 50 costs what page 1 does; skipping by `from` cost every record before
the page. On a cluster the pages read one point in time, opened with the first page and released
with the last (one that expired meanwhile is opened again, the paging going on from the same sort
values); the embedded engine, which has none, pages by search_after alone. The cursor is opaque to
clients: the sort values to continue from, the point in time, and a digest of the search it
belongs to, so that it cannot continue another.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from bosun.engines.base import Body, Engine
from bosun.engines.params import listed
from bosun.errors import MissingIndex, UserError
from bosun.interfaces.deadline import Deadline

KEEP_ALIVE = "2m"  # a point in time outlives each page by this much: time to read the page
# what the paging itself sets: the search's own are dropped
PAGING_KEYS = ("from", "size", "search_after", "track_total_hits", "pit")
SortValue = str | int | float | bool | None


class Cursor(BaseModel):
    """What a cursor holds, once decoded."""

    after: list[SortValue] = Field(min_length=1, max_length=40)
    pit: str | None = Field(None, max_length=4096)
    search: str = Field(max_length=64, description="the digest of the search it continues")


@dataclass(frozen=True)
class PageRequest:
    """One page asked for: the search (an answer's `query`), how many records, from where."""

    index: str
    query: Body
    limit: int
    offset: int = 0
    cursor: str | None = None
    columns: tuple[str, ...] = ()


@dataclass(frozen=True)
class Page:
    records: list[dict[str, Any]]
    cursor: str | None  # the next page's, or None after the last


def read_page(engine: Engine, asked: PageRequest, id_field: str | None, deadline: Deadline) -> Page:
    """One page of the search's records in its order, within the request's deadline."""
    body = paged_body(asked.query, id_field, asked.columns)
    digest = search_digest(asked.index, body)
    cursor = decode(asked.cursor, digest) if asked.cursor else None
    pit = cursor.pit if cursor else engine.open_point_in_time(asked.index, KEEP_ALIVE)
    body |= {"size": asked.limit, "track_total_hits": False}
    if cursor is not None:
        body["search_after"] = cursor.after
    elif asked.offset:
        body["from"] = asked.offset
    deadline.check()
    hits, pit = _search(engine, asked.index, body, pit)
    deadline.check()
    if len(hits) < asked.limit:
        if pit is not None:
            engine.close_point_in_time(pit)
        return Page([hit.get("_source", {}) for hit in hits], None)
    following = Cursor(after=hits[-1]["sort"], pit=pit, search=digest)
    return Page([hit.get("_source", {}) for hit in hits], encode(following))


def paged_body(query: Body, id_field: str | None, columns: tuple[str, ...]) -> Body:
    """The search without its own paging, its sort made stable, its `_source` the columns asked.

    A search that aggregates is refused: its rows are all in its answer already.
    """
    if any(key in query for key in ("aggs", "aggregations")):
        raise UserError(
            "only a list of records can be paged or exported; an aggregation's rows are all in its "
            "answer"
        )
    body = {key: value for key, value in query.items() if key not in PAGING_KEYS}
    body["sort"] = stable_sort(body.get("sort"), id_field)
    if columns:
        body["_source"] = list(columns)
    return body


def stable_sort(sort: Any, id_field: str | None) -> list[Any]:
    """The sort with the record's id field after it (ascending), so that no two records tie; `_doc`
    when the record has none (unique in the embedded engine and on a one-shard index)."""
    items = listed(sort)
    last = id_field or "_doc"
    named = {item if isinstance(item, str) else next(iter(item), None) for item in items}
    return items if last in named else [*items, {last: "asc"}]


def search_digest(index: str, body: Body) -> str:
    """A digest of the index and the search, which a cursor carries to be used with no other."""
    text = json.dumps([index, body], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def encode(cursor: Cursor) -> str:
    text = cursor.model_dump_json(exclude_none=True)
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode(text: str, digest: str) -> Cursor:
    """The cursor a page gave, for the same search; anything else is a UserError in one line."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        cursor = Cursor.model_validate_json(raw)
    except (binascii.Error, ValueError, ValidationError):
        raise UserError("cursor: not a cursor a page of records gave") from None
    if cursor.search != digest:
        raise UserError("cursor: it continues another search; ask its first page again")
    return cursor


def _search(
    engine: Engine, index: str, body: Body, pit: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """The page's hits and the point in time to continue in (the cluster may give a new id).

    A point in time that expired between pages is opened again, once: the sort values carry the
    paging on.
    """
    if pit is None:
        return engine.search(index, body)["hits"]["hits"], None
    try:
        found = engine.search(index, {**body, "pit": {"id": pit, "keep_alive": KEEP_ALIVE}})
    except MissingIndex:
        pit = engine.open_point_in_time(index, KEEP_ALIVE)
        if pit is None:
            return engine.search(index, body)["hits"]["hits"], None
        found = engine.search(index, {**body, "pit": {"id": pit, "keep_alive": KEEP_ALIVE}})
    renewed = found.get("pit_id")
    return found["hits"]["hits"], renewed if isinstance(renewed, str) else pit
