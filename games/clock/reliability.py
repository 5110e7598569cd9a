"""Reliability: the share of a player's recent finished games that ended without a timeout or abandon
on their side, recent games weighted more (weight 0.9^k for the k-th most recent of the last 50), with
one miss forgiven per 20 games. A player without finished games is 100."""

from __future__ import annotations

from typing import Any

from games.models import Game, Seat, SeatDeparture

WINDOW = 50
DECAY = 0.9
FORGIVE_EVERY = 20


def missed_games(user: Any) -> set[int]:
    """Game ids the user lost on time or left (replaced by the AI)."""

    left = set(SeatDeparture.objects.filter(user=user).values_list("game_id", flat=True))
    timeouts = Seat.objects.filter(user=user, game__ended_reason="timeout", outcome=Seat.Outcome.LOSS,
                                   game__status=Game.Status.FINISHED).values_list("game_id", flat=True)
    return left | set(timeouts)


def reliability(user: Any) -> int:

    played = set(Game.objects.filter(seats__user=user, status=Game.Status.FINISHED).values_list("pk", flat=True))
    played |= set(SeatDeparture.objects.filter(user=user).values_list("game_id", flat=True))
    recent = list(Game.objects.filter(pk__in=played).order_by("-finished_at", "-pk").values_list("pk", flat=True)
                  [:WINDOW])
    if not recent:
        return 100
    missed = missed_games(user)
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
