"""`bosun demo`: build the sample domain and show what Bosun loaded."""

from __future__ import annotations


def demo() -> None:
    """Build the sample data and answer the seed's scenarios."""
    print("demo: not built yet")
