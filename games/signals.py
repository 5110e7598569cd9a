"""Signals other apps (ratings, notifications, clocks) use to follow games without the service
knowing them.

``game_changed`` is sent once per committed version with ``game_id``, ``version`` and ``status``
(the game's status after the change: "open", "active", "finished" or "aborted"). It is sent
**in the background** (the ``games.game_changed`` task, started on commit; with Celery, the changes
of a few milliseconds travel as one task: ``claim.tasks.Batcher``), so receivers never add work or
queries to the request that made the move. Receivers may therefore
see versions out of order or twice (a redelivered task): they must check the game's current
version/status in the database and be idempotent. A failing receiver is logged and never
affects the others.
"""

from __future__ import annotations

import logging

from django.dispatch import Signal

log = logging.getLogger(__name__)

game_changed = Signal()


_batcher = None


def send_game_changed(game_id: int, version: int, status: str) -> None:
    """Called on commit by the service: hand the notification to a background task."""
    global _batcher
    if _batcher is None:
        from claim.tasks import Batcher
        from games.tasks import game_changed_task

        _batcher = Batcher(game_changed_task)
    _batcher.add([game_id, version, status])


def dispatch_game_changed(game_id: int, version: int, status: str) -> None:
    """Run every receiver now (inside the background task)."""
    from games.models import Game

    for receiver, response in game_changed.send_robust(sender=Game, game_id=game_id, version=version,
                                                       status=status):
        if isinstance(response, Exception):
            log.error("game_changed receiver %r failed for game %s v%s: %r", receiver, game_id, version, response)
