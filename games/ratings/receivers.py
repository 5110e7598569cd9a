"""Follows games through ``games.signals.game_changed``: a finished game is rated in the background."""

from __future__ import annotations

from typing import Any


def on_game_changed(sender: Any, game_id: int, version: int, status: str, **kwargs: Any) -> None:
    if status != "finished":
        return
    from claim.tasks import enqueue

    from .tasks import rate_game_task

    enqueue(rate_game_task, game_id)  # the signal is sent after the commit already
