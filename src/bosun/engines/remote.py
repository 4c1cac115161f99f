"""Elasticsearch and OpenSearch clusters behind the Engine interface (official clients, lazily
imported)."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from datetime import date, datetime
from typing import Any

import pyarrow as pa
from pydantic import SecretStr

from bosun.engines.base import Body, Engine, Response
from bosun.engines.caller import MISSING, caller, caller_secrets
from bosun.engines.staged import StagedRows
from bosun.errors import (
    ConfigError,
    EngineUnavailable,
    Forbidden,
    MissingIndex,
    QueryTimeout,
    SettingsError,
    Unauthorized,
    UserError,
)
from bosun.settings import Settings, redacted, scrub

_CLIENTS = {
    "elasticsearch": ("elasticsearch", "Elasticsearch", "elasticsearch"),
    "opensearch": ("opensearchpy", "OpenSearch", "opensearch"),
}


class RemoteEngine(Engine):
    """A cluster reached over HTTP; `kind` is elasticsearch or opensearch.

    A query runs with the current caller's credentials when a server has set them
    (`engines.caller`), else with the configured ones; once `callers_only` is set (a server in
    BOSUN_ENGINE_AUTH=caller mode), a query without a caller's credentials is refused rather than
    run with the configured ones.
    """

    callers_only = False

    def __init__(
        self,
        kind: str,
        url: str,
        *,
        username: str | None = None,
        password: str | None = None,
        api_key: str | None = None,
        verify_certs: bool = True,
        timeout_s: float = 10.0,
    ) -> None:
        module_name, class_name, extra = _CLIENTS[kind]
        try:
            self._module = importlib.import_module(module_name)
            self._helpers = importlib.import_module(f"{module_name}.helpers")
        except ImportError:
            raise ConfigError(
                f"the {kind} engine needs its client: pip install 'bosun-bi[{extra}]'"
            ) from None
        options: dict[str, Any] = {
            "hosts": [url],
            "verify_certs": verify_certs,
            "request_timeout": timeout_s,
        }
        if username:
            options["http_auth" if kind == "opensearch" else "basic_auth"] = (
                username,
                password or "",
            )
        # opensearch-py takes no client-wide api_key: it would be ignored
        if api_key and kind == "opensearch":
            options["headers"] = {"authorization": f"ApiKey {api_key}"}
        elif api_key:
            options["api_key"] = api_key
        if kind == "opensearch":
            options["timeout"] = options.pop("request_timeout")
        # url: for messages, never secret
        self.kind, self.url, self.timeout_s = kind, redacted(url), timeout_s
        try:
            self._client = getattr(self._module, class_name)(**options)
        # the client refuses a combination, e.g. both a password and an API key
        except ValueError as exc:
            raise SettingsError(
                f"bad settings for the {kind} engine at {self.url}: {redacted(str(exc))}"
            ) from None

    def _call(self, what: str, function: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """Call the client for a JSON answer: anything but an object (an HTML page) is one line
        naming the URL."""
        found = self._request(what, function, *args, **kwargs)
        body = getattr(found, "body", found)
        if not isinstance(body, dict):
            raise EngineUnavailable(
                f"{what}: {self.url} answered {_shown(body)}, not an {self.kind} response"
            )
        return body

    def _request(self, what: str, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Call the client; every failure is one line naming the URL."""
        exceptions = (
            self._module.exceptions if hasattr(self._module, "exceptions") else self._module
        )
        try:
            return function(*args, **kwargs)
        except exceptions.NotFoundError as exc:
            raise MissingIndex(f"{what}: {_reason(exc)} on {self.url}") from None
        except exceptions.ConnectionTimeout:
            raise QueryTimeout(
                f"{what}: {self.url} did not answer within {self.timeout_s:g} s"
            ) from None
        except exceptions.ConnectionError:
            raise EngineUnavailable(f"cannot reach the {self.kind} engine at {self.url}") from None
        except exceptions.AuthenticationException:
            raise Unauthorized(f"{what}: {self.url} refused the credentials (HTTP 401)") from None
        except exceptions.AuthorizationException as exc:
            raise Forbidden(
                f"{what}: {self.url} does not let these credentials do it (HTTP 403: "
                f"{redacted(_reason(exc))})"
            ) from None
        except _request_error(self._module) as exc:
            raise UserError(
                f"{what}: the cluster refused the query: {redacted(_reason(exc))}"
            ) from None
        # an HTTP 5xx, or a body that is not JSON (an HTML page)
        except _answer_errors(exceptions) as exc:
            raise EngineUnavailable(
                f"{what}: {self.url} answered {_status(exc)}, not an {self.kind} response"
            ) from None

    def _expect(self, what: str, body: dict[str, Any], key: str) -> Any:
        """`body[key]`; an answer without it (`{}` from a proxy) is one line naming the URL and what
        came back."""
        if key not in body:
            raise EngineUnavailable(
                f"{what}: {self.url} answered {_shown(body)} without {key!r}, not an "
                f"{self.kind} response"
            )
        return body[key]

    def _as_caller(self) -> tuple[Any, dict[str, Any]]:
        """The client to call and the arguments that send the current caller's credentials, if
        any."""
        secret = caller()
        if secret is None:
            if self.callers_only:
                raise Unauthorized(MISSING)
            return self._client, {}
        # in place of the configured credentials
        headers = {"authorization": secret.get_secret_value()}
        if self.kind == "elasticsearch":
            return self._client.options(headers=headers), {}
        return self._client, {"headers": headers}

    def search(self, index: str, body: Body) -> Response:
        what = f"search {index}"
        client, auth = self._as_caller()
        # a search in a point in time names no index: the point in time holds it
        where = {} if "pit" in body else {"index": index}
        result = self._call(what, client.search, body=body, **where, **auth)
        if not isinstance(self._expect(what, result, "hits"), dict):
            raise EngineUnavailable(
                f"{what}: {self.url} answered {_shown(result)}, not an {self.kind} response"
            )
        return result

    def count(self, index: str, body: Body | None = None) -> int:
        query = {"query": body["query"]} if body and body.get("query") else None
        what = f"count {index}"
        client, auth = self._as_caller()
        return int(
            self._expect(
                what, self._call(what, client.count, index=index, body=query, **auth), "count"
            )
        )

    def mapping(self, index: str) -> dict[str, Any]:
        what = f"mapping {index}"
        client, auth = self._as_caller()
        found = self._expect(
            what, self._call(what, client.indices.get_mapping, index=index, **auth), index
        )
        mapping: dict[str, Any] = (
            self._expect(what, found, "mappings") if isinstance(found, dict) else {}
        )
        return mapping

    def open_point_in_time(self, index: str, keep_alive: str) -> str | None:
        """The cluster's point in time on `index`, opened with the caller's credentials; None where
        the cluster has none or will open no more (a version before them, its cap of open ones):
        search_after then pages alone. Credentials it refuses are said, as for a search."""
        what = f"point in time on {index}"
        client, auth = self._as_caller()
        opening = client.open_point_in_time if self.kind == "elasticsearch" else client.create_pit
        try:
            found = self._call(what, opening, index=index, keep_alive=keep_alive, **auth)
        except (Unauthorized, Forbidden):
            raise
        except (UserError, MissingIndex, EngineUnavailable):
            return None
        pit_id = found.get("id" if self.kind == "elasticsearch" else "pit_id")
        return pit_id if isinstance(pit_id, str) else None

    def close_point_in_time(self, pit_id: str) -> None:
        """Release the point in time; one that has expired already, or that the cluster no longer
        knows, is released."""
        what = "close a point in time"
        client, auth = self._as_caller()
        try:
            if self.kind == "elasticsearch":
                self._call(what, client.close_point_in_time, id=pit_id, **auth)
            else:
                self._call(what, client.delete_pit, body={"pit_id": [pit_id]}, **auth)
        except (MissingIndex, UserError, EngineUnavailable):
            pass

    def indices(self) -> list[str]:
        client, auth = self._as_caller()
        found = self._call("indices", client.indices.get_alias, index="*", **auth)
        return sorted(name for name in found if not name.startswith("."))

    def bulk_load(
        self, index: str, table: pa.Table, mapping: dict[str, Any], id_field: str | None = None
    ) -> int:
        self._replace(index, mapping, table.to_batches(10_000), id_field)
        return table.num_rows

    def load_staged(self, index: str, staged: StagedRows, mapping: dict[str, Any]) -> int:
        """The staged rows sent in bulk requests as they are read, 10,000 at a time: never all in
        memory."""
        self._replace(index, mapping, staged.batches(), None)
        return staged.rows

    def _replace(
        self,
        index: str,
        mapping: dict[str, Any],
        batches: Iterable[pa.RecordBatch],
        id_field: str | None,
    ) -> None:
        indices = self._client.indices
        if self._request(f"exists {index}", indices.exists, index=index):
            self._request(f"delete {index}", indices.delete, index=index)
        self._request(f"create {index}", indices.create, index=index, body={"mappings": mapping})
        actions = _actions(index, batches, id_field)
        self._request(
            f"bulk {index}",
            self._helpers.bulk,
            self._client,
            actions,
            chunk_size=2000,
            refresh=True,
        )

    def close(self) -> None:
        self._client.close()


def _actions(
    index: str, batches: Iterable[pa.RecordBatch], id_field: str | None
) -> Iterator[dict[str, Any]]:
    for batch in batches:
        for row in batch.to_pylist():
            doc = {k: _json(v) for k, v in row.items()}
            action: dict[str, Any] = {"_index": index, "_source": doc}
            if id_field:
                action["_id"] = str(doc[id_field])
            yield action


def _json(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date | datetime) else value


def _reason(exc: Exception) -> str:
    """The cluster's reason for an error, with the caller's credentials masked should it quote
    them."""
    info = getattr(exc, "info", None) or getattr(exc, "body", None)
    if isinstance(info, dict) and isinstance(info.get("error"), dict):
        return scrub(
            str(info["error"].get("reason") or info["error"].get("type")), caller_secrets()
        )
    return scrub(str(exc).splitlines()[0][:300], caller_secrets())


def _answer_errors(exceptions: Any) -> tuple[type[Exception], ...]:
    """The clients' errors for an unusable answer: any other HTTP error status, a body that does not
    parse."""
    names = ("ApiError", "TransportError", "SerializationError", "UnsupportedProductError")
    return tuple(
        getattr(exceptions, n) for n in names if isinstance(getattr(exceptions, n, None), type)
    )


def _status(exc: Exception) -> str:
    meta = getattr(exc, "meta", None)
    status = getattr(exc, "status_code", None) or getattr(meta, "status", None)
    if isinstance(status, int):
        return f"HTTP {status} ({redacted(_reason(exc))[:120]})"
    return f"something unreadable ({redacted(str(exc)).splitlines()[0][:120]})"


def _shown(body: Any) -> str:
    """What came back, in a few words: an HTML page, a piece of text, an object with these keys."""
    if isinstance(body, str | bytes):
        text = body.decode(errors="replace") if isinstance(body, bytes) else body
        kind = "an HTML page" if text.lstrip().startswith("<") else "text"
        return f"{kind} ({redacted(' '.join(text.split()))[:60]!r})"
    if isinstance(body, dict):
        return f"an object with keys {sorted(body)[:5]}" if body else "an empty object {}"
    return f"a {type(body).__name__}"


def _request_error(module: Any) -> type[Exception]:
    exceptions = getattr(module, "exceptions", module)
    found: type[Exception] = getattr(exceptions, "RequestError", None) or exceptions.BadRequestError
    return found


def open_remote(settings: Settings) -> RemoteEngine:
    assert settings.engine_url is not None  # load_settings enforces it
    return RemoteEngine(
        settings.engine,
        settings.engine_url,
        username=settings.engine_username,
        password=_plain(settings.engine_password),
        api_key=_plain(settings.engine_api_key),
        verify_certs=settings.engine_verify_certs,
        timeout_s=settings.query_timeout_s,
    )


def run_as_callers(engine: Engine) -> None:
    """From now on `engine` (a cluster, maybe behind the guardrails) queries only with a caller's
    credentials."""
    inner = getattr(engine, "inner", engine)
    if not isinstance(inner, RemoteEngine):
        raise SettingsError(
            "bad setting BOSUN_ENGINE_AUTH: caller needs a cluster (BOSUN_ENGINE=elasticsearch "
            "or opensearch); the embedded engine has no users of its own"
        )
    inner.callers_only = True


def _plain(secret: SecretStr | None) -> str | None:
    return secret.get_secret_value() if secret else None
