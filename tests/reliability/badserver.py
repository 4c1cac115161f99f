"""A tiny HTTP server that answers every request the same wrong way: an HTML page, an HTTP 500 or
`{}`."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager

ANSWERS = {
    "html": (200, "text/html", b"<html><body>Please log in</body></html>"),
    "500": (500, "text/plain", b"Internal error"),
    "{}": (200, "application/json", b"{}"),
}


@contextmanager
def wrong_server(mode: str) -> Iterator[str]:
    """Yield the server's base URL (no credentials) while it runs."""
    status, content_type, body = ANSWERS[mode]

    class Handler(http.server.BaseHTTPRequestHandler):
        def _answer(self) -> None:
            self.rfile.read(int(self.headers.get("content-length") or 0))
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(body)))
            self.send_header("X-elastic-product", "Elasticsearch")
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_HEAD = _answer

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
