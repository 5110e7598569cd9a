"""Dispatching background work the same way on one laptop and on many machines.

``enqueue(task, *args)`` is the only way the code base starts background work. It never runs the
task inside the caller (an AI turn must never block the HTTP request that caused it), except in
``eager`` mode, which tests use for determinism:

* ``celery``: ``task.apply_async`` through the broker (``REDIS_URL``).
* ``thread``: an in-process thread pool runs ``task.apply`` (embedded default: no broker); a task routed to
  its own queue (``CELERY_TASK_ROUTES``, e.g. the long ``review`` computations) gets its own one-thread pool, so
  it never holds up the AI's turns, as its own worker does when served.
* ``eager``: run inline, now.

Call it from ``transaction.on_commit`` so the task sees the committed row.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import close_old_connections

from claim.celery import app

log = logging.getLogger(__name__)
_pool: ThreadPoolExecutor | None = None
_queue_pools: dict[str, ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()


def _get_pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="claim-task")
    return _pool


def task_queue(task: Any) -> str | None:
    """The queue ``CELERY_TASK_ROUTES`` sends ``task`` to (None: the default queue)."""
    route = getattr(settings, "CELERY_TASK_ROUTES", {}).get(getattr(task, "name", ""))
    return route.get("queue") if isinstance(route, dict) else None


def _pool_for(task: Any) -> ThreadPoolExecutor:
    queue = task_queue(task)
    if queue is None:
        return _get_pool()
    with _pools_lock:
        pool = _queue_pools.get(queue)
        if pool is None:
            pool = _queue_pools[queue] = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"claim-{queue}")
        return pool


def _run_in_thread(task: Any, args: tuple, kwargs: dict) -> None:
    close_old_connections()
    try:
        result = task.apply(args=args, kwargs=kwargs)
        if result.failed():
            log.error("background task %s failed: %s", task.name, result.result)
    finally:
        close_old_connections()


def enqueue(task: Any, *args: Any, countdown: float | None = None, **kwargs: Any) -> Future | None:
    mode = settings.TASK_MODE
    if mode == "celery":
        task.apply_async(args=args, kwargs=kwargs, countdown=countdown)
        return None
    if mode == "eager":
        task.apply(args=args, kwargs=kwargs, throw=True)
        return None
    return _pool_for(task).submit(_run_in_thread, task, args, kwargs)


class Batcher:
    """Coalesces many small background jobs into one task per ``window`` seconds (celery mode).

    ``add(item)`` appends to an in-memory batch and returns at once; a daemon thread sends the batch
    as **one** ``task.apply_async(args=[items])`` ``window`` seconds after its first item (or at
    ``max_items``). A broker round trip and a worker task per item cost far more than the item's own
    work (docs/performance.md); this makes that cost per batch. Items still go out within ``window``
    of their commit, and a failed send is retried with the next batch, so a broker blip loses
    nothing; a process that dies holds at most ``window`` seconds of items, the same kind of loss as
    dying between a commit and its ``on_commit`` hook, and the beat safety nets cover both.

    Outside celery mode there is nothing to save: items go to ``enqueue`` one by one, so eager
    tests and the embedded run see them at once.
    """

    def __init__(self, task: Any, window: float = 0.02, max_items: int = 500) -> None:
        self.task = task
        self.window = window
        self.max_items = max_items
        self._items: list[Any] = []
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._pid = 0

    def add(self, item: Any) -> None:
        if settings.TASK_MODE != "celery":
            enqueue(self.task, [item])
            return
        with self._cond:
            if self._thread is None or self._pid != os.getpid():  # first use, or a forked child
                self._items, self._pid = [], os.getpid()
                self._thread = threading.Thread(target=self._loop, name=f"batch-{self.task.name}", daemon=True)
                self._thread.start()
                atexit.register(self.flush)  # a short-lived process (a management command) sends its last items
            self._items.append(item)
            if len(self._items) == 1 or len(self._items) >= self.max_items:
                self._cond.notify()

    def flush(self) -> None:
        """Send what is waiting now (tests, shutdown)."""
        with self._cond:
            items, self._items = self._items, []
        self._send(items)

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._items:
                    self._cond.wait()
                if len(self._items) < self.max_items:
                    self._cond.wait(self.window)
                items, self._items = self._items, []
            self._send(items)

    def _send(self, items: list[Any]) -> None:
        if not items:
            return
        try:
            self.task.apply_async(args=[items])
        except Exception:  # the broker is away: keep the items for the next batch
            log.exception("could not send a batch of %d %s items; retrying", len(items), self.task.name)
            time.sleep(min(self.window * 50, 1.0))
            with self._cond:
                self._items[:0] = items


def wait_for_thread_tasks(timeout: float = 30.0) -> None:
    """Test helper: wait until the in-process pool is idle (thread mode only)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=True)
        _pool = None
    with _pools_lock:
        pools = list(_queue_pools.values())
        _queue_pools.clear()
    for pool in pools:
        pool.shutdown(wait=True)


def register_tasks() -> Any:
    """Import every app's ``tasks`` module, as a Celery worker does at start (``autodiscover_tasks`` is
    lazy: only a worker triggers it). A web process that runs the beat in-process (the embedded run) looks
    its tasks up by name, so it must know them all. Returns the Celery app."""
    app.loader.import_default_modules()
    return app


def start_embedded_beat(poll_seconds: float = 1.0, stop: threading.Event | None = None) -> threading.Thread | None:
    """Run ``CELERY_BEAT_SCHEDULE`` in-process (thread mode only: the embedded run has no beat).

    Deadlines, AI-turn resumption, pairing, reminders and digests then work in ``make run`` too.
    Each entry's task is enqueued on the same thread pool every ``schedule`` seconds, until
    ``stop`` is set (never, for the server).
    """
    if settings.TASK_MODE != "thread":
        return None
    app = register_tasks()
    missing = sorted({entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()} - set(app.tasks))
    if missing:
        log.error("embedded beat: no such task: %s", ", ".join(missing))

    entries = {name: (entry["task"], float(entry["schedule"]))
               for name, entry in settings.CELERY_BEAT_SCHEDULE.items()}
    start = time.monotonic()
    due = {name: start + every for name, (_, every) in entries.items()}

    stop = stop or threading.Event()

    def loop() -> None:
        while not stop.wait(poll_seconds):
            now = time.monotonic()
            for name, (task_name, every) in entries.items():
                if now >= due[name]:
                    due[name] = now + every
                    try:
                        enqueue(app.tasks[task_name])
                    except Exception:  # a broken entry must not stop the others
                        log.exception("embedded beat: could not start %s", task_name)

    thread = threading.Thread(target=loop, name="claim-embedded-beat", daemon=True)
    thread.start()
    log.info("embedded beat started: %s", ", ".join(sorted(entries)))
    return thread
