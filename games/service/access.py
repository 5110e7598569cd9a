"""Who may see and act in a game.

* A game is visible to the users seated in it (joined or invited), and to those whose seat the AI took
  when their time ran out (``departed``). Finished games are public (their
  record is public, like a chess PGN). Everyone else gets 404 for open, active and aborted games, so
  the API never tells a stranger anything about a private game.
* Acting needs a joined seat: a stranger on a visible (finished) game gets 403 ``not_seated``, an
  invited user who has not joined yet gets 403 ``not_joined``.
"""

from __future__ import annotations

from typing import Any

from games.models import Game, Seat, SeatDeparture

from ._common import lock_game, seat_of_user, seats_of
from .errors import Conflict, Forbidden, GameNotFound


def is_visible(game: Game, seats: list[Seat], user: Any) -> bool:
    if game.status == Game.Status.FINISHED or seat_of_user(seats, user) is not None:
        return True
    return departed(game, user)


def departed(game: Game, user: Any) -> bool:
    """The user played in the game until their time ran out and the AI took the seat (3-4 seats): they
    keep watching it, as a spectator (one query, only for users not seated in it)."""
    if not getattr(user, "is_authenticated", False):
        return False

    return SeatDeparture.objects.filter(game_id=game.pk, user_id=user.pk).exists()


def require_visible(game: Game, seats: list[Seat], user: Any) -> Seat | None:
    if not is_visible(game, seats, user):
        raise GameNotFound()
    return seat_of_user(seats, user)


def require_joined_seat(game: Game, seats: list[Seat], user: Any) -> Seat:
    mine = require_visible(game, seats, user)
    if mine is None:
        raise Forbidden("You are not seated in this game.", code="not_seated")
    if not mine.joined:
        raise Forbidden("You are invited to this game: join it first.", code="not_joined")
    return mine


def lock_joined_seat(user: Any, game_id: int, *, active: str | None = None) -> tuple[Game, list[Seat], Seat]:
    """Game ``game_id`` locked until the transaction ends, its seats, and the user's joined seat (404/403 as
    :func:`require_joined_seat`). With ``active``, a game not in play is 409 ``not_active`` with that message."""
    game = lock_game(game_id)
    seats = seats_of(game)
    mine = require_joined_seat(game, seats, user)
    if active is not None and game.status != Game.Status.ACTIVE:
        raise Conflict(active, code="not_active")
    return game, seats, mine
