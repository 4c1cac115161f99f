"""Probe (not a test): the server's memory while four 250 MB request bodies are sent to `bosun
serve`.

    BOSUN_DATA_DIR=… PYTHONPATH=src python -m tests.reliability.body_probe [MB] [BODIES]

Prints the server's resident memory before and after, and each reply's status: with the body limit
the server answers 413 without reading the bodies, so its memory stays where it was.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

from tests.interfaces.serving import bosun_serve

MEGABYTE = b"x" * 1_000_000


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (the server runs under `python -m`), in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return (
        int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS")))
        / 1000
    )


def send(base: str, megabytes: int, chunked: bool) -> str:
    """POST a body of `megabytes` MB (declared or chunked) as long as the server reads it; its
    status line."""
    url = urlparse(base)
    framing = (
        "Transfer-Encoding: chunked" if chunked else f"Content-Length: {megabytes * 1_000_000}"
    )
    head = f"POST /threads/x/turns HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{framing}\r\n\r\n"
    piece = b"%x\r\n%s\r\n" % (len(MEGABYTE), MEGABYTE) if chunked else MEGABYTE
    with socket.create_connection((url.hostname, url.port), timeout=120) as conn:
        conn.sendall(head.encode())
        with contextlib.suppress(OSError):  # the server closed early: it refused the body
            for _ in range(megabytes):
                conn.sendall(piece)
            if chunked:
                conn.sendall(b"0\r\n\r\n")
        with contextlib.suppress(OSError):
            return conn.recv(200).split(b"\r\n")[0].decode() or "(closed)"
    return "(closed)"


def main(megabytes: int = 250, bodies: int = 4) -> None:
    with bosun_serve(Path(os.environ["BOSUN_DATA_DIR"])) as base:
        pid = _server_pid(urlparse(base).port or 0)
        print(f"server RSS before: {rss_mb(pid):.0f} MB")
        for n in range(bodies):
            started = time.perf_counter()
            status = send(base, megabytes, chunked=n % 2 == 1)
            print(
                f"body {n + 1} ({megabytes} MB, {'chunked' if n % 2 else 'Content-Length'}): "
                f"{status} "
                f"in {time.perf_counter() - started:.1f} s; server RSS {rss_mb(pid):.0f} MB"
            )


def _server_pid(port: int) -> int:
    """The process listening on `port` (from /proc/net/tcp and each process's sockets)."""
    inode = next(
        line.split()[9]
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
        if line.split()[1].endswith(f":{port:04X}") and line.split()[3] == "0A"
    )
    for proc in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if proc.name.isdigit() and any(
                os.readlink(fd) == f"socket:[{inode}]" for fd in (proc / "fd").iterdir()
            ):
                return int(proc.name)
    raise RuntimeError(f"no process listens on {port}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
