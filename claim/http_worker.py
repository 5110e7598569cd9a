"""A request process of the ASGI server (``HTTP_PROCESSES``; :mod:`claim.http_procs`).

``python -m claim.http_worker SOCKET THREADS NICE``: lowers its priority by ``NICE``, listens on the Unix
socket ``SOCKET`` and answers each connection's requests, one at a time, on a thread of its own with
Django's WSGI handler. The server opens ``THREADS`` connections to it. It ends when its standard input
reaches end-of-file (the server is gone)."""

from __future__ import annotations

import io
import logging
import os
import signal
import socket
import sys
import threading
from typing import Any

log = logging.getLogger("claim.http_worker")


def respond(app: Any, scope: dict[str, Any], body: bytes) -> list[Any]:
    """``[status, headers, body]`` of the WSGI ``app``'s answer to the request (the environ a2wsgi builds)."""
    from a2wsgi.wsgi import build_environ

    environ = build_environ(scope, io.BytesIO(body))  # type: ignore[arg-type]
    started: list[Any] = []
    chunks: list[bytes] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        if exc_info is not None and started:
            raise exc_info[1].with_traceback(exc_info[2])
        started[:] = [status, headers]
        return chunks.append

    iterable = app(environ, start_response)
    try:
        for chunk in iterable:
            if chunk:
                chunks.append(chunk)
    finally:
        close = getattr(iterable, "close", None)
        if close is not None:
            close()
    status, headers = started
    return [int(status.split(" ", 1)[0]),
            [(name.strip().encode("latin-1").lower(), value.strip().encode("latin-1")) for name, value in headers],
            b"".join(chunks)]


def _server_error() -> bytes:
    """The answer to a request whose handling failed outside Django's own error handling."""
    import orjson

    from claim.api_errors import error_body

    return orjson.dumps(error_body("server_error", "Internal server error: the failure is logged."))


def _serve_connection(app: Any, conn: socket.socket) -> None:
    from claim.http_procs import _LENGTH, pack, unpack

    stream = conn.makefile("rwb")
    try:
        while True:
            head = stream.read(_LENGTH.size)
            if len(head) < _LENGTH.size:
                return  # the server closed the connection
            (length,) = _LENGTH.unpack(head)
            payload = stream.read(length)
            if len(payload) < length:
                return  # closed mid-frame
            scope, body = unpack(payload)
            try:
                answer = respond(app, scope, body)
            except Exception:  # Django answers its own errors; this is a failure around it
                log.exception("request process: %s %s failed", scope.get("method"), scope.get("path"))
                answer = [500, [(b"content-type", b"application/json")], _server_error()]
            stream.write(pack(answer))
            stream.flush()
    except (BrokenPipeError, ConnectionResetError):
        return
    finally:
        stream.close()
        conn.close()


def _end_with_parent() -> None:
    sys.stdin.buffer.read()  # end-of-file: the server process is gone (or closed our pipe)
    os._exit(0)


def main(path: str, threads: int, nice: int) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claim.settings")
    django.setup(set_prefix=False)

    from django.core.wsgi import get_wsgi_application

    from claim.http import tune_gc
    from claim.loops import start_background_loop

    app = get_wsgi_application()
    if nice:
        os.nice(nice)
    start_background_loop()  # the channel-layer sends of this process (claim/loops.py)
    tune_gc()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's to handle: this process follows it
    threading.Thread(target=_end_with_parent, name="parent-watch", daemon=True).start()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".new")
    listener.listen(max(threads, 1) * 2)
    os.replace(path + ".new", path)  # the server connects only once it accepts
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=_serve_connection, args=(app, conn), name="http", daemon=True).start()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
