"""The Celery app. Tasks live in each app's ``tasks.py``; see :mod:`claim.tasks` for dispatch."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claim.settings")

app = Celery("claim")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
