"""All of Bosun's settings: one class, read from BOSUN_* variables and a .env file."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qsl, urlparse

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bosun.errors import SettingsError

EngineKind = Literal["embedded", "elasticsearch", "opensearch"]


def _check_url(value: str | None, schemes: tuple[str, ...]) -> str | None:
    if value is None or value == "":
        return None
    parsed = urlparse(value)
    if parsed.scheme not in schemes or not (parsed.netloc or parsed.path):
        raise ValueError(
            f"expected a URL starting with {' or '.join(s + '://' for s in schemes)}, got {value!r}"
        )
    return value


_USERINFO = re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.-]*://)[^/\s@]*@")
_SECRET_PARAM = re.compile(
    r"([?&](?:[^=&\s]*(?:key|token|secret|password|passwd|pwd|auth)[^=&\s]*)=)[^&\s#]*",
    re.IGNORECASE,
)


def redacted(text: str) -> str:
    """`text` with the user-info of every URL in it (user:password@, token@) and secret query values
    masked.

    Applied to any message that may quote a URL; the user name goes too, as a bare `token@` is the
    secret.
    """
    return _SECRET_PARAM.sub(r"\1***", _USERINFO.sub(r"\1***@", text))


def scrub(text: str, secrets: Iterable[str]) -> str:
    """`text` with URLs redacted and every known secret value replaced by asterisks."""
    for secret in secrets:
        text = text.replace(secret, "***")
    return redacted(text)


class Settings(BaseSettings):
    """Bosun's configuration. Every field can be set as BOSUN_<FIELD> or in .env."""

    model_config = SettingsConfigDict(env_prefix="BOSUN_", env_file=".env", extra="ignore")

    data_dir: Path = Field(
        Path(".bosun"), description="where the embedded engine, checkpoints and vectors live"
    )
    catalog: Path | None = Field(
        None, description="catalog YAML; default: the bundled maritime sample"
    )

    engine: EngineKind = Field("embedded", description="embedded | elasticsearch | opensearch")
    engine_url: str | None = Field(None, description="cluster URL for elasticsearch / opensearch")
    engine_username: str | None = None
    engine_password: SecretStr | None = None
    engine_api_key: SecretStr | None = None
    engine_verify_certs: bool = True
    engine_auth: Literal["service", "caller"] = Field(
        "service",
        description="service: every query runs with the credentials above | caller: the API and MCP over "
        "HTTP run each request's queries with the caller's own (header "
        "X-Bosun-Engine-Authorization), refusing a request without them",
    )
    query_timeout_s: float = Field(10.0, gt=0)
    max_result_size: int = Field(10_000, gt=0, le=10_000)
    max_buckets: int = Field(10_000, gt=0)
    engine_memory_limit: str = Field(
        "50%",
        description="embedded engine: the most memory DuckDB may use for a "
        "query or a load, as a share of the machine's (50%) or a "
        "size (2GB, 512MB)",
    )
    engine_temp_dir: Path | None = Field(
        None,
        description="embedded engine: where DuckDB spills past its memory "
        "limit; default data_dir/tmp",
    )
    max_export_rows: int = Field(
        100_000, gt=0, description="the most records one CSV export writes (said when cut)"
    )

    max_rounds: int = Field(8, ge=1, le=50)
    worker_timeout_s: float = Field(30.0, gt=0)
    turn_deadline_s: float = Field(120.0, gt=0)
    max_parallel_workers: int = Field(
        16, ge=1, description="sub-goals of one round that run at once"
    )
    ambiguity: Literal["ask", "assume"] = "ask"
    clarification_mode: Literal["end_turn", "interrupt"] = "end_turn"
    understanding: Literal["rules", "llm"] = "rules"
    memory_turns: int = Field(5, ge=0)

    checkpoint_url: str | None = Field(
        None, description="postgresql://... ; default: SQLite under data_dir"
    )
    qdrant_url: str | None = Field(
        None, description="Qdrant server for name vectors; default: local mode in memory"
    )
    embedder: Literal["hashing", "minilm"] = Field(
        "hashing",
        description="name vectors: hashing (character n-grams, no model) | minilm (semantic extra)",
    )
    graphql_url: str | None = Field(
        None, description="remote GraphQL API; default: the in-process schema"
    )
    api_token: SecretStr | None = Field(
        None, description="bearer token `bosun serve` requires; needed off loopback"
    )
    max_request_bytes: int = Field(
        1_000_000,
        gt=0,
        description="the largest HTTP request body a server reads; larger: 413 before it is read",
    )
    allowed_hosts: str = Field(
        "",
        description="host names the servers answer to besides the loopback names, "
        "comma-separated (`*.example.org` allowed); off loopback, unset = any",
    )
    max_question_chars: int = Field(
        4000, gt=0, description="the longest question Bosun reads (longer: said, not run)"
    )
    max_columns: int = Field(
        1000,
        gt=0,
        description="`data load` and `catalog init`: the most columns a file or an "
        "index may have (more: refused before reading the rows)",
    )
    load_max_json_depth: int = Field(
        100, gt=0, description="`data load`: the deepest nesting of a JSON file"
    )
    load_max_archive_bytes: int = Field(
        1_000_000_000,
        gt=0,
        description="`data load`: the most a zip archive may expand to, in bytes",
    )
    load_max_archive_members: int = Field(
        1000, gt=0, description="`data load`: the most files in a zip archive"
    )

    llm_model: str | None = Field(
        None, description="provider:model for init_chat_model, e.g. openai:gpt-4o-mini"
    )
    llm_base_url: str | None = Field(
        None, description="an OpenAI-compatible server (or Ollama) instead of the provider's own"
    )
    llm_api_key: SecretStr | None = Field(
        None, description="the model provider's key; never shown or stored"
    )
    llm_temperature: float = Field(0.0, ge=0, le=2)
    llm_timeout_s: float = Field(60.0, gt=0, description="one model call")
    llm_max_retries: int = Field(
        1, ge=0, description="the provider client's own retries of a failed request"
    )
    llm_turn_token_budget: int = Field(
        50_000, gt=0, description="input + output tokens one turn may use"
    )
    llm_raw_dsl: bool = Field(
        False,
        description="let the model add a DSL filter a Meaning cannot express "
        "(guardrails and a dry run first)",
    )

    @field_validator("engine_url", "qdrant_url", "graphql_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        return _check_url(value, ("http", "https"))

    @field_validator("engine_memory_limit")
    @classmethod
    def _memory(cls, value: str) -> str:
        memory_bytes(value)
        return value

    @field_validator("llm_base_url")
    @classmethod
    def _llm_url(cls, value: str | None) -> str | None:
        return _check_url(value, ("http", "https"))

    @field_validator("checkpoint_url")
    @classmethod
    def _pg_url(cls, value: str | None) -> str | None:
        return _check_url(value, ("postgres", "postgresql"))

    def secrets(self) -> list[str]:
        """Every secret value the settings carry (passwords, keys, URL user-info and secret
        parameters).

        Longest first, so that a secret containing another is masked whole.
        """
        found = [
            s.get_secret_value()
            for s in (self.engine_password, self.engine_api_key, self.llm_api_key)
            if s
        ]
        for url in (self.engine_url, self.checkpoint_url, self.qdrant_url, self.graphql_url):
            found += _url_secrets(url) if url else []
        return sorted({s for s in found if len(s) >= 4}, key=len, reverse=True)

    @property
    def duckdb_path(self) -> Path:
        return self.data_dir / "bosun.duckdb"

    @property
    def engine_memory_bytes(self) -> int:
        return memory_bytes(self.engine_memory_limit)

    @property
    def engine_spill_dir(self) -> Path:
        return self.engine_temp_dir or self.data_dir / "tmp"

    @property
    def checkpoint_path(self) -> Path:
        return self.data_dir / "checkpoints.sqlite"

    @property
    def turns_path(self) -> Path:
        return self.data_dir / "conversations.sqlite"


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(%|B|KB|MB|GB|TB)?\s*", re.IGNORECASE)
_UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}


def machine_memory() -> int:
    """The machine's physical memory in bytes."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def memory_bytes(text: str) -> int:
    """`50%` of the machine's memory, or a size (`2GB`, `512MB`, bytes without a unit), in bytes."""
    found = _SIZE.fullmatch(text)
    if not found or float(found.group(1)) <= 0:
        raise ValueError(f"expected a share of memory (50%) or a size (2GB, 512MB), got {text!r}")
    number, unit = float(found.group(1)), (found.group(2) or "b").lower()
    if unit == "%":
        return int(machine_memory() * min(number, 100) / 100)
    return int(number * _UNITS[unit])


def _url_secrets(url: str) -> list[str]:
    parsed = urlparse(url)
    found = (
        [parsed.password or "", parsed.username or ""] if parsed.password or parsed.username else []
    )
    found += [value for name, value in parse_qsl(parsed.query) if _SECRET_PARAM.match(f"?{name}=")]
    return found


def load_settings(**overrides: object) -> Settings:
    """Read settings; a bad value raises SettingsError with one line naming the setting."""
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        first = exc.errors()[0]
        name = "BOSUN_" + "_".join(str(p) for p in first["loc"]).upper()
        raise SettingsError(f"bad setting {name}: {first['msg']}") from None
    if settings.engine != "embedded" and not settings.engine_url:
        raise SettingsError(f"bad setting BOSUN_ENGINE_URL: engine {settings.engine!r} needs a URL")
    if settings.engine_auth == "caller" and settings.engine == "embedded":
        raise SettingsError(
            "bad setting BOSUN_ENGINE_AUTH: caller needs a cluster (BOSUN_ENGINE=elasticsearch or "
            "opensearch); the embedded engine has no users of its own"
        )
    if settings.understanding == "llm" and not settings.llm_model:
        raise SettingsError(
            "bad setting BOSUN_LLM_MODEL: BOSUN_UNDERSTANDING=llm needs a model, e.g. "
            "openai:gpt-4o-mini or ollama:llama3.1"
        )
    return settings
