"""Bot accounts: who is online (docs/api.md, "Bots").

A bot is *online* while one of its event sockets (``/ws/``) or NDJSON event streams is open and alive: the
presence mark every user gets (:func:`games.realtime.presence.mark_online`: on connect, on every ``ping``, on every
keep-alive line), which lasts :data:`ONLINE_TTL` seconds, so a bot that stops pinging drops off the list within
that time.
"""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games.realtime.presence import ONLINE_TTL, online_among

__all__ = ["MAX_LISTED", "ONLINE_TTL", "online_bots"]

#: The most bots ``GET /bots/online`` lists.
MAX_LISTED = 200


def online_bots() -> list[Any]:
    """The active bot accounts marked online, by username."""
    bots = list(User.objects.filter(is_bot=True, is_active=True).order_by("username")
                .only("id", "username", "display_name", "is_bot"))
    online = online_among(b.pk for b in bots)
    return [b for b in bots if b.pk in online][:MAX_LISTED]
