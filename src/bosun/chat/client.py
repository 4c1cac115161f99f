"""Chat models by setting (LangChain's `init_chat_model`), asked for structured answers that are
checked.

Every model answer fills a pydantic model through a tool call (`with_structured_output`), is parsed,
then checked by the caller (catalog, plan gate, figures); a refused answer gets one retry with the
problems, and after that the caller's rules answer instead. LangChain is imported here only, and
only when the llm backend is configured: the rules path never pays for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from bosun.chat.prompts import Prompts, load_prompts
from bosun.errors import ModelFailure, SettingsError
from bosun.ledger import Usage, billed
from bosun.settings import Settings

T = TypeVar("T", bound=BaseModel)
Check = Callable[[T], list[str]]
EXTRA = "pip install 'bosun-bi[llm]'"


def open_chat_model(settings: Settings) -> Any:
    """The configured chat model; a missing LangChain or provider package is one line naming the
    extra."""
    try:
        from langchain.chat_models import init_chat_model
    except ImportError:
        raise SettingsError(f"BOSUN_UNDERSTANDING=llm needs the llm extra: {EXTRA}") from None
    model = str(settings.llm_model)
    try:
        return init_chat_model(model, **_model_options(model, settings))
    except ImportError:
        raise SettingsError(
            f"BOSUN_LLM_MODEL={model}: its provider package is not installed; install the llm "
            f"extra: {EXTRA}"
        ) from None
    except ValueError as exc:
        raise SettingsError(f"bad setting BOSUN_LLM_MODEL: {str(exc).splitlines()[0]}") from None


def _model_options(model: str, settings: Settings) -> dict[str, Any]:
    """Temperature, timeout, base URL and key in the form each provider's class takes them."""
    options: dict[str, Any] = {"temperature": settings.llm_temperature}
    # ChatOllama passes its HTTP client's options through client_kwargs
    if model.startswith("ollama:"):
        options["client_kwargs"] = {"timeout": settings.llm_timeout_s}
    else:
        options |= {"timeout": settings.llm_timeout_s, "max_retries": settings.llm_max_retries}
    if settings.llm_base_url:
        options["base_url"] = settings.llm_base_url
    if settings.llm_api_key is not None:
        # a SecretStr: printed as ********** if ever shown
        options["api_key"] = settings.llm_api_key
    return options


def _call_errors() -> tuple[type[BaseException], ...]:
    """What a failed model call raises: the network, a timeout, the providers' own error classes."""
    found: list[type[BaseException]] = [OSError, TimeoutError]
    for module, name in [
        ("httpx", "HTTPError"),
        ("openai", "OpenAIError"),
        ("anthropic", "AnthropicError"),
        ("ollama", "ResponseError"),
    ]:
        try:
            found.append(getattr(__import__(module), name))
        except (ImportError, AttributeError):
            continue
    return tuple(found)


@dataclass(frozen=True)
class Asked(Generic[T]):
    """A checked model answer, or None with the problems of the last one."""

    value: T | None
    problems: list[str]


@dataclass
class ChatClient:
    """One chat model, the prompts, and the secret to keep out of every message."""

    model: Any
    prompts: Prompts
    secret: str | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> ChatClient:
        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
        return cls(open_chat_model(settings), load_prompts(), key or None)

    def ask(
        self, prompt: str, schema: type[T], values: dict[str, str], check: Check[T] | None = None
    ) -> Asked[T]:
        """The model's answer to `prompt`, parsed into `schema` and checked; one retry with the
        problems."""
        from langchain_core.messages import HumanMessage, SystemMessage

        system, human = self.prompts[prompt].render(values)
        messages: list[Any] = [SystemMessage(system), HumanMessage(human)]
        problems: list[str] = []
        for _ in range(2):
            if problems:
                messages = [*messages, HumanMessage(self.prompts.retry_message(problems))]
            value, problems = self._once(schema, messages, check)
            if not problems:
                return Asked(value, [])
        return Asked(None, problems)

    def _once(
        self, schema: type[T], messages: list[Any], check: Check[T] | None
    ) -> tuple[T | None, list[str]]:
        answered = self._invoke(schema, messages)
        parsed = answered.get("parsed")
        if answered.get("parsing_error") is not None or not isinstance(parsed, schema):
            error = answered.get("parsing_error") or "no tool call"
            return None, [
                f"the answer did not fill {schema.__name__}: {self._clean(str(error))[:300]}"
            ]
        return parsed, check(parsed) if check else []

    def _invoke(self, schema: type[T], messages: list[Any]) -> dict[str, Any]:
        charge = billed()
        if charge is not None:
            charge[0].check()
        structured = self.model.with_structured_output(
            schema, include_raw=True, method="function_calling"
        )
        try:
            answered: dict[str, Any] = structured.invoke(messages)
        except _call_errors() as exc:
            why = f"{type(exc).__name__}: {self._clean(str(exc))[:200]}"
            if charge is not None:
                charge[0].unreachable = why
            raise ModelFailure(f"the chat model failed: {why}") from None
        if charge is not None:
            charge[0].record(charge[1], _usage(answered.get("raw")))
        return answered

    def _clean(self, text: str) -> str:
        """A provider's message without the key (some echo part of a rejected key back)."""
        return text.replace(self.secret, "***") if self.secret else text


def _usage(raw: Any) -> Usage:
    """The provider's token counts for one call (`usage_metadata`); zero when it gives none."""
    metadata = getattr(raw, "usage_metadata", None) or {}
    return Usage(
        input_tokens=int(metadata.get("input_tokens", 0)),
        output_tokens=int(metadata.get("output_tokens", 0)),
        calls=1,
    )
