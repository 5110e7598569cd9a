from __future__ import annotations

from celery import shared_task
from django.conf import settings

from claim.tasks import enqueue

from .service import fallback_due, pair_groups, plan_round


@shared_task(acks_late=True, name="seeks.pair_all")
def pair_all_task() -> int:
    """Periodic pairing (windows widen while seeks wait): the round's groups found in one pass
    (:func:`~games.seeks.service.plan_round`), their games made by :func:`pair_groups_task` in chunks of
    ``SEEK_PAIR_CHUNK`` groups on the queue (several workers share a large round), then the AI fallback of
    quick seeks not planned into a group. Returns the groups planned plus the AI games made."""
    groups = plan_round()
    size = max(1, int(getattr(settings, "SEEK_PAIR_CHUNK", 50)))
    for start in range(0, len(groups), size):
        enqueue(pair_groups_task, groups[start:start + size])
    return len(groups) + fallback_due(planned={sid for group in groups for sid in group})


@shared_task(acks_late=True, name="seeks.pair_groups")
def pair_groups_task(groups: list[list[int]]) -> int:
    """One chunk of a round's groups (:func:`~games.seeks.service.pair_groups`: idempotent, a group with a
    seek no longer open is skipped). Returns the games made."""
    return pair_groups(groups)
