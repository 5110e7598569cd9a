"""In-app notifications pushed to the user's open sockets as they are created (docs/realtime.md).

Sent to the channel-layer group ``user.<id>`` that every socket of the user joins (the same group the
game publisher uses); the consumer forwards it as ``{"type": "notification", "notification": {...}}``
to every socket of that user, whatever games it follows. Best effort, like the game publisher: a failure
is logged and never undoes the notification (the inbox API still lists it).
"""

from __future__ import annotations

from typing import Any

from games.realtime.publish import send_to_groups, user_group

#: Channel-layer message type; the consumer handles it in ``notification_new``.
MESSAGE_TYPE = "notification.new"


def push_to_sockets(items: list[tuple[int, dict[str, Any]]]) -> None:
    """``items``: ``(user id, inbox item)``. Never raises."""
    messages = [(user_group(user_id), {"type": MESSAGE_TYPE, "notification": item}) for user_id, item in items]
    send_to_groups(messages, "pushing notifications to sockets")
