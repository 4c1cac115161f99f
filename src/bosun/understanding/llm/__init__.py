"""The LLM backend of understanding (`BOSUN_UNDERSTANDING=llm`): a chat model fills the turn's
Reading.

Imported only when the llm backend is configured; LangChain itself is imported on first use.
"""

from __future__ import annotations

from bosun.understanding.llm.backend import LLMUnderstanding

__all__ = ["LLMUnderstanding"]
