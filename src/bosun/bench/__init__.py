"""Benchmarks that print figures: `python -m bosun.bench NAME` (engines, fanout, ...)."""
