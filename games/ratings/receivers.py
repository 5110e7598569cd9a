"""Follows games through ``games.signals``: a starting game shows each seat's rating (``game_starting``),
a finished game is rated in the background (``game_changed``)."""

from __future__ import annotations

from typing import Any

import claim.tasks

from .service import ratings_for_seats
from .tasks import rate_game_task


def on_game_changed(sender: Any, game_id: int, version: int, status: str, **kwargs: Any) -> None:
    if status != "finished":
        return
    claim.tasks.enqueue(rate_game_task, game_id)  # the signal is sent after the commit already


def on_game_starting(sender: Any, game: Any, seats: list[Any], **kwargs: Any) -> None:
    """Every seat shows the rating its player had when the game started (one read; the game service stores the
    seats' ``rating`` with the start)."""
    for seat, rating in zip(seats, ratings_for_seats(game.kind, game.seat_count, seats), strict=True):
        seat.rating = rating
