"""The review's Celery task, on its own queue ``review`` (``CELERY_TASK_ROUTES``: a review is seconds of CPU, never
in the way of an AI's turn), and the request that starts it."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import transaction

from claim.tasks import enqueue

from . import service
from .models import Review


@shared_task(acks_late=True, name="review.compute")
def compute_review_task(game_id: int) -> bool:
    """Compute the review of ``game_id`` (idempotent: :func:`service.compute`)."""
    return service.compute(game_id)


def request_review(user: Any, game_id: int) -> tuple[Review, bool]:
    """:func:`service.request_review`, then ``review.compute`` enqueued after the commit when it queued one."""
    review, queued = service.request_review(user, game_id)
    if queued:
        transaction.on_commit(lambda: enqueue(compute_review_task, game_id))
    return review, queued
