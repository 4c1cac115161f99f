"""Open the engine the settings name: embedded by default, a cluster by configuration."""

from __future__ import annotations

from bosun.engines.base import Engine
from bosun.engines.graphql.client import LocalGraph, RemoteGraph
from bosun.engines.graphql.objects import GraphObject, ObjectSource
from bosun.settings import Settings


def open_engine(settings: Settings, *, read_only: bool = True) -> Engine:
    """The configured engine; `read_only=False` only for loading data."""
    if settings.engine == "embedded":
        from bosun.engines.embedded import EmbeddedEngine
        from bosun.engines.embedded.aggs import Limits
        from bosun.engines.embedded.memory import Memory

        path = settings.duckdb_path
        if read_only and not path.exists():
            from bosun.errors import MissingIndex

            raise MissingIndex(
                f"no data in {path}: load your data with `bosun data load FILE`, or build the "
                "sample "
                "with `bosun data generate`"
            )
        return EmbeddedEngine(
            path,
            read_only=read_only,
            limits=Limits(settings.max_buckets, settings.max_result_size),
            memory=Memory(settings.engine_memory_bytes, settings.engine_spill_dir),
        )
    from bosun.engines.remote import open_remote

    return open_remote(settings)


def open_object_source(
    settings: Settings, objects: list[GraphObject], engine: Engine
) -> ObjectSource:
    """Single business objects: the remote GraphQL API when a URL is set, else the in-process
    schema."""
    if settings.graphql_url:
        return RemoteGraph(settings.graphql_url, settings.query_timeout_s)
    return LocalGraph(objects, engine)
