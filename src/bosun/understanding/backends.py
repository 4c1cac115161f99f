"""The understanding backend the settings choose (`BOSUN_UNDERSTANDING`): rules, or a chat model
over them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bosun.catalog import Catalog
from bosun.settings import Settings
from bosun.understanding.rules import RulesUnderstanding
from bosun.understanding.vectors import name_vectors, open_embedder

if TYPE_CHECKING:
    from bosun.understanding.llm.backend import LLMUnderstanding


def open_understanding(
    settings: Settings, catalog: Catalog
) -> RulesUnderstanding | LLMUnderstanding:
    """The configured backend over the catalog, with its name vectors (the third stage of name
    resolution)."""
    understanding = RulesUnderstanding(catalog)
    understanding.vectors = name_vectors(
        understanding.index, open_embedder(settings.embedder), settings.qdrant_url
    )
    if settings.understanding == "rules":
        return understanding
    from bosun.chat import ChatClient

    # LangChain is imported only on this path
    from bosun.understanding.llm.backend import LLMUnderstanding

    return LLMUnderstanding(ChatClient.from_settings(settings), understanding)
