import pytest

from bosun.errors import SettingsError
from bosun.settings import load_settings


def test_defaults_are_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BOSUN_ENGINE", "BOSUN_ENGINE_URL", "BOSUN_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings()
    assert settings.engine == "embedded"
    assert str(settings.data_dir) == ".bosun"


def test_unknown_engine_kind_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOSUN_ENGINE", "mongodb")
    with pytest.raises(SettingsError) as info:
        load_settings()
    assert "BOSUN_ENGINE" in str(info.value)
    assert "\n" not in str(info.value)


def test_malformed_url_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOSUN_ENGINE", "opensearch")
    monkeypatch.setenv("BOSUN_ENGINE_URL", "localhost:9200")
    with pytest.raises(SettingsError, match="BOSUN_ENGINE_URL"):
        load_settings()


def test_cluster_engine_needs_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOSUN_ENGINE", "elasticsearch")
    monkeypatch.delenv("BOSUN_ENGINE_URL", raising=False)
    with pytest.raises(SettingsError, match="needs a URL"):
        load_settings()
