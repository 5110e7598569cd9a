"""Dispatching background work the same way on one laptop and on many machines.

``enqueue(task, *args)`` is the only way the code base starts background work. It never runs the
task inside the caller (an AI turn must never block the HTTP request that caused it), except in
``eager`` mode, which tests use for determinism:

* ``celery``: ``task.apply_async`` through the broker (``REDIS_URL``).
* ``thread``: an in-process thread pool runs ``task.apply`` (embedded default: no broker).
* ``eager``: run inline, now.

Call it from ``transaction.on_commit`` so the task sees the committed row.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)
_pool: ThreadPoolExecutor | None = None


def _get_pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="claim-task")
    return _pool


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
    return _get_pool().submit(_run_in_thread, task, args, kwargs)


def wait_for_thread_tasks(timeout: float = 30.0) -> None:
    """Test helper: wait until the in-process pool is idle (thread mode only)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=True)
        _pool = None
