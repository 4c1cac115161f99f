"""`bosun ask` with BOSUN_UNDERSTANDING=llm against a local server speaking OpenAI's
chat-completions format.

The real path: settings → init_chat_model("openai:…") → ChatOpenAI with our base URL and key → HTTP
on 127.0.0.1. The server reads the question's tool (ModelReading) and answers it; it answers the
planner in prose (no tool call), so the rules planner takes over, visibly. The key reaches the
server and nowhere else.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from bosun.interfaces.cli.app import app
from tests.llm.chatwire import ChatWire, serving, tool_message

KEY = "sk-wire-test-7f3a9c"
HOUSTON = {
    "goals": [
        {
            "text": "How many shipments arrived in Houston last month?",
            "measures": [{"agg": "count"}],
            "filters": [{"field": "port_of_unlading", "values": ["HOUSTON"]}],
            "time": {
                "field": "arrival_date",
                "start": "2026-05-01",
                "end": "2026-05-31",
                "words": "last month",
            },
        }
    ]
}


class ChatCompletions(ChatWire):
    seen: ClassVar[list[dict[str, Any]]] = []

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        tool = body["tools"][0]["function"]["name"]
        self.seen.append(
            {
                "path": self.path,
                "auth": self.headers.get("Authorization"),
                "tool": tool,
                "model": body["model"],
            }
        )
        if tool == "ModelReading":
            return tool_message(tool, HOUSTON)
        return {"role": "assistant", "content": "Let me think about the plan."}


@pytest.fixture
def server() -> Iterator[str]:
    ChatCompletions.seen = []
    with serving(ChatCompletions) as url:
        yield url


def test_bosun_ask_through_an_openai_compatible_server(
    server: str, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in {
        "UNDERSTANDING": "llm",
        "LLM_MODEL": "openai:wire-model",
        "LLM_BASE_URL": server,
        "LLM_API_KEY": KEY,
        "DATA_DIR": str(data_dir),
    }.items():
        monkeypatch.setenv(f"BOSUN_{name}", value)
    result = CliRunner().invoke(
        app, ["ask", "How many shipments arrived in Houston last month?", "--json"]
    )
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    rules = json.loads(
        CliRunner()
        .invoke(
            app,
            ["ask", "How many shipments arrived in Houston last month?", "--json"],
            env={"BOSUN_UNDERSTANDING": "rules"},
        )
        .output
    )
    assert (
        answer["status"] == "done" and answer["results"][0]["rows"] == rules["results"][0]["rows"]
    )
    assert {s["tool"] for s in ChatCompletions.seen} == {"ModelReading", "ModelPlan"}
    assert all(
        s["auth"] == f"Bearer {KEY}" and s["path"] == "/v1/chat/completions"
        for s in ChatCompletions.seen
    )
    assert answer["tokens"]["by_node"]["f01"] == {
        "input_tokens": 900,
        "output_tokens": 60,
        "calls": 1,
    }
    assert answer["tokens"]["total"] == 960 * len(ChatCompletions.seen)
    assert any("the rules planner planned this turn" in a for a in answer["assumptions"])
    stored = b"".join(p.read_bytes() for p in data_dir.glob("*.sqlite*"))
    assert KEY not in result.output and KEY.encode() not in stored
