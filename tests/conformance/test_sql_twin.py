"""Each corpus query's `sql`, hand-written DuckDB SQL over the same tables, gives the rows of the
DSL's answer.

The pair is what `python -m bosun.bench engines --vs-sql` times: the DSL's distance from DuckDB's
own speed.
"""

from __future__ import annotations

from typing import Any

import pytest

from bosun.bench.sqlrows import differences, normalized, response_rows, responses
from bosun.engines.embedded import EmbeddedEngine
from tests.conformance.test_conformance import CORPUS


def sql_rows(engine: EmbeddedEngine, sql: str | list[str]) -> list[tuple[Any, ...]]:
    statements = [sql] if isinstance(sql, str) else sql
    return normalized([row for statement in statements for row in engine.sql(statement)])


@pytest.mark.parametrize("entry", [pytest.param(e, id=e["id"]) for e in CORPUS if "sql" in e])
def test_sql_gives_the_rows_of_the_dsl(entry: dict[str, Any], embedded: EmbeddedEngine) -> None:
    expected = response_rows(entry, responses(embedded, entry))
    wrong = differences(
        expected, sql_rows(embedded, entry["sql"]), float(entry.get("tolerance", 1e-9))
    )
    assert not wrong, "\n".join(wrong[:10])


def test_every_corpus_query_has_its_twin() -> None:
    assert [e["id"] for e in CORPUS if "sql" not in e] == []
