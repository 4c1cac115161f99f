"""Paging by cursor (`/records`' pages) gives the same records in the same order on the embedded
engine (search_after alone) and on osmem-server (search_after in a point in time), missing values
and ties included: a sort on a keyword with nulls, on booleans, on numbers, with `missing: _first`.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pytest

from bosun.engines.base import Engine
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.remote import RemoteEngine
from bosun.interfaces.api.paging import PageRequest, decode, read_page, search_digest
from bosun.interfaces.deadline import Deadline

INDEX = "paged"
MAPPING = {
    "properties": {
        "id": {"type": "keyword"},
        "kw": {"type": "keyword"},
        "num": {"type": "integer"},
        "flag": {"type": "boolean"},
    }
}
SORTS = [
    [],
    [{"kw": "asc"}],
    [{"kw": "desc"}],
    [{"kw": {"order": "asc", "missing": "_first"}}],
    [{"flag": "desc"}],
    [{"num": "asc"}, {"kw": "desc"}],
    [{"num": {"order": "desc", "missing": "_first"}}],
]


def _rows() -> pa.Table:
    rows = [
        {
            "id": f"r{n:02d}",
            "kw": [None, "a", "b", "a", None, "c"][n % 6],
            "num": [None, 1, 2, 2, 3][n % 5],
            "flag": [True, False, None][n % 3],
        }
        for n in range(23)
    ]
    schema = pa.schema(
        [("id", pa.string()), ("kw", pa.string()), ("num", pa.int32()), ("flag", pa.bool_())]
    )
    return pa.Table.from_pylist(rows, schema=schema)


@pytest.fixture(scope="module")
def engines(embedded: EmbeddedEngine, osmem: RemoteEngine) -> dict[str, Engine]:
    for engine in (embedded, osmem):
        engine.bulk_load(INDEX, _rows(), MAPPING, "id")
    return {"embedded": embedded, "osmem": osmem}


def _paged(engine: Engine, sort: list[Any], limit: int) -> tuple[list[str], list[str | None]]:
    """Every record's id, page after page, and each page's point in time (None: none)."""
    ids: list[str] = []
    pits: list[str | None] = []
    asked = PageRequest(INDEX, {"sort": sort}, limit)
    while True:
        page = read_page(engine, asked, "id", Deadline(60))
        ids += [record["id"] for record in page.records]
        if page.cursor is None:
            return ids, pits
        digest = search_digest(INDEX, {"sort": [*sort, {"id": "asc"}]})
        pits.append(decode(page.cursor, digest).pit)
        asked = PageRequest(INDEX, {"sort": sort}, limit, cursor=page.cursor)


def _whole(engine: Engine, sort: list[Any]) -> list[tuple[str, list[Any]]]:
    body = {"size": 100, "sort": [*sort, {"id": "asc"}], "_source": ["id"]}
    return [
        (hit["_source"]["id"], hit["sort"]) for hit in engine.search(INDEX, body)["hits"]["hits"]
    ]


@pytest.mark.parametrize("sort", SORTS, ids=[str(sort) for sort in SORTS])
def test_pages_give_every_record_once_in_the_order_of_one_search(
    engines: dict[str, Engine], sort: list[Any]
) -> None:
    whole = {name: _whole(engine, sort) for name, engine in engines.items()}
    assert whole["embedded"] == whole["osmem"]  # the sort values too: null, bounds, 0 and 1
    order = [record_id for record_id, _ in whole["osmem"]]
    for name, engine in engines.items():
        for limit in (1, 3, 23):
            assert _paged(engine, sort, limit)[0] == order, (name, limit)


def test_a_cluster_pages_in_one_point_in_time_released_after_the_last_page(
    engines: dict[str, Engine], osmem: RemoteEngine
) -> None:
    _, pits = _paged(engines["osmem"], [{"kw": "asc"}], 5)
    assert len(pits) == 4 and None not in pits
    assert osmem._client.get_all_pits()["pits"] == []
    _, none = _paged(engines["embedded"], [{"kw": "asc"}], 5)
    assert none == [None] * 4  # the embedded engine has no points in time: search_after alone


def test_a_point_in_time_that_expired_between_pages_is_opened_again(
    engines: dict[str, Engine], osmem: RemoteEngine
) -> None:
    sort = [{"num": "asc"}]
    first = read_page(osmem, PageRequest(INDEX, {"sort": sort}, 10), "id", Deadline(60))
    assert first.cursor is not None
    pit = decode(first.cursor, search_digest(INDEX, {"sort": [*sort, {"id": "asc"}]})).pit
    assert pit is not None
    osmem.close_point_in_time(pit)
    rest = read_page(
        osmem, PageRequest(INDEX, {"sort": sort}, 20, cursor=first.cursor), "id", Deadline(60)
    )
    ids = [record["id"] for record in first.records + rest.records]
    assert rest.cursor is None and ids == [record_id for record_id, _ in _whole(osmem, sort)]
    assert osmem._client.get_all_pits()["pits"] == []
