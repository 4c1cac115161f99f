"""Several processes serving one app on one port, each accepting on a listening socket of its own.

uvicorn's own `workers=N` shares one listening socket: the first worker to wake takes every
connection waiting, so clients that connect together and keep their connections alive all land on
one worker (20 clients of `python -m bosun.bench api` did, every time). Here each worker listens on
a socket of its own on the same port (SO_REUSEPORT) and the kernel spreads new connections over
them. The sockets are bound in this process, so a port in use is said before any worker starts, and
a worker that dies is started again on its socket (connections that arrived meanwhile wait there); a
worker whose supervisor was killed stops by itself. Where SO_REUSEPORT does not exist, uvicorn's
workers serve.
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
BACKLOG = 2048  # uvicorn's default: connections each socket holds until its worker accepts them


def serve(app: str, host: str, port: int, count: int) -> int:
    """Serve the import string `app` (a factory) with `count` worker processes until SIGINT or
    SIGTERM; the exit code (non-zero when a worker could not start)."""
    if not hasattr(socket, "SO_REUSEPORT"):
        import uvicorn

        uvicorn.run(app, factory=True, workers=count, host=host, port=port, log_level="warning")
        return 0
    _refuse_taken(host, port)
    sockets = [_listening(host, port) for _ in range(count)]
    stop = threading.Event()
    for name in (signal.SIGINT, signal.SIGTERM):
        signal.signal(name, lambda *_: stop.set())
    processes = [_started(app, sock, host, port) for sock in sockets]
    failed = _supervise(processes, sockets, stop, (app, host, port))
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
    return STARTUP_FAILURE if failed else 0


def _supervise(
    processes: list[BaseProcess],
    sockets: list[socket.socket],
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
            processes[index] = _started(serving[0], sockets[index], serving[1], serving[2])
    return False


def _refuse_taken(host: str, port: int) -> None:
    """A port another server listens on is refused: sockets with SO_REUSEPORT would share it with
    that server (another `bosun serve --workers N` included) instead of failing."""
    with _socket(host) as probe:
        _bound(probe, host, port)


def _stop_when_orphaned(parent: int) -> None:
    """Stop this worker gracefully once its supervisor is gone (killed, so it could not stop the
    workers)."""
    while os.getppid() == parent:
        time.sleep(1)
    os.kill(os.getpid(), signal.SIGTERM)


def _listening(host: str, port: int) -> socket.socket:
    sock = _socket(host)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    _bound(sock, host, port)
    sock.listen(BACKLOG)
    return sock


def _socket(host: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    # as uvicorn: past connections do not hold the port
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
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
    """A fresh interpreter (spawned, as uvicorn's workers are) serving `app` on `sock`."""
    process: BaseProcess = multiprocessing.get_context("spawn").Process(
        target=_worker, args=(app, sock, host, port)
    )
    process.start()
    return process


def _worker(app: str, sock: socket.socket, host: str, port: int) -> None:
    """One worker: uvicorn's server on its own socket; SIGINT or SIGTERM stops it gracefully."""
    import uvicorn

    threading.Thread(target=_stop_when_orphaned, args=(os.getppid(),), daemon=True).start()
    config = uvicorn.Config(app, factory=True, host=host, port=port, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])
