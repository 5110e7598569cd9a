"""Signals other apps (ratings, notifications, clocks) use to follow games without the service
knowing them.

``game_changed`` is sent after a change to a game has been committed (one per new version), from
whatever thread or worker made the change, with ``game_id``, ``version`` and ``status`` (the
game's status after the change: "open", "active", "finished" or "aborted"). Receivers must be
quick and must not raise (errors are logged and swallowed: ``send_robust``); heavy work goes
through ``claim.tasks.enqueue``.
"""

from __future__ import annotations

import logging

from django.dispatch import Signal

log = logging.getLogger(__name__)

game_changed = Signal()


def send_game_changed(game_id: int, version: int, status: str) -> None:
    from games.models import Game

    for receiver, response in game_changed.send_robust(sender=Game, game_id=game_id, version=version,
                                                       status=status):
        if isinstance(response, Exception):
            log.error("game_changed receiver %r failed for game %s v%s: %r", receiver, game_id, version, response)
