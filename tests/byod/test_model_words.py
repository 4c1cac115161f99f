"""`bosun catalog init --llm`: a chat model (here a local server speaking OpenAI's chat-completions
format) words the draft; what it proposes is kept only where it holds against the data, and each
decision is printed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
import yaml
from typer.testing import CliRunner

from bosun.errors import SettingsError
from bosun.interfaces.cli.app import app
from tests.llm.chatwire import ChatWire, serving, tool_message

LOANS = "loan_amount,grade,state,interest_rate\n" + "".join(
    f"{1000 * (1 + i % 9)},{'ABC'[i % 3]},{('CA', 'TX', 'NY')[i % 3 - 1]},{5 + i % 7}.5\n"
    for i in range(60)
)
PROPOSED = {
    "fields": [
        {
            "field": "loan_amount",
            "description": "The amount lent to the borrower.",
            "synonyms": ["principal", "Amount  Borrowed", "grade"],
        },
        {
            "field": "grade",
            "description": "Credit grade, from `credit_score`.",
            "synonyms": ["credit grade", "rating"],
        },
        {
            "field": "state",
            "description": "The borrower's state.",
            "synonyms": ["rating", "home state"],
        },
        {"field": "borrower_age", "description": "Age.", "synonyms": ["age"]},
    ]
}


class ChatCompletions(ChatWire):
    asked: ClassVar[list[dict[str, Any]]] = []
    usage = (400, 90)

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        self.asked.append(body)
        return tool_message(body["tools"][0]["function"]["name"], PROPOSED)


@pytest.fixture
def server() -> Iterator[str]:
    ChatCompletions.asked = []
    with serving(ChatCompletions) as url:
        yield url


@pytest.fixture
def loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BOSUN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("BOSUN_CATALOG", raising=False)
    (tmp_path / "loans.csv").write_text(LOANS)
    assert CliRunner().invoke(app, ["data", "load", str(tmp_path / "loans.csv")]).exit_code == 0
    return tmp_path


def _init(folder: Path, *more: str) -> tuple[str, dict[str, Any]]:
    result = CliRunner().invoke(
        app, ["catalog", "init", "--index", "loans", "--out", str(folder / "c.yaml"), *more]
    )
    assert result.exit_code == 0, result.output
    return result.output, yaml.safe_load((folder / "c.yaml").read_text())


def test_the_models_words_are_kept_where_they_hold_and_each_decision_is_said(
    server: str, loaded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOSUN_LLM_MODEL", "openai:draft-model")
    monkeypatch.setenv("BOSUN_LLM_BASE_URL", server)
    monkeypatch.setenv("BOSUN_LLM_API_KEY", "sk-draft-test")
    said, catalog = _init(loaded, "--llm")
    fields = catalog["objects"]["loans"]["fields"]
    assert fields["loan_amount"]["description"] == "The amount lent to the borrower."
    assert {"principal", "amount borrowed"} <= set(fields["loan_amount"]["synonyms"])
    assert "--llm loan_amount: synonym 'grade' refused, it already names field grade" in said
    assert "--llm grade: description refused, it names credit_score, no field of the data" in said
    assert fields["grade"]["description"] != "Credit grade, from `credit_score`."
    assert "rating" not in fields["grade"]["synonyms"] + fields["state"]["synonyms"]
    assert "--llm state: synonym 'rating' refused, proposed for another field too" in said
    assert "home state" in fields["state"]["synonyms"]
    assert "--llm borrower_age: refused, no such field" in said
    prompt = ChatCompletions.asked[0]["messages"][-1]["content"]
    assert "- loan_amount (" in prompt and "- interest_rate (" in prompt

    monkeypatch.setenv("BOSUN_CATALOG", str(loaded / "c.yaml"))
    monkeypatch.setenv("BOSUN_UNDERSTANDING", "rules")
    asked = CliRunner().invoke(app, ["ask", "What is the total principal?", "--json"])
    answer = json.loads(asked.output)
    assert answer["results"][0]["rows"] == [[sum(1000 * (1 + i % 9) for i in range(60))]], answer[
        "answer"
    ]


def test_the_offline_draft_asks_no_model(
    server: str, loaded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOSUN_LLM_MODEL", "openai:draft-model")
    monkeypatch.setenv("BOSUN_LLM_BASE_URL", server)
    said, catalog = _init(loaded)
    assert ChatCompletions.asked == [] and "--llm" not in said
    assert "principal" not in catalog["objects"]["loans"]["fields"]["loan_amount"]["synonyms"]


def test_llm_without_a_model_is_one_line(loaded: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOSUN_LLM_MODEL", raising=False)
    result = CliRunner().invoke(app, ["catalog", "init", "--index", "loans", "--llm"])
    # the command prints it in one line
    assert result.exit_code != 0 and isinstance(result.exception, SettingsError)
    assert str(result.exception) == (
        "catalog init --llm needs a chat model: set BOSUN_LLM_MODEL (and "
        "BOSUN_LLM_BASE_URL for a local server)"
    )
