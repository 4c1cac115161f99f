"""A secret planted in every setting that carries one never appears in any output or any file
written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bosun.settings import Settings, redacted, scrub
from tests.reliability.badserver import wrong_server
from tests.reliability.conftest import bosun

SECRETS = {
    "engine_url": "EngineUrlPw7",
    "engine_password": "EnginePassword7",
    "engine_api_key": "EngineApiKey7",
    "qdrant_url": "QdrantPw7",
    "graphql_url": "GraphqlPw7",
    "graphql_token": "GraphqlToken7",
    "llm_api_key": "LlmApiKey7",
    "checkpoint_url": "PostgresPw7",
}


def _environment(engine_url: str, auth: str) -> dict[str, str]:
    """Every secret-bearing setting filled; the engine authenticates by URL user-info, API key or
    both."""
    host = engine_url.removeprefix("http://")
    env = {
        "BOSUN_ENGINE": "elasticsearch",
        "BOSUN_ENGINE_URL": f"http://{host}",
        "BOSUN_QUERY_TIMEOUT_S": "5",
        "BOSUN_QDRANT_URL": f"http://qdrant:{SECRETS['qdrant_url']}@127.0.0.1:9",
        "BOSUN_GRAPHQL_URL": f"http://{SECRETS['graphql_token']}@127.0.0.1:9/graphql?"
        f"api_key={SECRETS['graphql_url']}",
        "BOSUN_LLM_API_KEY": SECRETS["llm_api_key"],
    }
    if auth in ("url", "both"):
        env["BOSUN_ENGINE_URL"] = f"http://bosun:{SECRETS['engine_url']}@{host}"
    if auth in ("key", "both"):
        env["BOSUN_ENGINE_API_KEY"] = SECRETS["engine_api_key"]
    if auth == "both":
        env |= {
            "BOSUN_ENGINE_USERNAME": "bosun",
            "BOSUN_ENGINE_PASSWORD": SECRETS["engine_password"],
        }
    return env


def _leaks(text: str) -> list[str]:
    return [name for name, secret in SECRETS.items() if secret in text]


def _files_leaking(folder: Path) -> dict[str, list[str]]:
    found = {}
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            leaked = [name for name, secret in SECRETS.items() if secret.encode() in data]
            if leaked:
                found[path.name] = leaked
    return found


@pytest.mark.parametrize(("mode", "auth"), [("html", "url"), ("500", "key"), ("html", "both")])
def test_no_secret_in_any_output_or_file(tmp_path: Path, mode: str, auth: str) -> None:
    with wrong_server(mode) as url:
        env = _environment(url, auth)
        outputs = [
            bosun(tmp_path, "ask", question, "--thread", "s", *flags, env=env)
            for question, flags in (
                ("How many shipments arrived in Houston in 2025?", ()),
                ("How many shipments arrived in Savannah in 2025?", ("--json",)),
                ("What flag does the MSC GULSUN fly?", ("--verbose", "--trace")),
            )
        ]
    for done in outputs:
        assert not _leaks(done.stdout + done.stderr), done.stdout + done.stderr
    # the URL is named, redacted
    assert any("127.0.0.1" in done.stdout + done.stderr for done in outputs)
    assert (tmp_path / "conversations.sqlite").exists() or any(d.returncode == 2 for d in outputs)
    assert _files_leaking(tmp_path) == {}


def test_a_postgres_url_with_a_password_is_never_shown(data_dir: Path) -> None:
    env = {
        "BOSUN_CHECKPOINT_URL": f"postgresql://bosun:{SECRETS['checkpoint_url']}@127.0.0.1:9/bosun"
    }
    for flags in ((), ("--json",)):  # with data, so that the checkpointer is the first to fail
        done = bosun(data_dir, "ask", "How many shipments?", *flags, env=env)
        assert done.returncode == 2 and "127.0.0.1" in done.stdout + done.stderr
        assert not _leaks(done.stdout + done.stderr)
    if flags:
        assert json.loads(done.stdout)["status"] == "failed"


def test_settings_list_every_secret_and_scrub_masks_them() -> None:
    settings = Settings(
        engine_url=f"http://u:{SECRETS['engine_url']}@h",
        engine_password=SECRETS["engine_password"],
        engine_api_key=SECRETS["engine_api_key"],
        llm_api_key=SECRETS["llm_api_key"],
        qdrant_url=f"http://q:{SECRETS['qdrant_url']}@h",
        graphql_url=f"http://{SECRETS['graphql_token']}@h/graphql?token={SECRETS['graphql_url']}",
        checkpoint_url=f"postgresql://p:{SECRETS['checkpoint_url']}@h/db",
    )
    assert set(SECRETS.values()) <= set(settings.secrets())
    text = (
        " ".join(f"{k}={v}" for k, v in SECRETS.items()) + f" {settings!r} {settings.model_dump()}"
    )
    assert not _leaks(scrub(text, settings.secrets()))
    assert not _leaks(repr(settings)) or _leaks(repr(settings)) == [
        "engine_url",
        "qdrant_url",
        "graphql_url",
        "graphql_token",
        "checkpoint_url",
    ]
    assert (
        redacted("see http://user:pw@host:9200/x?api_key=k1&size=3")
        == "see http://***@host:9200/x?api_key=***&size=3"
    )
