"""Background work of the tournaments (issue 36): a game's result reaching its tournament, starting a full
tournament, and the beat task (the leagues' seasons too) (``tournaments.tick`` in ``CELERY_BEAT_SCHEDULE``)."""

from __future__ import annotations

from celery import shared_task

from . import league, reminders, service


@shared_task(acks_late=True, name="tournaments.record_game")
def record_game_task(game_id: int) -> bool:
    """A game ended: record it in its tournament (if it is a tournament game), pair the next round when due."""
    return service.record_game(game_id)


@shared_task(acks_late=True, name="tournaments.start")
def start_tournament_task(tournament_id: int) -> str:
    """Start a tournament that just filled up."""
    return str(service.start(tournament_id).status)


@shared_task(acks_late=True, name="tournaments.tick")
def tick_task() -> dict[str, int]:
    """Periodic: start the tournaments whose start time passed (cancelled below ``min_players``), tell the entrants
    of those starting within the hour (once), adjudicate the games past their tournament's maximum duration, record
    the results a lost task left behind; drive the leagues (a season over: promotion and relegation, the next season
    started; :func:`games.tournaments.league.tick`)."""
    return {"started": service.start_due(), "reminded": reminders.remind_due(), "settled": service.adjudicate_due(),
            "seasons": league.tick()}
