"""Follows games: bank deadlines after every change, a move ends a pause."""

from __future__ import annotations

import logging
from typing import Any

from claim.rowsql import ValuesSelect

from .models import GameClock

log = logging.getLogger("games.clock")

# Read after every committed version of an active game: written once (claim/rowsql.py).
_CLOCK = ValuesSelect(GameClock, ["control", "paused_at", "paused_version"], where="t0.game_id = %s")


def on_game_changed(sender: Any, game_id: int, version: int, status: str, **kwargs: Any) -> None:
    if status != "active":
        return
    rows = _CLOCK.rows([game_id])
    if not rows:
        return
    control, paused_at, paused_version = rows[0]
    if paused_at is not None and paused_version is not None and version > paused_version:
        _end_pause_by_move(game_id, version)
    elif control == GameClock.Control.BANK:
        from games.service.clock import sync_bank_deadline

        sync_bank_deadline(game_id, version)


def _end_pause_by_move(game_id: int, version: int) -> None:
    """Someone moved during a pause: the pause is over (the move already set a fresh deadline)."""
    from django.db import transaction
    from django.utils import timezone

    from games.service._common import lock_game, seats_of
    from games.service.clock import end_pause, write_bank

    with transaction.atomic():
        game = lock_game(game_id)
        clock = GameClock.objects.select_for_update().get(game=game)
        if clock.paused_at is None or game.version != version:
            return
        seats = seats_of(game)
        end_pause(game, clock, seats, timezone.now())
        if clock.control == GameClock.Control.BANK:
            game.deadline = write_bank(game, clock, seats)
            game.save(update_fields=["deadline"])
