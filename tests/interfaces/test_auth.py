"""Off loopback a token is required, and then every data request bears it (`bosun serve`, `serve
graphql`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from bosun.errors import SettingsError
from bosun.interfaces.api.app import PUBLIC_PATHS, create_app
from bosun.interfaces.auth import bears, is_loopback, required_token, served_hosts
from bosun.interfaces.cli.serve_cmd import guarded
from tests.conftest import sample_session
from tests.interfaces.serving import bosun_serve, data_copy


def test_the_rule() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.8.0.3", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "10.0.0.5", "example.org", "::"))
    assert (
        required_token("127.0.0.1", None) is None
        and required_token("0.0.0.0", "s3cret") == "s3cret"
    )
    with pytest.raises(SettingsError, match="BOSUN_API_TOKEN"):
        required_token("0.0.0.0", None)
    assert bears("Bearer s3cret", "s3cret") and bears("bearer s3cret", "s3cret")
    assert not any(
        bears(h, "s3cret") for h in (None, "", "Bearer s3cre", "Basic s3cret", "Bearer s3cret2")
    )


@pytest.mark.parametrize("command", [["serve"], ["serve", "graphql"]])
def test_off_loopback_without_a_token_does_not_start(command: list[str], tmp_path: Path) -> None:
    env = {"BOSUN_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "bosun.interfaces.cli", *command, "--host", "0.0.0.0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        done.returncode == 2 and "BOSUN_API_TOKEN" in done.stderr and "Traceback" not in done.stderr
    )


def test_with_a_token_every_data_request_bears_it(data_dir: Path, tmp_path: Path) -> None:
    good, bad = {"Authorization": "Bearer s3cret"}, {"Authorization": "Bearer wrong"}
    with bosun_serve(data_copy(data_dir, tmp_path / "d"), BOSUN_API_TOKEN="s3cret") as base:
        for path in ("/threads", "/catalog", "/health"):
            refused = httpx.get(base + path)
            assert refused.status_code == 401 and refused.json()["error"] == "unauthorized"
            assert httpx.get(base + path, headers=bad).status_code == 401
            assert httpx.get(base + path, headers=good).status_code == 200
        assert httpx.post(f"{base}/graphql", json={"query": "{__typename}"}).status_code == 401
        assert (
            httpx.post(f"{base}/graphql", json={"query": "{__typename}"}, headers=good).status_code
            == 200
        )
        # the page itself holds no data; it asks for the token
        assert httpx.get(base + "/").status_code == 200


def test_on_loopback_only_the_served_host_names_are_answered(
    data_dir: Path, tmp_path: Path
) -> None:
    """DNS rebinding: a page at evil.example whose name comes to point at 127.0.0.1 gets a 400, not
    the threads."""
    with bosun_serve(
        data_copy(data_dir, tmp_path / "d"), BOSUN_ALLOWED_HOSTS="bosun.internal, *.corp.example"
    ) as base:
        port = base.rsplit(":", 1)[1]
        for host in (
            "evil.example",
            f"evil.example:{port}",
            "127.0.0.1.evil.example",
            "corp.example",
        ):
            for path in ("/threads", "/graphql", "/mcp"):
                refused = httpx.get(base + path, headers={"Host": host})
                assert refused.status_code == 400, (host, path)
        for host in (
            "localhost",
            f"localhost:{port}",
            f"127.0.0.1:{port}",
            f"[::1]:{port}",
            "bosun.internal",
            f"bosun.internal:{port}",
            f"a.corp.example:{port}",
        ):
            assert httpx.get(base + "/threads", headers={"Host": host}).status_code == 200, host
        mcp = httpx.post(
            base + "/mcp",
            headers={
                "Host": f"bosun.internal:{port}",
                "Accept": "application/json, text/event-stream",
            },
            json={
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "t", "version": "1"},
                },
            },
        )
        assert mcp.status_code == 200  # MCP's own Host check answers to the same names


def test_the_host_names_served() -> None:
    assert served_hosts("127.0.0.1", "") == ["127.0.0.1", "localhost", "[::1]"]
    assert served_hosts("::1", "Bosun.Internal") == [
        "127.0.0.1",
        "localhost",
        "[::1]",
        "bosun.internal",
    ]
    assert served_hosts("0.0.0.0", "") == ["*"]  # off loopback, unset: the token guards
    assert served_hosts("0.0.0.0", "bi.example.org") == ["bi.example.org"]


def test_mcp_answers_to_a_host_name_in_any_case_as_the_rest_does(
    data_dir: Path, tmp_path: Path
) -> None:
    """Host names are case-insensitive: `Host: LOCALHOST` reaches MCP as it reaches the API."""
    for session in sample_session(data_dir, tmp_path):
        settings = session.context.settings
        served = guarded(create_app(session), None, PUBLIC_PATHS, settings, "127.0.0.1")
        with TestClient(served, base_url="http://LOCALHOST:8765") as client:  # MCP's lifespan
            for host in ("LOCALHOST", "LocalHost:8765", "127.0.0.1"):
                assert client.get("/threads", headers={"Host": host}).status_code == 200, host
                initialized = client.post(
                    "/mcp", headers={"Host": host, **MCP_HEADERS}, json=INITIALIZE
                )
                assert initialized.status_code == 200, (host, initialized.text)
            assert client.get("/threads", headers={"Host": "EVIL.example"}).status_code == 400


MCP_HEADERS = {"Accept": "application/json, text/event-stream"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
