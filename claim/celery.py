"""The Celery app. Tasks live in each app's ``tasks.py``; see :mod:`claim.tasks` for dispatch."""

from __future__ import annotations

import logging
import os
import socket
import threading
import time

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init, worker_process_init, worker_ready
from django.conf import settings
from django.db import close_old_connections

from claim.loops import start_background_loop

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claim.settings")

app = Celery("claim")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _lower_priority(**_: object) -> None:
    """The worker (and the pool processes it forks) runs ``WORKER_NICE`` nicer than the web server: its work
    is background work, and under load the CPU goes first to the moves and pushes."""
    if settings.WORKER_NICE:
        os.nice(settings.WORKER_NICE)


@worker_process_init.connect
def _background_loop(**_: object) -> None:
    """Channel-layer sends of this worker process (AI moves' pushes, notifications) run on one loop
    for the process's life instead of a new loop and Redis connection per send (claim/loops.py)."""
    start_background_loop()


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(sender: object = None, **_: object) -> None:
    """Around each task, what Django does around each request: close connections past ``CONN_MAX_AGE``
    or left unusable by an error, keep the rest (``CELERY_DB_REUSE_MAX`` stops the fixup closing them
    all). Eager tasks run inside their caller's request or test, so they are left alone."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    close_old_connections()


@worker_ready.connect
def _heartbeat(sender: object = None, **_: object) -> None:
    """The worker's heartbeat in Redis every few seconds (a thread of the worker's main process, so a pool
    busy with long tasks still counts as alive): ``/api/v1/health`` reads it instead of pinging the workers
    and waiting (claim/health.py)."""
    # claim/__init__ imports this module while the settings load; claim.health imports DRF, which needs them.
    from claim.health import HEARTBEAT_EVERY, write_heartbeat  # noqa: PLC0415

    hostname = getattr(sender, "hostname", None) or socket.gethostname()

    def beat() -> None:
        while True:
            try:
                write_heartbeat(hostname)
            except Exception:  # Redis down: health reports it; the worker carries on
                logging.getLogger(__name__).warning("worker heartbeat: Redis unreachable")
            time.sleep(HEARTBEAT_EVERY)

    threading.Thread(target=beat, name="claim-heartbeat", daemon=True).start()
