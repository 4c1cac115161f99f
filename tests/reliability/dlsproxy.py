"""A cluster with document-level security, for tests: an HTTP proxy in front of osmem-server (which
has none).

Each request must carry `Authorization: ApiKey <key>` (or `Bearer <key>`) of a known key, or gets
the 401 a secured cluster gives. A key may be limited to the documents of one index matching a
query: its searches and counts on that index are answered over those documents only (the query
wrapped in a `bool` with the key's filter), as Elasticsearch's and OpenSearch's role queries do; a
`denied` key may not read it at all (403). More indices can be limited the same way (`filters`, by
key and index) or denied (`forbidden`, by key). A search in a point in time (`/_search` with a
`pit`) is limited as one on `index`, the index the tests open points in time on. The proxy records
which key made each request.
"""

from __future__ import annotations

import http.client
import http.server
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

REFUSED = {
    "error": {
        "type": "security_exception",
        "reason": "unable to authenticate with provided credentials",
    },
    "status": 401,
}
DENIED = {
    "error": {
        "type": "security_exception",
        "reason": "action [indices:data/read/search] is unauthorized",
    },
    "status": 403,
}


@dataclass
class Proxy:
    url: str
    # (key, path) of every request, in order
    seen: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def keys_since(self, start: int) -> set[str]:
        with self.lock:
            return {key for key, _ in self.seen[start:]}


@contextmanager
def secured(
    upstream: str,
    keys: dict[str, dict[str, Any] | None],
    index: str,
    denied: frozenset[str] = frozenset(),
    filters: dict[tuple[str, str], dict[str, Any]] | None = None,
    forbidden: dict[str, frozenset[str]] | None = None,
) -> Iterator[Proxy]:
    """Yield the proxy in front of `upstream`; `keys` maps each key to its filter on `index` (None:
    sees all), `filters` (key, another index) to its filter there, `forbidden` a key to the indices
    it may not read."""
    target = urlparse(upstream)
    proxy = Proxy("")
    limits = {**(filters or {}), **{(key, index): f for key, f in keys.items() if f is not None}}
    closed = {key: {index} for key in denied} | {k: set(v) for k, v in (forbidden or {}).items()}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _answer(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            scheme, _, key = (self.headers.get("authorization") or "").partition(" ")
            if scheme.lower() not in ("apikey", "bearer") or key not in keys:
                self._send(401, json.dumps(REFUSED).encode(), "application/json")
                return
            with proxy.lock:
                proxy.seen.append((key, self.path))
            if any(self.path.startswith(f"/{name}/") for name in closed.get(key, ())):
                self._send(403, json.dumps(DENIED).encode(), "application/json")
                return
            self._forward(self._limited(body, key))

        def _limited(self, body: bytes, key: str) -> bytes:
            path = urlparse(self.path).path
            if not path.endswith(("/_search", "/_count")):
                return body
            request = json.loads(body or b"{}")
            searched = index if path == "/_search" and "pit" in request else path.split("/")[1]
            limit = limits.get((key, searched))
            if limit is None:
                return body
            query = request.get("query", {"match_all": {}})
            request["query"] = {"bool": {"must": [query], "filter": [limit]}}
            return json.dumps(request).encode()

        def _forward(self, body: bytes) -> None:
            connection = http.client.HTTPConnection(
                target.hostname or "127.0.0.1", target.port, timeout=60
            )
            headers = {"content-type": "application/json"} if body else {}
            connection.request(self.command, self.path, body=body or None, headers=headers)
            answer = connection.getresponse()
            data = answer.read()
            connection.close()
            self._send(answer.status, data, answer.getheader("content-type") or "application/json")

        def _send(self, status: int, data: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(data)))
            # for the elasticsearch client's check
            self.send_header("X-elastic-product", "Elasticsearch")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = _answer

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    proxy.url = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield proxy
    finally:
        server.shutdown()
        server.server_close()
