"""``followed``: a user hears on their sockets and account stream that someone new follows them (issue 35).

:func:`on_relation_changed` receives ``accounts.signals.relation_changed``, which :mod:`accounts.relations` sends
after the commit of a follow that is new (``games.apps`` connects it), and pushes ``{"type": "followed", "by":
PublicUser}`` to the followed user's group, unless the followed user blocks or mutes the follower (one query by
the unique index) or either account is no longer active. A follow, unfollow and follow again of the same pair is
told once per :data:`QUIET_SECONDS` (a cache key per pair), so nobody can flood another's screen with it. Best
effort like every push (``GET /followers`` lists them all).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache

from accounts.models import Relation, User
from games.realtime.lifecycle import EVENT_MESSAGE
from games.realtime.publish import send_to_groups, user_group
from games.realtime.types import FollowedEvent
from games.spectate.payload import public_user

logger = logging.getLogger(__name__)

#: A pair's follow is told at most once in this many seconds.
QUIET_SECONDS = 3600


def followed_frame(follower_id: int, followed_id: int) -> FollowedEvent | None:
    """The ``followed`` event for ``followed_id``, or None when it is not to be told (module docstring)."""
    if Relation.objects.filter(user_id=followed_id, kind__in=(Relation.BLOCK, Relation.MUTE),
                               other_id=follower_id).exists():
        return None
    active = {u.pk: u for u in User.objects.filter(pk__in=(follower_id, followed_id), is_active=True).only(
        "id", "username", "display_name", "is_bot")}
    if follower_id not in active or followed_id not in active:
        return None
    return {"type": "followed", "by": public_user(active[follower_id])}


def on_relation_changed(sender: Any = None, *, user_id: int, kind: str, other_id: int, added: bool,
                        **kwargs: Any) -> None:
    """``relation_changed`` receiver: a new follow tells the user followed. Never raises."""
    if kind != Relation.FOLLOW or not added:
        return
    try:
        frame = followed_frame(user_id, other_id)
        if frame is None or not cache.add(f"followed:{user_id}:{other_id}", 1, QUIET_SECONDS):
            return
    except Exception as exc:  # a push must never break what caused it
        logger.warning("followed event %s -> %s failed: %s: %s", user_id, other_id, type(exc).__name__, exc)
        return
    send_to_groups([(user_group(other_id), {"type": EVENT_MESSAGE, "frame": frame})],
                   f"followed event {user_id} -> {other_id}")
