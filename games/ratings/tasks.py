"""Celery tasks of the ratings app (started through :func:`claim.tasks.enqueue`)."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from games.models import Game

from .service import rate_game


@shared_task(acks_late=True, name="ratings.rate_game")
def rate_game_task(game_id: int) -> bool:
    """Rate a finished game. Idempotent: the unique RatedGame row makes a second run a no-op."""
    return rate_game(game_id)


@shared_task(acks_late=True, name="ratings.rate_unrated_games")
def rate_unrated_games_task(limit: int = 200) -> int:
    """Safety net for beat: rate finished games the signal missed (a worker died before the task ran)."""
    since = timezone.now() - timedelta(days=2)
    ids = list(Game.objects.filter(Q(rated=True) | Q(seats__ai_level__isnull=False), status=Game.Status.FINISHED,
                                   finished_at__gte=since, rating_record__isnull=True)
               .order_by("-finished_at").values_list("pk", flat=True).distinct()[:limit])
    return sum(1 for gid in ids if rate_game(gid))
