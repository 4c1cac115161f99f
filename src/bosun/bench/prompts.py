"""`python -m bosun.bench prompts`: the size of every prompt the llm backend sends, at each data
size.

The questions of an evaluation file run through the whole graph with BOSUN_UNDERSTANDING=llm over a
recording chat model that answers in prose (no tool call), so every node sends its prompt, is
refused, retries, and the rules answer: each node's prompt is built from the real catalog, the
candidates and the real results at that size. Prompt sizes are in characters, and in tokens
estimated at four characters each (no tokenizer ships offline). Needs the llm extra.
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from bosun.bench.questions import question_set, sample
from bosun.chat import client as chat
from bosun.chat import load_prompts
from bosun.conversation.session import open_session
from bosun.settings import Settings

CHARS_PER_TOKEN = 4


def _recording_model(sizes: dict[str, list[int]]) -> Any:
    """A chat model that keeps each prompt's size by the prompt it is (prompts.yaml), and answers in
    prose."""
    openings = {entry.system[:40]: name for name, entry in load_prompts().entries.items()}
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
    from langchain_core.messages import AIMessage, BaseMessage
    from langchain_core.outputs import ChatGeneration, ChatResult

    class Recording(FakeMessagesListChatModel):
        tool: str = ""

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self.model_copy(update={"tool": tools[0].__name__})

        def _generate(
            self,
            messages: list[BaseMessage],
            stop: Any = None,
            run_manager: Any = None,
            **kwargs: Any,
        ) -> ChatResult:
            prompt = openings.get(str(messages[0].content)[:40], self.tool)
            sizes[prompt].append(sum(len(str(m.content)) for m in messages))
            return ChatResult(
                generations=[ChatGeneration(message=AIMessage(content="no tool call"))]
            )

    return Recording(responses=[])


def run(rows: int, questions: list[list[str]], folder: Path) -> dict[str, list[int]]:
    data = sample(rows, folder)
    sizes: dict[str, list[int]] = defaultdict(list)
    original = chat.open_chat_model
    chat.open_chat_model = lambda settings: _recording_model(sizes)
    try:
        session = open_session(
            Settings(data_dir=data, understanding="llm", llm_model="openai:recording")
        )
        for i, turns in enumerate(questions):
            for turn in turns:
                session.ask(turn, f"prompts-{i}")
        session.close()
    finally:
        chat.open_chat_model = original
    return sizes


def main(argv: list[str]) -> int:
    file, questions, sizes_asked = question_set("python -m bosun.bench prompts", __doc__, argv)
    print(
        f"prompt sizes over the {len(questions)} questions of {file.name}, largest per node "
        f"(characters; tokens ≈ characters / {CHARS_PER_TOKEN}):"
    )
    with tempfile.TemporaryDirectory() as folder:
        for rows in sizes_asked:
            sizes = run(rows, questions, Path(folder))
            print(f"  {rows:>9,} rows:")
            for prompt, found in sorted(sizes.items()):
                print(
                    f"    {prompt:<9} {max(found):>7,} characters ≈ "
                    f"{max(found) // CHARS_PER_TOKEN:>6,} tokens "
                    f"({len(found)} calls)"
                )
    return 0
