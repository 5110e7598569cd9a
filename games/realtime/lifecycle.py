"""``game_started`` and ``game_finished`` frames for the seated users (docs/realtime.md, "Typed events").

Built by the publisher with the game, seats and views it already has for a committed version (no query):
the version whose change is ``created``, ``joined`` or ``ai_filled`` and leaves the game ``active`` is the
start (no seat is taken after it); a change that leaves it ``finished`` or ``aborted`` is the end. The publisher
runs once per committed version, so each is sent once. The frame carries the user's inbox entry (``GET /games``)::

    {"type": "game_started" | "game_finished", "game_id": id, "game": {...}}
"""

from __future__ import annotations

from typing import Any

from games.service.payload import game_summary

START_TYPES = frozenset({"created", "joined", "ai_filled"})
END_TYPES = frozenset({"move", "resigned", "timeout", "aborted", "adjudicated"})

#: Channel-layer message type of a typed frame; the consumer forwards ``frame`` (``client_event``).
EVENT_MESSAGE = "client.event"


def lifecycle_kind(status: str, change: str | None) -> str | None:
    """``game_started``, ``game_finished`` or None for a version whose history entry is ``change``."""
    if status == "active" and change in START_TYPES:
        return "game_started"
    if status in ("finished", "aborted") and change in END_TYPES:
        return "game_finished"
    return None


def lifecycle_messages(game: Any, seats: list[Any], views: dict[int, dict[str, Any]]) -> list[tuple[int, dict]]:
    """``(user id, channel-layer message)`` of this version's lifecycle frame for each seated human, or []."""
    any_view = next(iter(views.values()), None)
    change = ((any_view or {}).get("last_events") or {}).get("type")
    kind = lifecycle_kind(game.status, change)
    if kind is None:
        return []
    out = []
    for user in {s.user_id: s.user for s in seats if s.user_id is not None}.values():
        frame = {"type": kind, "game_id": game.pk, "game": game_summary(game, user, seats)}
        out.append((user.pk, {"type": EVENT_MESSAGE, "frame": frame}))
    return out
