from __future__ import annotations

import subprocess
import sys

import pytest

from bosun.engines.remote import RemoteEngine
from bosun.errors import EngineUnavailable, MissingIndex

DOWN = "http://127.0.0.1:9"  # the discard port: nothing listens there


def test_unreachable_cluster_is_one_line_naming_the_url() -> None:
    engine = RemoteEngine("opensearch", DOWN, timeout_s=2)
    with pytest.raises(EngineUnavailable, match=f"cannot reach the opensearch engine at {DOWN}"):
        engine.search("shipments", {})


def test_cli_reports_an_unreachable_cluster_without_traceback(tmp_path: object) -> None:
    env = {
        "BOSUN_ENGINE": "elasticsearch",
        "BOSUN_ENGINE_URL": DOWN,
        "BOSUN_QUERY_TIMEOUT_S": "2",
        "PATH": "",
        "HOME": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-m", "bosun.interfaces.cli", "data", "export", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == f"bosun: cannot reach the elasticsearch engine at {DOWN}"


def test_missing_index_on_a_live_server() -> None:
    from osmem_server import OsmemServer

    with (
        OsmemServer.start(japanese=False) as server,
        pytest.raises(MissingIndex, match="no such index"),
    ):
        RemoteEngine("opensearch", server.url).search("nope", {})
