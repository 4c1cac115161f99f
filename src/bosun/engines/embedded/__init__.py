"""The embedded engine: DuckDB answering Elasticsearch query DSL."""

from bosun.engines.embedded.engine import EmbeddedEngine

__all__ = ["EmbeddedEngine"]
