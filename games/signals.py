"""Signals the game service sends so that the apps that follow games (publishing, the AI scheduler,
ratings, notifications, clocks) subscribe to it instead of the service importing them.

``game_committed`` is sent once a change of a game has committed, in the process that committed it
(``transaction.on_commit``, one hook per receiver: :func:`commit_hooks`), with ``game_id``, ``version``,
``status`` and, when the caller has them, the committed ``game``, ``seats``, ``views`` (``{user_id:
payload}`` already built) and ``parts`` (:class:`~games.service.payload.GameParts`) to reuse; ``None``
otherwise. Its receivers only hand work on: the publisher (``games.realtime.publish``) pushes the
seated users' views, ``games.tasks`` queues ``game_changed`` for the background. ``ai_turn_due``
(``game_id``, ``version``) is sent the same way when an AI seat must act at that version, and by the
safety net for stalled games; ``games.tasks`` enqueues the AI's turn. ``games.apps`` connects them.

``game_starting`` (``game``, ``seats``) is sent inside the transaction that starts a game (its last seat
taken, the cards dealt), before the start is saved: a receiver may set the seats' ``rating`` in memory, which
the service stores with the start (the ratings app snapshots each seat's rating, ``games.ratings.receivers``;
the seats of a game created full are not rows yet). A failure undoes the start.

``game_changed`` is sent once per committed version with ``game_id``, ``version`` and ``status``
(the game's status after the change: "open", "active", "finished" or "aborted"). It is sent
**in the background** (the ``games.game_changed`` task, started on commit; with Celery, the changes
of ``GAME_CHANGED_BATCH_MS`` travel as one task: ``claim.tasks.Batcher``), so receivers never add work or
queries to the request that made the move. Receivers may therefore
see versions out of order or twice (a redelivered task): they must check the game's current
version/status in the database and be idempotent. A failing receiver is logged and never
affects the others.

**Batches.** The task hands its whole batch to :func:`dispatch_game_changes`. A receiver connected
the usual way (``game_changed.connect``) gets one call per change, in the batch's order. A receiver
that also declares a batch handler (:func:`batched`) gets the batch's changes in one call instead
(at most :data:`CHUNK` at a time), so it can read what they all need with one query, not one per
change; the handler must do exactly what calling the receiver on each change in turn would (the
changes may hold a version twice, or an older version after a newer one: it handles each like the
per-change receiver would). Receivers run one after the other, each over the whole batch.
If a batch handler raises, the failure is logged and that receiver's changes are run again one by one
through the receiver itself (each failure logged per change, as ``send_robust`` would); so a batch
handler must raise only before it has written anything it would not want repeated (the notification
handler writes in one INSERT at its very end; the clock handler catches and logs the failure of each
change's own write itself).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from asgiref.sync import async_to_sync
from django.dispatch import Signal

from claim.private_api import live_receivers
from games.models import Game

log = logging.getLogger(__name__)

game_committed = Signal()
ai_turn_due = Signal()
game_starting = Signal()
game_changed = Signal()

#: One change: (game id, version, status).
Change = tuple[int, int, str]

#: A batch handler gets at most this many changes per call (bounds its IN lists and SQL variants).
CHUNK = 100

_BATCH_ATTR = "game_changes_handler"

_HOOK_ATTR = "commit_hook_options"


def commit_hook(*, robust: bool | Callable[[], bool] = True) -> Callable[[Any], Any]:
    """Decorator for a ``game_committed`` / ``ai_turn_due`` receiver: ``robust`` (or a function deciding it
    when the hook is made) says whether a failure is logged and the other hooks run (``on_commit(robust=True)``)
    or propagates out of the commit. Undecorated receivers are robust."""

    def mark(receiver: Any) -> Any:
        setattr(receiver, _HOOK_ATTR, robust)
        return receiver

    return mark


def commit_hooks(signal: Signal, **kwargs: Any) -> list[tuple[Callable[[], Any], bool]]:
    """``(hook, robust)`` for each receiver of ``signal``, in the order they were connected: ``hook()`` calls
    the receiver with ``kwargs`` (the service runs each one on commit)."""
    hooks: list[tuple[Callable[[], Any], bool]] = []
    for receiver in live_receivers(signal, Game)[0]:
        robust = getattr(receiver, _HOOK_ATTR, True)
        hooks.append((functools.partial(receiver, signal=signal, sender=Game, **kwargs),
                      bool(robust() if callable(robust) else robust)))
    return hooks


def batched(handler: Callable[[list[Change]], None]) -> Callable[[Any], Any]:
    """Decorator for a ``game_changed`` receiver: ``handler(changes)`` handles a list of changes as
    calling the receiver on each of them, in order, would (see the module's docstring)."""

    def mark(receiver: Any) -> Any:
        setattr(receiver, _BATCH_ATTR, handler)
        return receiver

    return mark


def dispatch_game_changed(game_id: int, version: int, status: str) -> None:
    """Run every receiver now for one change (``dispatch_game_changes`` of one change does the same)."""
    for receiver, response in game_changed.send_robust(sender=Game, game_id=game_id, version=version,
                                                       status=status):
        if isinstance(response, Exception):
            log.error("game_changed receiver %r failed for game %s v%s: %r", receiver, game_id, version, response)


def dispatch_game_changes(changes: Iterable[Sequence[Any]]) -> None:
    """Run every receiver now for a batch of ``(game_id, version, status)`` changes (inside the
    background task): batch handlers once per :data:`CHUNK` changes, other receivers once per change."""
    batch: list[Change] = [(int(g), int(v), str(s)) for g, v, s in changes]
    if not batch or not game_changed.has_listeners(Game):
        return
    sync_receivers, async_receivers = live_receivers(game_changed, Game)
    for receiver in sync_receivers:
        handler = getattr(receiver, _BATCH_ATTR, None)
        if handler is None:
            _one_by_one(receiver, batch, Game)
            continue
        for start in range(0, len(batch), CHUNK):
            chunk = batch[start:start + CHUNK]
            try:
                handler(chunk)
            except Exception:
                log.exception("game_changed batch handler of %r failed for %d changes (%s); running them one by one",
                              receiver, len(chunk), _describe(chunk))
                _one_by_one(receiver, chunk, Game)
    if async_receivers:
        for receiver in async_receivers:
            _one_by_one(async_to_sync(receiver), batch, Game)


def _one_by_one(receiver: Any, changes: list[Change], sender: Any) -> None:
    for game_id, version, status in changes:
        try:
            receiver(signal=game_changed, sender=sender, game_id=game_id, version=version, status=status)
        except Exception as exc:
            log.error("game_changed receiver %r failed for game %s v%s: %r", receiver, game_id, version, exc,
                      exc_info=True)


def _describe(changes: list[Change]) -> str:
    shown = ", ".join(f"game {g} v{v}" for g, v, _ in changes[:5])
    return shown + (", ..." if len(changes) > 5 else "")
