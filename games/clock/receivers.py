"""Follows games: bank deadlines after every change, a move ends a pause.

The background task hands the receiver its whole batch of changes (:func:`on_game_changes`): the clocks
of all the batch's active games are read in one query, then each change is followed as
:func:`on_game_changed` would follow it alone (ending a pause or writing the bank deadline, each in
its own locked, version-checked transaction).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import GameClock
from games.service import lock_game, seats_of
from games.service.clock import end_pause, write_bank
from games.signals import Change, batched

from . import service

log = logging.getLogger("games.clock")

# What a change is followed by, read after every committed version of an active game.
_FIELDS = ["control", "paused_at", "paused_version"]


def _clocks(game_ids: list[int]) -> dict[int, tuple[Any, ...]]:
    return {game_id: tuple(row) for game_id, *row in GameClock.objects.filter(game_id__in=game_ids)
            .values_list("game", *_FIELDS)}


def on_game_changes(changes: list[Change]) -> None:
    """:func:`on_game_changed` for each change in turn, with one query for the clocks of all of them.
    A clock whose pause one of the changes ended (or whose change failed) is read again before the next
    change of its game; a failing change is logged and the others go on."""
    active = [(game_id, version) for game_id, version, status in changes if status == "active"]
    if not active:
        return
    clocks: dict[int, tuple[Any, ...] | None] = dict(_clocks(list(dict.fromkeys(g for g, _ in active))))
    stale: set[int] = set()
    for game_id, version in active:
        if game_id in stale:
            clocks[game_id] = _clocks([game_id]).get(game_id)
            stale.discard(game_id)
        row = clocks.get(game_id)
        if row is None:
            continue
        try:
            if _follow(game_id, version, *row):
                stale.add(game_id)
        except Exception:
            log.exception("clock receiver failed for game %s v%s", game_id, version)
            stale.add(game_id)


@batched(on_game_changes)
def on_game_changed(sender: Any, game_id: int, version: int, status: str, **kwargs: Any) -> None:
    if status != "active":
        return
    row = _clocks([game_id]).get(game_id)
    if row is not None:
        _follow(game_id, version, *row)


def _follow(game_id: int, version: int, control: str, paused_at: Any, paused_version: int | None) -> bool:
    """Act on one change of an active game given its clock row; True if the row may have changed (a
    pause was ended; writing the bank deadline leaves these three fields as they are)."""
    if paused_at is not None and paused_version is not None and version > paused_version:
        _end_pause_by_move(game_id, version)
        return True
    if control == GameClock.Control.BANK:
        service.sync_bank_deadline(game_id, version)
    return False


def _end_pause_by_move(game_id: int, version: int) -> None:
    """Someone moved during a pause: the pause is over (the move already set a fresh deadline)."""
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
