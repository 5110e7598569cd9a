"""The event loop that synchronous code of this process hands channel-layer sends to.

Synchronous code (views, the game service, Celery tasks) pushes to sockets through the channel layer,
whose API is async. Running a fresh event loop per send (``async_to_sync`` outside any loop) costs a
thread and, with channels_redis, a new Redis connection each time. Instead:

* in the ASGI server, request threads hand the send to the server's own loop (recorded by asgiref for the
  threads it starts for synchronous views) and do not wait;
* a Celery worker process and a gunicorn worker process each run one background loop for their whole life
  (:func:`start_background_loop`, called from ``worker_process_init`` in :mod:`claim.celery` and from
  :mod:`claim.wsgi`), so their sends reuse one connection.

Elsewhere (management commands, plain synchronous tests) :func:`process_loop` is None and callers
fall back to ``async_to_sync``.
"""

from __future__ import annotations

import asyncio
import os
import threading

from claim.private_api import sync_to_async_loop

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None


def _usable(loop: asyncio.AbstractEventLoop | None) -> asyncio.AbstractEventLoop | None:
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    return loop


def use_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Record ``loop`` (running, in this process) as the one to hand sends to."""
    global _loop, _loop_pid
    _loop, _loop_pid = loop, os.getpid()


def recorded_loop() -> asyncio.AbstractEventLoop | None:
    """The loop recorded by :func:`use_loop`, as long as it is still running in this process."""
    return _usable(_loop) if _loop_pid == os.getpid() else None


def process_loop() -> asyncio.AbstractEventLoop | None:
    """A running event loop of this process to hand work to from a synchronous thread, or None.

    The recorded loop (ASGI server, Celery background loop), else the loop asgiref recorded for the
    threads its ``sync_to_async`` started (consumers, tests), else None.
    """
    loop = recorded_loop()
    if loop is not None:
        return loop
    return _usable(sync_to_async_loop())


def start_background_loop() -> asyncio.AbstractEventLoop:
    """Run a new event loop in a daemon thread for the rest of this process and record it."""
    existing = recorded_loop()
    if existing is not None:
        return existing
    loop = asyncio.new_event_loop()
    started = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.call_soon(started.set)
        loop.run_forever()

    threading.Thread(target=run, name="claim-loop", daemon=True).start()
    started.wait()
    use_loop(loop)
    return loop
