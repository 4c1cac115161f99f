"""A link asked through a session on osmem-server (an OpenSearch-compatible HTTP peer): the lookup
on the reference index and the keyed query run there, and give what a JOIN over the embedded
engine's tables gives (issue 23)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from bosun.conversation.session import open_session
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.remote import RemoteEngine
from bosun.settings import Settings


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            "TEU carried by Ocean Alliance members",
            "select sum(s.teu) from shipments s join carriers c using (carrier_name) where "
            "c.alliance = 'Ocean Alliance'",
        ),
        (
            "how many shipments came on ships built before 2010",
            "select count(*) from shipments s join vessels v using (vessel_name) where "
            "v.built_year < 2010",
        ),
    ],
)
def test_a_link_answers_on_osmem_server_as_a_join_does(
    question: str, sql: str, osmem: RemoteEngine, embedded: EmbeddedEngine, tmp_path: Path
) -> None:
    session = open_session(Settings(data_dir=tmp_path, engine="opensearch", engine_url=osmem.url))
    try:
        answer = session.ask(question, "links")
    finally:
        session.close()
    con = duckdb.connect()
    for index in ("shipments", "carriers", "vessels"):
        con.register(index, embedded.to_arrow(index))
    (result,) = answer.results
    assert result.rows == [list(row) for row in con.execute(sql).fetchall()]
    assert [s.worker for s in answer.trace.sub_goals][:3] == [
        "metadata_lookup",
        "reference_lookup",
        "es_query_gen",
    ]


def test_a_grouping_by_a_linked_attribute_answers_on_osmem_server_as_a_join_does(
    osmem: RemoteEngine, embedded: EmbeddedEngine, tmp_path: Path
) -> None:
    session = open_session(Settings(data_dir=tmp_path, engine="opensearch", engine_url=osmem.url))
    try:
        answer = session.ask("TEU by alliance", "link-groups")
    finally:
        session.close()
    con = duckdb.connect()
    for index in ("shipments", "carriers"):
        con.register(index, embedded.to_arrow(index))
    sql = (
        "select c.alliance, sum(s.teu) t from shipments s join carriers c using (carrier_name) "
        "where c.alliance is not null group by 1 order by t desc"
    )
    (result,) = answer.results
    assert result.rows == [list(row) for row in con.execute(sql).fetchall()]
    assert "filters" in str(result.query)
