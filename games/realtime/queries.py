"""The few database reads the socket needs (sync; the consumer wraps them in database_sync_to_async)."""

from __future__ import annotations

from typing import Any

from games.models import Seat
from games.service.payload import game_view_payload

from .publish import load_game_and_seats


def seated_game_versions(user_id: int, game_ids: list[int]) -> dict[int, int]:
    """``{game_id: version}`` for those of ``game_ids`` in which ``user_id`` holds a seat."""
    rows = Seat.objects.filter(user_id=user_id, game_id__in=game_ids).values_list("game_id", "game__version")
    return dict(rows)


def current_view(user, game_id: int) -> dict[str, Any] | None:
    """``{"game_id", "version", "view"}`` of ``user``'s own view, or None if they do not sit in the game.

    "No such game" and "not your game" are the same answer, so the socket never reveals which
    game ids exist.
    """
    game, seats = load_game_and_seats(game_id)
    if game is None or not any(seat.user_id == user.pk for seat in seats):
        return None
    return {"game_id": game.pk, "version": game.version, "view": game_view_payload(game, user, seats=seats)}
