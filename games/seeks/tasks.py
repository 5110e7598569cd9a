from __future__ import annotations

from celery import shared_task

from .service import pair_all


@shared_task(acks_late=True, name="seeks.pair_all")
def pair_all_task() -> int:
    """Periodic pairing (windows widen while seeks wait) and the AI fallback of quick seeks."""
    return pair_all()
