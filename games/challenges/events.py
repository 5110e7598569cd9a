"""Typed events on the sockets (and NDJSON event streams) of the users concerned (docs/realtime.md).

Sent to the channel-layer group ``user.<id>`` as ``{"type": "client.event", "frame": {...}}``; the
consumer forwards ``frame`` as it is to every socket of the user, whatever games it follows. Best effort,
like game pushes: ``GET /api/v1/challenges`` and ``GET /api/v1/games`` are always right.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.realtime.publish import send_frames


def challenge_frames(challenge: Any, change: str, payload: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """The frames of one change of a challenge (``payload``: its public shape): ``created`` goes to the
    challenger as ``challenge_created`` and to the user challenged as ``challenge_received``; the others
    (accepted, declined, cancelled, expired) to both as ``challenge_<change>``."""
    if change == "created":
        items = [(challenge.challenger_id, {"type": "challenge_created", "challenge": payload})]
        if challenge.to_id is not None:
            items.append((challenge.to_id, {"type": "challenge_received", "challenge": payload}))
        return items
    frame = {"type": f"challenge_{change}", "challenge": payload}
    return [(uid, frame) for uid in (challenge.challenger_id, challenge.to_id) if uid is not None]


def rematch_frames(game_id: int, user_ids: list[int], offer: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """``rematch_offer`` of finished game ``game_id`` to each of its players: the offer as the game's view has it
    (``{"type": "rematch_offer", "game_id", "rematch_offer"}``)."""
    frame = {"type": "rematch_offer", "game_id": game_id, "rematch_offer": offer}
    return [(uid, frame) for uid in dict.fromkeys(user_ids)]


def on_commit(challenge: Any, change: str, payload: dict[str, Any], offer: dict[str, Any] | None = None) -> None:
    """Send the frames of this change once the transaction commits (built now, from what it wrote); with
    ``offer`` (a rematch challenge) also the ``rematch_offer`` frames of the finished game."""
    items = challenge_frames(challenge, change, payload)
    if offer is not None:
        users = [uid for uid in (challenge.challenger_id, challenge.to_id) if uid is not None]
        items += rematch_frames(challenge.rematch_of_id, users, offer)
    transaction.on_commit(lambda: send_frames(items, f"challenge {challenge.pk} {change}"), robust=True)
