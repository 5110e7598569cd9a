"""``game_started`` and ``game_finished`` events for the seated users' sockets and event streams.

A ``game_changed`` receiver (games/signals.py: in the background, batched, possibly repeated or out of
order): a change to ``active`` whose history entry is ``created`` or ``joined`` is the start (no seat is
taken after it); a change to ``finished`` or ``aborted`` is the end. Each is sent once per game (a cache
``add`` guards against repeated deliveries) to every seated human as
``{"type": "game_started" | "game_finished", "game_id": id, "game": <the inbox summary, for that user>}``.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache

from games.signals import Change, batched

from .events import send_frames

log = logging.getLogger(__name__)

#: How long a sent event is remembered (redeliveries come within minutes).
SENT_TTL = 86400
START_TYPES = ("created", "joined")


def _first_time(game_id: int, what: str) -> bool:
    return bool(cache.add(f"lifecycle:{what}:{game_id}", 1, SENT_TTL))


def on_game_changes(changes: list[Change]) -> None:
    from games.models import Game, GameEvent
    from games.service import game_summary
    from games.service._common import seats_of

    ended = {g for g, _v, s in changes if s in ("finished", "aborted")}
    active = {(g, v) for g, v, s in changes if s == "active" and g not in ended}
    started: set[int] = set()
    if active:
        rows = GameEvent.objects.filter(game_id__in={g for g, _ in active}, type__in=START_TYPES).values_list(
            "game_id", "version")
        started = {g for g, v in rows if (g, v) in active}
    todo = [(g, "game_started") for g in sorted(started)] + [(g, "game_finished") for g in sorted(ended)]
    todo = [(g, what) for g, what in todo if _first_time(g, what)]
    if not todo:
        return
    games = {g.pk: g for g in Game.objects.filter(pk__in={g for g, _ in todo}).select_related("clock")}
    frames: list[tuple[int, dict[str, Any]]] = []
    for game_id, what in todo:
        game = games.get(game_id)
        if game is None:
            continue
        seats = seats_of(game)
        for user in {s.user_id: s.user for s in seats if s.user_id is not None}.values():
            frames.append((user.pk, {"type": what, "game_id": game_id, "game": game_summary(game, user, seats)}))
    send_frames(frames, "game lifecycle events")


@batched(on_game_changes)
def on_game_changed(sender: Any, game_id: int, version: int, status: str, **kwargs: Any) -> None:
    on_game_changes([(game_id, version, status)])
