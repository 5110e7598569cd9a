"""Reliability: the share of a player's recent finished games that ended without a timeout or abandon
on their side, recent games weighted more (weight 0.9^k for the k-th most recent of the last 50), with
one miss forgiven per 20 games. A player without finished games is 100.

"Recent games" are the player's finished games and the games they left (timed out in a 3-4 player game, the
seat handed to the AI, :class:`games.models.SeatDeparture`), newest end first; a game left that has not ended
yet counts as the newest. Cost (issue 35: public profiles show it): the :data:`WINDOW` latest finished seats by
the index ``seat_user_finished`` (each seat's game by its key, for how it ended) and the player's departures by
their user index, at most :data:`WINDOW` of them: two bounded queries, whatever the length of the history.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import F

from games.models import Seat, SeatDeparture

WINDOW = 50
DECAY = 0.9
FORGIVE_EVERY = 20


def _newest_first(game_id: int, finished_at: datetime | None) -> tuple[bool, float, int]:
    """The sort key of a recent game, newest first: a game not ended yet first, then by end, then by id."""
    return (finished_at is None, finished_at.timestamp() if finished_at is not None else 0.0, game_id)


def recent_games(user: Any) -> tuple[list[int], set[int]]:
    """The ids of the user's :data:`WINDOW` most recent games (newest first) and those of them the user missed
    (lost on time, or left)."""
    finished = list(Seat.objects.filter(user=user, finished_at__isnull=False).order_by("-finished_at", "-game_id")
                    .values_list("game_id", "finished_at", "outcome", "game__ended_reason")[:WINDOW])
    left = list(SeatDeparture.objects.filter(user=user)
                .order_by(F("game__finished_at").desc(nulls_first=True), "-game_id")
                .values_list("game_id", "game__finished_at")[:WINDOW])
    ended = {gid: at for gid, at, _outcome, _reason in finished}
    ended.update(dict(left))
    recent = sorted(ended, key=lambda gid: _newest_first(gid, ended[gid]), reverse=True)[:WINDOW]
    missed = {gid for gid, _ in left} | {gid for gid, _at, outcome, reason in finished
                                         if reason == "timeout" and outcome == Seat.Outcome.LOSS}
    return recent, missed


def reliability(user: Any) -> int:
    """0-100 (module docstring)."""
    recent, missed = recent_games(user)
    if not recent:
        return 100
    forgive = len(recent) // FORGIVE_EVERY
    total = good = 0.0
    for k, gid in enumerate(recent):
        w = DECAY**k
        total += w
        if gid in missed and forgive > 0:
            forgive -= 1
            good += w
        elif gid not in missed:
            good += w
    return round(100 * good / total)
