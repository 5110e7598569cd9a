"""The Celery app. Tasks live in each app's ``tasks.py``; see :mod:`claim.tasks` for dispatch."""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claim.settings")

app = Celery("claim")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _background_loop(**_: object) -> None:
    """Channel-layer sends of this worker process (AI moves' pushes, notifications) run on one loop
    for the process's life instead of a new loop and Redis connection per send (claim/loops.py)."""
    from claim.loops import start_background_loop

    start_background_loop()
