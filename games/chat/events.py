"""The chat's typed events (docs/realtime.md): ``chat`` and ``chat_hidden``, sent on commit, best effort.

* To each recipient's ``user.<id>`` group as ``{"type": "client.event", "frame": {...}}`` (the consumer forwards
  ``frame``; the account stream and the game's NDJSON stream carry it too: games/streams.py), the line in the
  recipient's own language.
* A spectators' room line, and its hiding, also to the group ``watch.<game id>`` (the spectators' sockets and
  watch streams: games.spectate), once for all of them: the phrase in English beside its code (a client shows
  the code in its reader's language).
"""

from __future__ import annotations

import logging
from typing import Any

from games.challenges.events import send_frames
from games.realtime.lifecycle import EVENT_MESSAGE
from games.realtime.publish import send_to_groups
from games.spectate.access import watch_group

from .payload import line

log = logging.getLogger("games.chat")


def chat_frame(msg: Any, language: str | None) -> dict[str, Any]:
    """``ChatEvent``: ``{"type": "chat", "game_id", "message": ChatLine}``."""
    return {"type": "chat", "game_id": msg.game_id, "message": line(msg, language)}


def send_chat(msg: Any, recipients: dict[int, str]) -> None:
    """The line to each recipient (``user id -> language``), and a spectators' room line to its watch group."""
    send_frames([(uid, chat_frame(msg, language)) for uid, language in recipients.items()], f"chat {msg.pk}")
    if msg.room == "spectators":
        send_to_groups([(watch_group(msg.game_id), {"type": EVENT_MESSAGE, "frame": chat_frame(msg, "en")})],
                       f"chat {msg.pk} to spectators")


def hidden_frame(game_id: int, message_id: int) -> dict[str, Any]:
    """``ChatHiddenEvent``."""
    return {"type": "chat_hidden", "game_id": game_id, "message_id": message_id}


def send_hidden(by_game: dict[int, list[int]], humans: dict[int, list[int]], rooms: dict[int, str]) -> None:
    """``chat_hidden`` of each hidden line to its game's players, and of a spectators' room line to its watchers."""
    items: list[tuple[int, dict[str, Any]]] = []
    groups: list[tuple[str, dict[str, Any]]] = []
    for game_id, ids in by_game.items():
        for mid in ids:
            frame = hidden_frame(game_id, mid)
            items.extend((uid, frame) for uid in humans.get(game_id, []))
            if rooms.get(mid) == "spectators":
                groups.append((watch_group(game_id), {"type": EVENT_MESSAGE, "frame": frame}))
    send_frames(items, "chat hidden")
    if groups:
        send_to_groups(groups, "chat hidden to spectators")
