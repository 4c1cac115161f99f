"""Elasticsearch and OpenSearch clusters behind the Engine interface (official clients, lazily imported)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

import pyarrow as pa

from bosun.engines.base import Body, Engine, Response
from bosun.errors import ConfigError, EngineUnavailable, MissingIndex, QueryTimeout, UserError
from bosun.settings import Settings

_CLIENTS = {"elasticsearch": ("elasticsearch", "Elasticsearch", "elasticsearch"),
            "opensearch": ("opensearchpy", "OpenSearch", "opensearch")}


class RemoteEngine(Engine):
    """A cluster reached over HTTP; `kind` is elasticsearch or opensearch."""

    def __init__(self, kind: str, url: str, *, username: str | None = None, password: str | None = None,
                 api_key: str | None = None, verify_certs: bool = True, timeout_s: float = 10.0) -> None:
        module_name, class_name, extra = _CLIENTS[kind]
        try:
            self._module = importlib.import_module(module_name)
            self._helpers = importlib.import_module(f"{module_name}.helpers")
        except ImportError:
            raise ConfigError(f"the {kind} engine needs its client: pip install 'bosun-bi[{extra}]'") from None
        options: dict[str, Any] = {"hosts": [url], "verify_certs": verify_certs, "request_timeout": timeout_s}
        if username:
            options["http_auth" if kind == "opensearch" else "basic_auth"] = (username, password or "")
        if api_key:
            options["api_key"] = api_key
        if kind == "opensearch":
            options["timeout"] = options.pop("request_timeout")
        self.kind, self.url, self.timeout_s = kind, url, timeout_s
        self._client = getattr(self._module, class_name)(**options)

    def _call(self, what: str, function: Any, *args: Any, **kwargs: Any) -> Any:
        exceptions = self._module.exceptions if hasattr(self._module, "exceptions") else self._module
        try:
            return function(*args, **kwargs)
        except exceptions.NotFoundError as exc:
            raise MissingIndex(f"{what}: {_reason(exc)} on {self.url}") from None
        except exceptions.ConnectionTimeout:
            raise QueryTimeout(f"{what}: {self.url} did not answer within {self.timeout_s:g} s") from None
        except exceptions.ConnectionError:
            raise EngineUnavailable(f"cannot reach the {self.kind} engine at {self.url}") from None
        except _request_error(self._module) as exc:
            raise UserError(f"{what}: the cluster refused the query: {_reason(exc)}") from None

    def search(self, index: str, body: Body) -> Response:
        result: Response = dict(self._call(f"search {index}", self._client.search, index=index, body=body))
        return result

    def count(self, index: str, body: Body | None = None) -> int:
        query = {"query": body["query"]} if body and body.get("query") else None
        return int(self._call(f"count {index}", self._client.count, index=index, body=query)["count"])

    def mapping(self, index: str) -> dict[str, Any]:
        found = self._call(f"mapping {index}", self._client.indices.get_mapping, index=index)
        mapping: dict[str, Any] = dict(found)[index]["mappings"]
        return mapping

    def indices(self) -> list[str]:
        found = self._call("indices", self._client.indices.get_alias, index="*")
        return sorted(name for name in dict(found) if not name.startswith("."))

    def bulk_load(self, index: str, table: pa.Table, mapping: dict[str, Any], id_field: str | None = None) -> int:
        indices = self._client.indices
        if self._call(f"exists {index}", indices.exists, index=index):
            self._call(f"delete {index}", indices.delete, index=index)
        self._call(f"create {index}", indices.create, index=index, body={"mappings": mapping})
        actions = _actions(index, table, id_field)
        self._call(f"bulk {index}", self._helpers.bulk, self._client, actions, chunk_size=2000, refresh=True)
        return table.num_rows

    def close(self) -> None:
        self._client.close()


def _actions(index: str, table: pa.Table, id_field: str | None) -> Iterator[dict[str, Any]]:
    for batch in table.to_batches(10_000):
        for row in batch.to_pylist():
            doc = {k: _json(v) for k, v in row.items()}
            action: dict[str, Any] = {"_index": index, "_source": doc}
            if id_field:
                action["_id"] = str(doc[id_field])
            yield action


def _json(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date | datetime) else value


def _reason(exc: Exception) -> str:
    info = getattr(exc, "info", None) or getattr(exc, "body", None)
    if isinstance(info, dict) and isinstance(info.get("error"), dict):
        return str(info["error"].get("reason") or info["error"].get("type"))
    return str(exc).splitlines()[0][:300]


def _request_error(module: Any) -> type[Exception]:
    exceptions = getattr(module, "exceptions", module)
    found: type[Exception] = getattr(exceptions, "RequestError", None) or exceptions.BadRequestError
    return found


def open_remote(settings: Settings) -> RemoteEngine:
    assert settings.engine_url is not None  # load_settings enforces it
    return RemoteEngine(settings.engine, settings.engine_url, username=settings.engine_username,
                        password=settings.engine_password, api_key=settings.engine_api_key,
                        verify_certs=settings.engine_verify_certs, timeout_s=settings.query_timeout_s)
