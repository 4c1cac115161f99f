"""All of Bosun's settings: one class, read from BOSUN_* variables and a .env file.

`python -m bosun.settings` prints them as docs/configuration.md.
"""

from __future__ import annotations

import os
import re
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal, get_args, get_origin
from urllib.parse import parse_qsl, urlparse

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic.fields import FieldInfo
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
        Path(".bosun"),
        description="the folder of Bosun's own files: the embedded engine's database "
        "(bosun.duckdb), conversations and checkpoints (SQLite), thread locks, chat history",
    )
    catalog: Path | None = Field(
        None, description="the catalog YAML file; unset: the bundled maritime sample's"
    )

    engine: EngineKind = Field(
        "embedded",
        description="where the data lives: `embedded` (DuckDB, in the data folder), "
        "`elasticsearch` or `opensearch` (a cluster: needs BOSUN_ENGINE_URL and the extra of "
        "that name)",
    )
    engine_url: str | None = Field(
        None, description="the cluster's URL (http:// or https://) when BOSUN_ENGINE is a cluster"
    )
    engine_username: str | None = Field(
        None, description="the cluster user Bosun queries as, with BOSUN_ENGINE_PASSWORD"
    )
    engine_password: SecretStr | None = Field(
        None, description="that user's password; masked in every message"
    )
    engine_api_key: SecretStr | None = Field(
        None,
        description="a cluster API key, instead of a user name and password; masked in every "
        "message",
    )
    engine_verify_certs: bool = Field(
        True, description="check the cluster's TLS certificate; `false` only for a test cluster"
    )
    engine_auth: Literal["service", "caller"] = Field(
        "service",
        description="`service`: every query runs with the credentials above; `caller`: the API, "
        "GraphQL and MCP over HTTP run each request's queries with the caller's own (header "
        "X-Bosun-Engine-Authorization), refusing a request without them; needs a cluster",
    )
    query_timeout_s: float = Field(
        10.0,
        gt=0,
        description="seconds one query may take, on the engine and against a remote GraphQL API",
    )
    max_result_size: int = Field(
        10_000,
        gt=0,
        le=10_000,
        description="the most records one query returns; paging through a listing stops there",
    )
    max_buckets: int = Field(
        10_000,
        gt=0,
        description="the most aggregation buckets one query may build (as a cluster's "
        "search.max_buckets); a query needing more is refused",
    )
    engine_memory_limit: str = Field(
        "50%",
        description="embedded engine: the most memory DuckDB may use for a query or a load, as a "
        "share of the machine's (50%) or a size (2GB, 512MB)",
    )
    engine_temp_dir: Path | None = Field(
        None,
        description="embedded engine: where DuckDB spills past its memory limit; unset: tmp in "
        "the data folder",
    )
    max_export_rows: int = Field(
        100_000,
        gt=0,
        description="the most records one CSV export (POST /records.csv) writes; a longer one "
        "stops and says so",
    )

    max_rounds: int = Field(
        8,
        ge=1,
        le=50,
        description="the most planning rounds of one turn; a turn that reaches it answers with "
        "what it has and says it stopped",
    )
    worker_timeout_s: float = Field(
        30.0, gt=0, description="seconds one sub-goal's worker may take before it counts as failed"
    )
    turn_deadline_s: float = Field(
        120.0,
        gt=0,
        description="seconds one turn may take; also how long a turn waits for the turn before it "
        "on the same thread",
    )
    max_parallel_workers: int = Field(
        16, ge=1, description="sub-goals of one round that run at once"
    )
    ambiguity: Literal["ask", "assume"] = Field(
        "ask",
        description="a name with several close matches: `ask` back with the options, or "
        "`assume` the catalog's default and say so",
    )
    clarification_mode: Literal["end_turn", "interrupt"] = Field(
        "end_turn",
        description="a question back: `end_turn` ends the turn and reads the reply as the next "
        "one; `interrupt` pauses the graph and resumes it at the same node",
    )
    understanding: Literal["rules", "llm"] = Field(
        "rules",
        description="what reads questions: `rules` (offline) or `llm` (a chat model, which also "
        "plans and writes some answers: needs BOSUN_LLM_MODEL and the llm extra; the rules answer "
        "where it fails)",
    )
    memory_turns: int = Field(
        5, ge=0, description="how many earlier turns of a thread the next turn reads"
    )

    checkpoint_url: str | None = Field(
        None,
        description="a PostgreSQL URL (postgresql://...) for checkpoints, turns, marks and taught "
        "words, shared by every server (postgres extra); unset: SQLite in the data folder",
    )
    qdrant_url: str | None = Field(
        None,
        description="a Qdrant server for name vectors; unset: Qdrant's local mode, in memory in "
        "each process",
    )
    embedder: Literal["hashing", "minilm"] = Field(
        "hashing",
        description="how names become vectors: `hashing` (character n-grams, no model) or "
        "`minilm` (all-MiniLM-L6-v2: the semantic extra)",
    )
    graphql_url: str | None = Field(
        None,
        description="a remote GraphQL API for questions about one business object; unset: the "
        "schema built from the catalog, run in-process",
    )
    api_token: SecretStr | None = Field(
        None,
        description="the bearer token HTTP clients (API, page, GraphQL, MCP over HTTP) must send; "
        "required to serve off loopback",
    )
    admin_token: SecretStr | None = Field(
        None,
        description="a bearer token for administrators, accepted wherever BOSUN_API_TOKEN is: its "
        "bearer lists and reads every thread, each caller's included (BOSUN_ENGINE_AUTH=caller, "
        "where everyone else sees only their own), and may teach anew a word that already means "
        "something (a catalog word, a name, a taught word); taught words and marks record its "
        "bearer as `admin`, a bearer of BOSUN_API_TOKEN as `api`, a loopback request without a "
        "token as `local`; unset: no one is an administrator over HTTP (on the command line the "
        "local user is)",
    )
    max_request_bytes: int = Field(
        1_000_000,
        gt=0,
        description="the largest HTTP request body a server reads; a larger one gets 413 before "
        "it is read",
    )
    allowed_hosts: str = Field(
        "",
        description="host names the servers answer to besides 127.0.0.1, localhost and [::1], "
        "comma-separated (`*.example.org` allowed); off loopback, unset means any",
    )
    max_question_chars: int = Field(
        1000,
        gt=0,
        description="the longest question (or MCP resolve_name text) Bosun reads; a longer one is "
        "refused in one line before it is read, on every entry (413 from the API)",
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
        None,
        description="the chat model as provider:model for LangChain's init_chat_model, e.g. "
        "openai:gpt-4o-mini or ollama:llama3.1; needed when BOSUN_UNDERSTANDING=llm",
    )
    llm_base_url: str | None = Field(
        None,
        description="an OpenAI-compatible server (or Ollama) to call instead of the provider's own",
    )
    llm_api_key: SecretStr | None = Field(
        None, description="the model provider's key; never shown in answers, logs or stored turns"
    )
    llm_temperature: float = Field(
        0.0, ge=0, le=2, description="the chat model's sampling temperature"
    )
    llm_timeout_s: float = Field(60.0, gt=0, description="seconds one model call may take")
    llm_max_retries: int = Field(
        1, ge=0, description="the provider client's own retries of a failed request"
    )
    llm_turn_token_budget: int = Field(
        50_000,
        gt=0,
        description="input + output tokens one turn may use; past it the rules finish the turn "
        "and the answer says so",
    )
    llm_raw_dsl: bool = Field(
        False,
        description="let the model add one read-only query filter for words the reading could "
        "not use (guardrails and a dry run first; said in the answer's assumptions)",
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


_CONFIGURATION_INTRO = """\
# Configuration

<!-- Generated from src/bosun/settings.py by `python -m bosun.settings > docs/configuration.md`:
edit the descriptions there, then run that command. -->

Bosun has one settings class, `Settings` in `src/bosun/settings.py`. Each setting is read from its
`BOSUN_` environment variable or from a `.env` file in the folder Bosun runs in (the environment
wins); the names are not case-sensitive. A bad value stops Bosun at start with one line naming the
setting (`bad setting BOSUN_ENGINE_URL: ...`), and so do three combinations: a cluster engine
without `BOSUN_ENGINE_URL`, `BOSUN_ENGINE_AUTH=caller` on the embedded engine, and
`BOSUN_UNDERSTANDING=llm` without `BOSUN_LLM_MODEL`.

Passwords, keys, tokens and the user-info of every URL are masked in messages, stored turns and
checkpoints. Some values need an extra installed (see the [README](../README.md)): a cluster engine
the `elasticsearch` or `opensearch` extra, `BOSUN_CHECKPOINT_URL` the `postgres` extra,
`BOSUN_EMBEDDER=minilm` the `semantic` extra, `BOSUN_UNDERSTANDING=llm` the `llm` extra.
"""

_TYPE_NAMES: dict[Any, str] = {
    Path: "path",
    str: "text",
    SecretStr: "secret text",
    int: "integer",
    float: "number",
    bool: "`true` or `false`",
}
_BOUNDS = {"gt": ">", "ge": "≥", "lt": "<", "le": "≤"}


def configuration_markdown() -> str:
    """docs/configuration.md: the intro above, then every setting with its environment variable,
    type, default and description, in the class's order."""
    rows = [_setting_row(name, field) for name, field in Settings.model_fields.items()]
    table = ["| variable | type | default | what it sets |", "|---|---|---|---|", *rows]
    return _CONFIGURATION_INTRO + "\n" + "\n".join(table) + "\n"


def _setting_row(name: str, field: FieldInfo) -> str:
    variable = f"`{Settings.model_config['env_prefix']}{name.upper()}`"
    description = (field.description or "").replace("|", "\\|")
    return f"| {variable} | {_type_text(field)} | {_default_text(field.default)} | {description} |"


def _type_text(field: FieldInfo) -> str:
    """`integer > 0`, `path`, or the choices of a Literal; an optional setting reads as its type."""
    annotation = field.annotation
    if isinstance(annotation, types.UnionType):
        annotation = next(arg for arg in get_args(annotation) if arg is not type(None))
    if get_origin(annotation) is Literal:
        *firsts, last = [f"`{choice}`" for choice in get_args(annotation)]
        return f"{', '.join(firsts)} or {last}"
    bounds = [
        f"{symbol} {getattr(rule, key)}"
        for rule in field.metadata
        for key, symbol in _BOUNDS.items()
        if hasattr(rule, key)
    ]
    return " ".join([_TYPE_NAMES[annotation], ", ".join(bounds)]).strip()


def _default_text(default: object) -> str:
    """The default as one would write it in the environment; unset when there is none."""
    if default is None or default == "":
        return "unset"
    if isinstance(default, bool):
        return f"`{str(default).lower()}`"
    return f"`{default}`"


if __name__ == "__main__":
    print(configuration_markdown(), end="")
