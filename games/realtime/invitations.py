"""``invitation_received`` and ``invitation_cancelled``: a user invited by username to a seat of an open game
(``POST /games`` with a ``user`` opponent, a 3-4 seat rematch) hears it on their sockets and account stream.

:func:`on_game_committed` receives ``games.signals.game_committed`` (``games.apps`` connects it; the service does
not import this module), so each runs once per committed change, after the commit, in the process that made it:

* a ``created`` version of an open game: ``invitation_received`` to each invited user whose seat is still not
  joined and whose account is active, now (a seek's pairing creates the game and joins every invited user in one
  transaction: they are told ``match_found``, never invited);
* an ``aborted`` version (the game called off while open: by its creator, an invitee declining, an account
  closing): ``invitation_cancelled`` to each invited user who had not joined.

An invited seat is held for its user (no code or AI can take it), so no game starts without them: these two are
the whole life of an invitation besides the user's own join (which the ``game`` frames and ``game_started`` say).
Cost: other changes read nothing; these two read the game and its seats once (one query,
:func:`games.realtime.publish.load_game_and_seats`). Best effort like every push (``GET /games?status=open``
lists the invitations).
"""

from __future__ import annotations

import logging
from typing import Any

from games.models import Game
from games.service.payload import game_summary

from .lifecycle import EVENT_MESSAGE
from .publish import load_game_and_seats, send_to_groups, user_group
from .types import InvitationCancelledEvent, InvitationReceivedEvent

logger = logging.getLogger(__name__)


def _public_user(user: Any) -> dict[str, Any]:
    """``PublicUser``: ``{username, name, is_bot}``."""
    return {"username": user.username, "name": user.public_name, "is_bot": user.is_bot}


def _invited(seats: list[Any]) -> list[Any]:
    """The active users of the seats they were invited to and have not joined, one entry per user."""
    found: dict[int, Any] = {}
    for seat in seats:
        if seat.user_id is not None and seat.joined_at is None and seat.user is not None and seat.user.is_active:
            found.setdefault(seat.user_id, seat.user)
    return list(found.values())


def received_frames(game: Any, seats: list[Any]) -> list[tuple[int, InvitationReceivedEvent]]:
    """``(user id, invitation_received)`` for each user still invited to open ``game`` (none once it started)."""
    if game.status != Game.Status.OPEN or game.created_by_id is None:
        return []
    creator = next((s.user for s in seats if s.user_id == game.created_by_id), None) or game.created_by  # seated
    by = _public_user(creator)
    return [(user.pk, {"type": "invitation_received", "game_id": game.pk, "by": by,
                       "game": game_summary(game, user, seats)}) for user in _invited(seats)]


def cancelled_frames(game: Any, seats: list[Any]) -> list[tuple[int, InvitationCancelledEvent]]:
    """``(user id, invitation_cancelled)`` for each user invited to aborted ``game`` who never joined it."""
    if game.status != Game.Status.ABORTED:
        return []
    return [(user.pk, {"type": "invitation_cancelled", "game_id": game.pk, "reason": "aborted",
                       "game": game_summary(game, user, seats)}) for user in _invited(seats)]


def _change(parts: Any) -> str | None:
    """The committed version's history entry type when the service passed it (``parts``), else None."""
    return getattr(getattr(parts, "last_event", None), "type", None)


def on_game_committed(sender: Any = None, *, game_id: int, status: str, game: Any = None, seats: Any = None,
                      parts: Any = None, **kwargs: Any) -> None:
    """``game_committed`` receiver (module docstring). Never raises."""
    try:
        if status == Game.Status.OPEN:
            # create_game passes its parts; a created game with no invited seat (or none left) reads nothing
            if game is None or _change(parts) != "created" or not any(
                    s.user_id is not None and s.joined_at is None for s in seats or []):
                return
            current, rows = load_game_and_seats(game_id)  # as it is now: a seek's pairing joined everyone
            frames: list[tuple[int, Any]] = [] if current is None else list(received_frames(current, rows))
        elif status == Game.Status.ABORTED:
            current, rows = load_game_and_seats(game_id)
            frames = [] if current is None else list(cancelled_frames(current, rows))
        else:
            return
    except Exception as exc:  # a push must never break what caused it
        logger.warning("invitation events of game %s failed: %s: %s", game_id, type(exc).__name__, exc)
        return
    if frames:
        send_to_groups([(user_group(uid), {"type": EVENT_MESSAGE, "frame": frame}) for uid, frame in frames],
                       f"invitation events of game {game_id}")
