"""The chat's JSON shapes: ``PublicUser`` and ``ChatLine`` (docs/api.md, "Chat")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from . import phrases
from .models import ChatMessage


def public_user(user: Any) -> dict[str, Any]:
    return {"username": user.username, "name": user.public_name, "is_bot": user.is_bot}


def _iso(dt: datetime) -> str:
    return dt.isoformat().replace("+00:00", "Z")


def line(msg: ChatMessage, language: str | None) -> dict[str, Any]:
    """``ChatLine``: the phrase shown in ``language`` (the reader's)."""
    return {"id": msg.pk, "game_id": msg.game_id, "room": msg.room, "author": public_user(msg.author),
            "phrase": msg.phrase, "text": phrases.text(msg.phrase, language) if msg.phrase else (msg.text or ""),
            "created_at": _iso(msg.created_at)}
