"""`BOSUN_UNDERSTANDING=llm` answers the whole dev set end to end with a scripted model (the
oracle)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bosun.interfaces.cli.app import app
from tests.llm.oracle import oracle_model

DEV = Path(__file__).parents[3] / "shared" / "eval" / "dev.jsonl"


@pytest.mark.slow
@pytest.mark.skipif(not DEV.exists(), reason="the shared dev set is not beside this checkout")
def test_the_dev_set_scores_the_same_through_the_model(dev_data_dir: Path) -> None:
    with pytest.MonkeyPatch.context() as patch, oracle_model(patch) as oracle:
        env = {
            "BOSUN_DATA_DIR": str(dev_data_dir),
            "BOSUN_UNDERSTANDING": "llm",
            "BOSUN_LLM_MODEL": "openai:scripted",
            "COLUMNS": "100",
        }
        result = CliRunner().invoke(app, ["eval", str(DEV), "--failures"], env=env)
    assert result.exit_code == 0, result.output
    overall = re.search(r"overall\s+│\s+(\d+)\s+│\s+(\d+)", result.output)
    assert overall is not None and overall.groups() == ("45", "45"), result.output
    # Every node asked the model, and no answer of it was refused (a refusal would be retried).
    assert oracle.calls["ModelReading"] >= 45 and oracle.calls["ModelPlan"] > 45 * 3
    assert oracle.calls["WrittenText"] > 0 and oracle.retries == 0
