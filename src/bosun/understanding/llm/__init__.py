"""The LLM backend of understanding, and the chat client the planner and writers share (`BOSUN_UNDERSTANDING=llm`).

Imported only when the llm backend is configured; LangChain itself is imported on first use.
"""

from __future__ import annotations

from bosun.ledger import Ledger, TurnTokens, Usage, charged
from bosun.understanding.llm.backend import LLMUnderstanding
from bosun.understanding.llm.chat import Asked, ChatClient, open_chat_model

__all__ = ["Asked", "ChatClient", "LLMUnderstanding", "Ledger", "TurnTokens", "Usage", "charged", "open_chat_model"]
