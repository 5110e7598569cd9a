"""Celery tasks of the notifications app (found by Celery's autodiscovery here; defined beside the
functions they run, in :mod:`games.notify.service`)."""

from __future__ import annotations

from .service import deliver_task, send_digests_task, send_reminders_task

__all__ = ["deliver_task", "send_digests_task", "send_reminders_task"]
