"""Turns game changes into notifications: challenge_received, your_turn, opponent_moved, game_over."""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger("games.notify")


def on_game_changed(sender: Any, game_id: int, version: int, status: str, **kwargs: Any) -> None:
    from games.models import Game, GameEvent, Seat

    from .service import notify

    event = GameEvent.objects.filter(game_id=game_id, version=version).first()
    if event is None:
        return
    game = Game.objects.filter(pk=game_id).only("kind", "status").first()
    if game is None:
        return
    seats = list(Seat.objects.filter(game_id=game_id, user__isnull=False, ai_level__isnull=True)
                 .select_related("user"))
    actor = event.seat
    title = f"Game {game_id} ({game.kind})"
    if event.type == "created" and status == "open":
        creator = next((s for s in seats if s.index == actor), None)
        who = creator.user.public_name if creator else "Someone"
        for s in seats:
            if s.joined_at is None:
                notify(s.user, "challenge_received", game_id, title=f"{who} challenges you",
                       body=f"{title}: accept or decline.")
        return
    if status == "finished":
        for s in seats:
            outcome = {"win": "You won", "loss": "You lost", "draw": "Draw"}.get(s.outcome, "Game over")
            notify(s.user, "game_over", game_id, title=f"{outcome}: {title}", body="The game is over.",
                   data={"outcome": s.outcome, "rank": s.rank})
        return
    if status != "active" or event.type not in ("move", "joined", "created", "timeout"):
        return
    for s in seats:
        if s.index == actor:
            continue
        if s.to_act:
            notify(s.user, "your_turn", game_id, title=f"Your turn: {title}", body="It is your move.")
        elif event.type == "move":
            notify(s.user, "opponent_moved", game_id, title=f"Move in {title}", body="An opponent moved.")
