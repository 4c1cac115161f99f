"""Several processes serving one app on one port: the supervisor binds the port once and each worker
accepts on that one inherited socket (pre-fork, as gunicorn and uvicorn's own workers do).

The socket is bound without SO_REUSEPORT: another process, even one of the same user, cannot bind
the port beside it and be handed a share of its connections (bearer tokens with them), and a port in
use is said before any worker starts. A worker that dies is started again on the same socket
(connections that arrived meanwhile wait in its queue for the others); a worker whose supervisor was
killed stops by itself. Connections go to whichever worker accepts first, so clients that connect
together and keep their connections alive may all land on one worker.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
from multiprocessing.process import BaseProcess

from bosun.errors import ConfigError

log = logging.getLogger("bosun.serve")
# uvicorn's exit code for a worker that could not start (its app, or its socket)
STARTUP_FAILURE = 3
BACKLOG = 2048  # uvicorn's default: connections the socket holds until a worker accepts them


def serve(app: str, host: str, port: int, count: int) -> int:
    """Serve the import string `app` (a factory) with `count` worker processes until SIGINT or
    SIGTERM; the exit code (non-zero when a worker could not start)."""
    sock = _listening(host, port)
    stop = threading.Event()
    for name in (signal.SIGINT, signal.SIGTERM):
        signal.signal(name, lambda *_: stop.set())
    processes = [_started(app, sock, host, port) for _ in range(count)]
    failed = _supervise(processes, sock, stop, (app, host, port))
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
    sock.close()
    return STARTUP_FAILURE if failed else 0


def _supervise(
    processes: list[BaseProcess],
    sock: socket.socket,
    stop: threading.Event,
    serving: tuple[str, str, int],
) -> bool:
    """Start again each worker that dies, until told to stop; True when one could not start (then
    all stop)."""
    while not stop.wait(0.5):
        for index, process in enumerate(processes):
            if process.is_alive():
                continue
            if process.exitcode == STARTUP_FAILURE:
                log.error("worker process %s could not start; stopping the others", process.pid)
                return True
            log.warning(
                "worker process %s died (exit code %s); starting another",
                process.pid,
                process.exitcode,
            )
            processes[index] = _started(serving[0], sock, serving[1], serving[2])
    return False


def _stop_when_orphaned(parent: int) -> None:
    """Stop this worker gracefully once its supervisor is gone (killed, so it could not stop the
    workers)."""
    while os.getppid() == parent:
        time.sleep(1)
    os.kill(os.getpid(), signal.SIGTERM)


def _listening(host: str, port: int) -> socket.socket:
    """The one listening socket of every worker: SO_REUSEADDR as uvicorn binds (connections past
    hold no port), never SO_REUSEPORT (which would let another socket share the port)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    _bound(sock, host, port)
    sock.listen(BACKLOG)
    return sock


def _bound(sock: socket.socket, host: str, port: int) -> None:
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ConfigError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another --port or "
            "stop the server using it"
        ) from None


def _started(app: str, sock: socket.socket, host: str, port: int) -> BaseProcess:
    """A fresh interpreter (spawned, as uvicorn's workers are) serving `app` on `sock`, which it is
    handed (the descriptor duplicated into it), not bound again."""
    process: BaseProcess = multiprocessing.get_context("spawn").Process(
        target=_worker, args=(app, sock, host, port)
    )
    process.start()
    return process


def _worker(app: str, sock: socket.socket, host: str, port: int) -> None:
    """One worker: uvicorn's server on the inherited socket; SIGINT or SIGTERM stops it
    gracefully."""
    import uvicorn

    threading.Thread(target=_stop_when_orphaned, args=(os.getppid(),), daemon=True).start()
    config = uvicorn.Config(app, factory=True, host=host, port=port, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])
