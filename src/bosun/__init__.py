"""Bosun: answers plain-language questions about operational data."""

__version__ = "0.1.0"
