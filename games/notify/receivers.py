"""Turns game changes into notifications: challenge_received, your_turn, opponent_moved, game_over.

Runs in the background task after every committed version, so it is kept cheap: the history entry (with
the game's kind) and the seated humans are two queries; users looking at the game are dropped with one
cache round trip before anything else is read; their channels come in one query for all seats and the
notifications in one INSERT (:func:`games.notify.service.notify_many`). A move watched by everyone it
concerns costs two queries and sends nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from claim.rowsql import ValuesSelect
from games.models import GameEvent, Seat

log = logging.getLogger("games.notify")

# The receiver's two SELECTs, written once (claim/rowsql.py): the version's history entry with the game's
# kind, and the seated humans in seat order.
_EVENT = ValuesSelect(GameEvent, ["type", "seat", "game__kind"], where="t0.game_id = %s AND t0.version = %s")
_HUMAN_SEATS = ValuesSelect(Seat, ["index", "user_id", "joined_at", "to_act", "outcome", "rank"],
                            where="t0.game_id = %s AND t0.user_id IS NOT NULL AND t0.ai_level IS NULL",
                            order_by='t0."index"')

#: Entries of an active game that may start someone's turn.
TURN_EVENTS = ("move", "joined", "created", "timeout")


def on_game_changed(sender: Any, game_id: int, version: int, status: str, **kwargs: Any) -> None:
    from .service import notify_many

    rows = _EVENT.rows([game_id, version])
    if not rows:
        return
    type_, actor, kind = rows[0]
    challenge = type_ == "created" and status == "open"
    if not (challenge or status == "finished" or (status == "active" and type_ in TURN_EVENTS)):
        return
    seats = _HUMAN_SEATS.rows([game_id])
    title = f"Game {game_id} ({kind})"
    if challenge:
        invited = [(uid, f"{_name(seats, actor)} challenges you", f"{title}: accept or decline.", None)
                   for _, uid, joined, *_ in seats if joined is None]
        notify_many("challenge_received", game_id, invited)
        return
    if status == "finished":
        items = []
        for _, uid, _, _, outcome, rank in seats:
            said = {"win": "You won", "loss": "You lost", "draw": "Draw"}.get(outcome, "Game over")
            items.append((uid, f"{said}: {title}", "The game is over.", {"outcome": outcome, "rank": rank}))
        notify_many("game_over", game_id, items)
        return
    turn = [(uid, f"Your turn: {title}", "It is your move.", None)
            for index, uid, _, to_act, *_ in seats if index != actor and to_act]
    moved = [(uid, f"Move in {title}", "An opponent moved.", None)
             for index, uid, _, to_act, *_ in seats if index != actor and not to_act] if type_ == "move" else []
    notify_many("your_turn", game_id, turn)
    notify_many("opponent_moved", game_id, moved)


def _name(seats: list[tuple[Any, ...]], actor: int | None) -> str:
    """The public name of the seat that created the game (one query, only for a challenge)."""
    from django.contrib.auth import get_user_model

    uid = next((s[1] for s in seats if s[0] == actor), None)
    user = get_user_model().objects.filter(pk=uid).first() if uid is not None else None
    return user.public_name if user is not None else "Someone"
