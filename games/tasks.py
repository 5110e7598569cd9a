"""Celery tasks of the games app, and the receivers that start them: the AI's turn when one is due
(``games.signals.ai_turn_due``) and the background ``game_changed`` after every committed version
(``games.signals.game_committed``). Tasks start only through :func:`claim.tasks.enqueue`, on commit."""

from __future__ import annotations

import threading
from typing import Any

from celery import shared_task
from django.conf import settings

from claim import tasks as claim_tasks
from games.service import play_ai_turn
from games.service.moves import resume_ai_turns
from games.signals import commit_hook, dispatch_game_changes


@shared_task(acks_late=True, name="games.play_ai_turn")
def play_ai_turn_task(game_id: int, version: int) -> bool:
    """Play the AI's move at ``version``.

    Idempotent: a redelivered or duplicate task finds that the version moved on and does nothing.
    """
    return play_ai_turn(game_id, version)


@shared_task(acks_late=True, name="games.resume_ai_turns")
def resume_ai_turns_task(idle_seconds: float = 120.0) -> int:
    """Safety net for Celery beat: re-enqueue AI turns of games idle for ``idle_seconds`` with an AI to act."""
    return len(resume_ai_turns(idle_seconds))


@shared_task(acks_late=True, name="games.game_changed")
def game_changed_task(changes: list[list]) -> None:
    """Run the ``games.signals.game_changed`` receivers (ratings, clocks, notifications) off the
    request path, for a batch of ``[game_id, version, status]`` changes: receivers with a batch
    handler get the whole batch in one call, the others one call per change (``games.signals``)."""
    dispatch_game_changes(changes)


_batcher: claim_tasks.Batcher | None = None


def send_game_changed(game_id: int, version: int, status: str) -> None:
    """Hand one committed change to the background ``game_changed`` task."""
    global _batcher
    if _batcher is None:
        # GAME_CHANGED_BATCH_MS of changes per task (250): the receivers (notifications, clocks) are
        # correspondence work, and the worker's and the database's cost is mostly per task and per query,
        # not per change (docs/performance.md, sixth and ninth rounds).
        _batcher = claim_tasks.Batcher(game_changed_task, window=settings.GAME_CHANGED_BATCH_MS / 1000)
    _batcher.add([game_id, version, status])


def on_game_committed(sender: Any, game_id: int, version: int, status: str, **kwargs: Any) -> None:
    """``game_committed`` receiver: the change goes to the ``game_changed`` receivers in the background."""
    send_game_changed(game_id, version, status)


# Eager mode runs a task inline; an AI-vs-AI game would nest one task inside the commit hook of the
# previous one. A per-thread trampoline keeps the stack flat: nested requests are queued and run by
# the outermost call, in order.
_trampoline: dict[int, list[tuple[int, int]]] = {}


def schedule_ai_turn(game_id: int, version: int) -> None:
    """Enqueue the AI's turn at ``version`` (inline in eager mode, one at a time per thread)."""
    key = threading.get_ident()
    pending = _trampoline.get(key)
    if pending is not None:
        pending.append((game_id, version))
        return
    pending = _trampoline[key] = [(game_id, version)]
    try:
        while pending:
            gid, ver = pending.pop(0)
            claim_tasks.enqueue(play_ai_turn_task, gid, ver)
    finally:
        _trampoline.pop(key, None)


@commit_hook(robust=lambda: settings.TASK_MODE != "eager")
def on_ai_turn_due(sender: Any, game_id: int, version: int, **kwargs: Any) -> None:
    """``ai_turn_due`` receiver (in eager mode a failing AI turn propagates out of the commit)."""
    schedule_ai_turn(game_id, version)
