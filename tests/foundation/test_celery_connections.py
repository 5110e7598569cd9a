"""A Celery worker keeps its database connection across tasks, as Django keeps one across requests.

Celery's Django fixup closes every connection before and after each task unless ``CELERY_DB_REUSE_MAX``
is set: a new PostgreSQL backend per task, a connection set-up per AI turn or deadline. With it set, the
fixup leaves connections alone and ``claim.celery`` applies Django's own policy around each task
(``close_old_connections``: ``CONN_MAX_AGE``, unusable connections).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from celery import signals
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection

from claim.celery import app
from games.tasks import game_changed_task

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def worker_fixup() -> Iterator[DjangoWorkerFixup]:
    """Celery's fixup as a worker installs it (its per-task handlers), removed afterwards."""
    fixup = DjangoWorkerFixup(app)
    signals.task_prerun.connect(fixup.on_task_prerun)
    signals.task_postrun.connect(fixup.on_task_postrun)
    try:
        yield fixup
    finally:
        signals.task_prerun.disconnect(fixup.on_task_prerun)
        signals.task_postrun.disconnect(fixup.on_task_postrun)


@pytest.fixture
def persistent_connection() -> Iterator[Any]:
    """The default connection opened afresh with ``CONN_MAX_AGE`` = 600 and no pool (a prefork child's)."""
    saved = connection.settings_dict.get("CONN_MAX_AGE"), dict(connection.settings_dict.get("OPTIONS") or {})
    connection.close()
    connection.settings_dict["CONN_MAX_AGE"] = 600
    connection.settings_dict["OPTIONS"] = {k: v for k, v in saved[1].items() if k != "pool"}
    connection.ensure_connection()
    try:
        yield connection.connection
    finally:
        connection.close()
        connection.settings_dict["CONN_MAX_AGE"], connection.settings_dict["OPTIONS"] = saved


def _run_task_signals(task: Any) -> None:
    """What the worker sends around one (non-eager) task."""
    signals.task_prerun.send(sender=task, task_id="t1", task=task, args=(), kwargs={})
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    signals.task_postrun.send(sender=task, task_id="t1", task=task, args=(), kwargs={}, retval=None, state="SUCCESS")


def test_the_fixup_is_told_to_leave_connections_open(worker_fixup: DjangoWorkerFixup) -> None:
    assert worker_fixup.db_reuse_max and worker_fixup.db_reuse_max >= 10**9


def test_one_connection_serves_many_tasks(worker_fixup: DjangoWorkerFixup, persistent_connection: Any) -> None:
    assert not game_changed_task.request.is_eager
    for _ in range(5):
        _run_task_signals(game_changed_task)
    assert connection.connection is persistent_connection  # the same backend: no reconnect per task


def test_an_unusable_connection_is_dropped_after_the_task(worker_fixup: DjangoWorkerFixup,
                                                          persistent_connection: Any) -> None:
    """Django's rule after an error: a connection that no longer works is closed, the next task opens one."""
    signals.task_prerun.send(sender=game_changed_task, task_id="t2", task=game_changed_task, args=(), kwargs={})
    connection.errors_occurred = True
    persistent_connection.close()  # the server went away under it
    signals.task_postrun.send(sender=game_changed_task, task_id="t2", task=game_changed_task, args=(), kwargs={},
                              retval=None, state="FAILURE")
    assert connection.connection is None
    _run_task_signals(game_changed_task)
    assert connection.connection is not None and connection.connection is not persistent_connection


def test_an_expired_connection_is_closed_after_the_task(worker_fixup: DjangoWorkerFixup,
                                                        persistent_connection: Any) -> None:
    connection.close_at = 0  # CONN_MAX_AGE has passed
    signals.task_postrun.send(sender=game_changed_task, task_id="t3", task=game_changed_task, args=(), kwargs={},
                              retval=None, state="SUCCESS")
    assert connection.connection is None
