"""Engines: where data lives, all speaking Elasticsearch query DSL."""

from bosun.engines.base import Body, Engine, Response

__all__ = ["Body", "Engine", "Response"]
