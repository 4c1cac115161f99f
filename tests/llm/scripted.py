"""LangChain's fake chat models, able to answer through tools, for every LLM path of Bosun.

`with_structured_output` needs `bind_tools`; LangChain's FakeMessagesListChatModel has none, so
these subclasses accept tools (and ignore them) and replay AIMessages carrying tool calls and
`usage_metadata`, as a provider's answer does. Every model call they receive is kept, for tests of
what the prompts hold.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from bosun.chat import ChatClient, load_prompts

USAGE = {"input_tokens": 120, "output_tokens": 30, "total_tokens": 150}


def tool_call(name: str, args: dict[str, Any], usage: dict[str, int] | None = None) -> AIMessage:
    """A model's answer that calls the tool `name` (a pydantic schema's class name) with `args`."""
    return AIMessage(
        content="",
        tool_calls=[{"name": name, "args": args, "id": "call_1", "type": "tool_call"}],
        usage_metadata=usage or USAGE,
    )  # type: ignore[arg-type]


def prose(text: str = "I would rather just talk.") -> AIMessage:
    """An answer with no tool call: what a model does when it ignores the schema."""
    return AIMessage(content=text, usage_metadata=USAGE)  # type: ignore[arg-type]


class ToolFakeModel(FakeMessagesListChatModel):
    """Replays `responses` in order (cycling); keeps every prompt in `seen` (shared by its bound
    copies)."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.seen.append(list(messages))
        return super()._generate(messages, stop, run_manager, **kwargs)


Script = Callable[[str, list[BaseMessage]], AIMessage]


class DispatchFakeModel(FakeMessagesListChatModel):
    """Answers by the tool it is bound to: `script(tool_name, messages)` makes the answer."""

    script: Any = None
    tool: str = ""
    seen: list[list[BaseMessage]] = Field(default_factory=list)
    responses: list[BaseMessage] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self.model_copy(update={"tool": tools[0].__name__})  # shallow: `seen` stays shared

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.seen.append(list(messages))
        return ChatResult(generations=[ChatGeneration(message=self.script(self.tool, messages))])


def client(model: Any) -> ChatClient:
    return ChatClient(model, load_prompts())
