"""The understanding backend the settings choose (`BOSUN_UNDERSTANDING`): rules now; the LLM backend plugs in here."""

from __future__ import annotations

from bosun.catalog import Catalog
from bosun.errors import SettingsError
from bosun.settings import Settings
from bosun.understanding.rules import RulesUnderstanding
from bosun.understanding.vectors import name_vectors, open_embedder


def open_understanding(settings: Settings, catalog: Catalog) -> RulesUnderstanding:
    """The configured backend over the catalog, with its name vectors (the third stage of name resolution)."""
    if settings.understanding != "rules":
        raise SettingsError(f"BOSUN_UNDERSTANDING={settings.understanding}: this backend is not available yet; "
                            "use rules")
    understanding = RulesUnderstanding(catalog)
    understanding.vectors = name_vectors(understanding.index, open_embedder(settings.embedder), settings.qdrant_url)
    return understanding
