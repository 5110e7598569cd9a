"""Bot accounts: who is online (docs/api.md, "Bots").

A bot is *online* while one of its event sockets (``/ws/``) or NDJSON event streams is open and alive:
the socket marks it on connect and on every ``ping``, the stream on every keep-alive line. The mark
lasts :data:`ONLINE_TTL` seconds in the cache (Redis when configured), so a bot that stops pinging
drops off the list within that time.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

from accounts.models import User

ONLINE_TTL = 90
#: The most bots ``GET /bots/online`` lists.
MAX_LISTED = 200


def _key(user_id: int) -> str:
    return f"bot-online:{user_id}"


def mark_online(user: Any) -> None:
    """Note that ``user`` (if a bot) is connected right now."""
    if getattr(user, "is_bot", False):
        cache.set(_key(user.pk), 1, ONLINE_TTL)


def online_bots() -> list[Any]:
    """The active bot accounts marked online, by username."""
    bots = list(User.objects.filter(is_bot=True, is_active=True).order_by("username")
                .only("id", "username", "display_name", "is_bot"))
    online = cache.get_many([_key(b.pk) for b in bots]) if bots else {}
    return [b for b in bots if _key(b.pk) in online][:MAX_LISTED]
