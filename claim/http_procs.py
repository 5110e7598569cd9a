"""Django's HTTP requests in request processes of their own (``HTTP_PROCESSES``; docs/performance.md).

With ``HTTP_PROCESSES=0`` (the default without Redis) the server process runs Django's WSGI handler on
``HTTP_THREADS`` threads (:class:`claim.http.WsgiThreads`). Those threads share the GIL with the event
loop that plays the fast moves and writes every socket push: a burst of Django requests (a wave of new
games, a client's inbox refreshes) held the loop off for up to a second, and the moves and pushes of that
second waited (the paced latency tail of the seventh round).

With ``HTTP_PROCESSES=N`` (1 by default with Redis) the server starts ``N`` request processes
(``python -m claim.http_worker``), each running the same WSGI handler (same settings, middleware, views,
errors) on ``HTTP_THREADS`` threads.
The server process reads each request's body, sends ``(scope, body)`` over a Unix socket and sends the
answer back; its loop keeps the fast moves and the WebSockets to itself, and the request processes run on
the other cores. Socket pushes of a request process (a created or joined game) travel through the Redis
channel layer like those of a second server, so the setting needs the Redis channel layer and cache.

A request process that exits is started again; a request it was handling is answered 502 (not retried:
it may have been applied), and the requests after it go to the other processes or wait for the new one.
The request processes end with the server (they watch a pipe from it).

Frames on the socket: 4 bytes of big-endian length, then msgpack. Request ``[scope, body]`` with the
scope's plain keys; answer ``[status, headers, body]``, the whole body at once (the app has no streaming
answers).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import msgpack

from claim.loops import use_running_loop

log = logging.getLogger("claim.http_procs")

#: The scope keys a request process needs to build the WSGI environ (a2wsgi's ``build_environ``).
SCOPE_KEYS = ("type", "http_version", "method", "scheme", "path", "raw_path", "query_string", "root_path",
              "headers", "client", "server")
_LENGTH = struct.Struct(">I")
#: How long a new request process may take to accept connections before requests are refused with 503.
START_TIMEOUT = 60.0


def pack(frame: Any) -> bytes:
    payload = msgpack.packb(frame, use_bin_type=True)
    return _LENGTH.pack(len(payload)) + payload


def unpack(payload: bytes) -> Any:
    return msgpack.unpackb(payload, raw=False)


async def read_frame(reader: asyncio.StreamReader) -> Any:
    (length,) = _LENGTH.unpack(await reader.readexactly(_LENGTH.size))
    return unpack(await reader.readexactly(length))


def _json_answer(status: int, code: str, message: str) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """An answer in the API's error shape, to be retried after a moment."""
    import orjson

    from claim.api_errors import error_body

    body = orjson.dumps(error_body(code, message))
    return status, [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                    (b"retry-after", b"2")], body


class _Connection:
    def __init__(self, child: _Child, generation: int, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter) -> None:
        self.child, self.generation = child, generation
        self.reader, self.writer = reader, writer

    @property
    def current(self) -> bool:
        return self.generation == self.child.generation and not self.writer.is_closing()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()


class _Child:
    """One request process, started again whenever it exits (by :meth:`WsgiProcesses._supervise`)."""

    def __init__(self, index: int, socket_path: Path) -> None:
        self.index, self.socket_path = index, socket_path
        self.generation = 0
        self.process: subprocess.Popen[bytes] | None = None

    def spawn(self, threads: int, nice: int) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()
        self.generation += 1
        # stdin is a pipe nobody writes to: the child ends when it reads end-of-file (this process is gone).
        self.process = subprocess.Popen(
            [sys.executable, "-m", "claim.http_worker", str(self.socket_path), str(threads), str(nice)],
            stdin=subprocess.PIPE, env=os.environ.copy(),
        )

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=5)


class WsgiProcesses:
    """ASGI ``http`` app: each request answered by one of ``processes`` request processes."""

    def __init__(self, processes: int, threads: int, body_limit: int | None, nice: int = 0) -> None:
        self.threads, self.nice = threads, nice
        # Django refuses a body over DATA_UPLOAD_MAX_MEMORY_SIZE by its Content-Length before reading it,
        # so one byte more than the limit is all a request process ever needs to answer as it would here.
        self.body_limit = None if body_limit is None else body_limit + 1
        self.folder = Path(tempfile.mkdtemp(prefix="claim-http-"))
        self.children = [_Child(i, self.folder / f"{i}.sock") for i in range(processes)]
        for child in self.children:
            child.spawn(threads, nice)
        atexit.register(self.close)
        self._idle: asyncio.Queue[_Connection] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        use_running_loop()
        body = await self._read_body(receive)
        if body is None:  # the client went away before its request was complete: nothing to answer
            return
        status, headers, content = await self._answer(scope, body)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    async def _read_body(self, receive: Any) -> bytes | None:
        """The request's body (cut one byte past the limit), or None if the client disconnected first."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None
            chunk = message.get("body", b"")
            if self.body_limit is not None and size + len(chunk) > self.body_limit:
                chunks.append(chunk[: self.body_limit - size])
                break
            chunks.append(chunk)
            size += len(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    async def _answer(self, scope: dict[str, Any], body: bytes) -> tuple[int, list[Any], bytes]:
        frame = pack([{key: scope[key] for key in SCOPE_KEYS if key in scope}, body])
        try:
            async with asyncio.timeout(START_TIMEOUT):
                connection = await self._acquire()
        except TimeoutError:
            return _json_answer(503, "service_unavailable",
                                "The server is starting or overloaded: try again in a moment.")
        done = False
        try:
            connection.writer.write(frame)
            status, headers, content = await read_frame(connection.reader)
            done = True
        except (ConnectionError, asyncio.IncompleteReadError, OSError) as exc:
            log.warning("request process %s failed during %s %s: %s", connection.child.index, scope.get("method"),
                        scope.get("path"), exc)
            if connection.child.process is not None and connection.child.process.poll() is not None:
                connection.child.generation += 1  # it is gone: its other connections are dead too, drop them all
            return _json_answer(502, "worker_stopped", "The server's request worker stopped while answering: try "
                                "again. If this was a change, check whether it was applied before repeating it.")
        finally:
            if done:
                self._idle.put_nowait(connection)
            else:  # the frames are out of step (or the child is gone): never reuse this connection
                connection.close()
                if connection.current:
                    self._background(self._connect(connection.child, connection.generation))
        return status, [(bytes(name), bytes(value)) for name, value in headers], content

    async def _acquire(self) -> _Connection:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._start(loop)
        while True:
            connection = await self._idle.get()
            if connection.current:
                return connection
            connection.close()

    def _background(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)  # a reference, so the task is not collected while it runs
        task.add_done_callback(self._tasks.discard)

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop, self._idle = loop, asyncio.Queue()
        for child in self.children:
            self._background(self._supervise(child))

    async def _supervise(self, child: _Child) -> None:
        """Connect to the child; when it exits, start it again (after a pause if it keeps failing)."""
        pause = 0.5
        while True:
            if child.process is None or child.process.poll() is not None:
                child.spawn(self.threads, self.nice)
            generation = child.generation
            for _ in range(self.threads):
                self._background(self._connect(child, generation))
            started = self._loop.time()
            while child.process.poll() is None:
                await asyncio.sleep(0.5)
            code = child.process.returncode
            log.warning("request process %s (pid %s) exited with %s; starting it again", child.index,
                        child.process.pid, code)
            pause = 0.5 if self._loop.time() - started > 30 else min(pause * 2, 10.0)
            await asyncio.sleep(pause)

    async def _connect(self, child: _Child, generation: int) -> None:
        """One connection to the child of that generation, retried until it listens or is replaced."""
        while child.generation == generation and child.process is not None and child.process.poll() is None:
            try:
                reader, writer = await asyncio.open_unix_connection(str(child.socket_path))
            except (FileNotFoundError, ConnectionRefusedError):
                await asyncio.sleep(0.05)
                continue
            connection = _Connection(child, generation, reader, writer)
            if connection.current:
                self._idle.put_nowait(connection)
            else:  # the child was replaced meanwhile: its successor gets connections of its own
                connection.close()
            return

    def close(self) -> None:
        """Stop the request processes and remove their sockets (at exit; they also end on their own)."""
        for child in self.children:
            child.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
