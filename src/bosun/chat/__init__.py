"""Chat models, for every layer that asks one: the client (typed, checked answers) and the prompts
(data).

Understanding reads with it, the planner plans with it, workers write with it. Imported only when a
chat model is configured; LangChain itself is imported on first use.
"""

from bosun.chat.client import Asked, ChatClient, open_chat_model
from bosun.chat.prompts import Prompts, load_prompts

__all__ = ["Asked", "ChatClient", "Prompts", "load_prompts", "open_chat_model"]
