from __future__ import annotations

from celery import shared_task

from .service import expire_due


@shared_task(acks_late=True, name="challenges.expire")
def expire_challenges_task() -> int:
    """Periodic: mark pending challenges past their ``expires_at`` expired (with their events)."""
    return expire_due()
