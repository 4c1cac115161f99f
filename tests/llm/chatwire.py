"""A local HTTP server speaking OpenAI's chat-completions format, for tests that reach a chat model
over real HTTP.

A test subclasses `ChatWire` with an `answer(body)` giving the assistant's message for each request
body.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def tool_message(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The assistant calling `tool` with `arguments`."""
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": tool, "arguments": json.dumps(arguments)},
    }
    return {"role": "assistant", "content": None, "tool_calls": [call]}


class ChatWire(BaseHTTPRequestHandler):
    """POST /v1/chat/completions: the message `answer` gives, in a completion with `usage`
    tokens."""

    usage = (900, 60)  # prompt and completion tokens said in each reply

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt, completion = self.usage
        reply = {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": body["model"],
            "choices": [{"index": 0, "message": self.answer(body), "finish_reason": "stop"}],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            },
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        return


@contextmanager
def serving(handler: type[ChatWire]) -> Iterator[str]:
    """The server on a free loopback port for the length of a `with`: its base URL (…/v1)."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()
