"""Celery beat task: deadlines that passed (idempotent by game version)."""

from __future__ import annotations

from celery import shared_task

from games.models import Game, GameClock

from .service import announce_vacation, expire_deadline, expired_games, sync_bank_deadline


@shared_task(acks_late=True, name="clock.expire_deadlines")
def expire_deadlines_task() -> int:
    """End the turn of every seat past its deadline; also repairs bank deadlines a lost receiver left unset.
    Returns how many games ended on time or had a seat replaced (vacation extensions are not counted)."""
    for gid, version in (Game.objects.filter(status=Game.Status.ACTIVE, deadline__isnull=True,
                                             clock__control=GameClock.Control.BANK, clock__paused_at__isnull=True)
                         .values_list("pk", "version")[:500]):
        sync_bank_deadline(gid, version)
    done = 0
    for gid, version in expired_games():
        if expire_deadline(gid, version) in ("timeout", "replaced"):
            done += 1
    return done


@shared_task(acks_late=True, name="clock.announce_vacation")
def announce_vacation_task(user_id: int, old: list[str] | None = None, new: list[str] | None = None) -> int:
    """A user's vacation periods changed: their active games show it (:func:`service.announce_vacation`)."""
    return announce_vacation(user_id, old, new)
