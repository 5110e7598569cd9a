"""In-app notifications pushed to the user's open sockets as they are created (docs/realtime.md).

Sent to the channel-layer group ``user.<id>`` that every socket of the user joins (the same group the
game publisher uses); the consumer forwards it as ``{"type": "notification", "notification": {...}}``
to every socket of that user, whatever games it follows. Best effort, like the game publisher: a failure
is logged and never undoes the notification (the inbox API still lists it).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger("games.notify")

#: Channel-layer message type; the consumer handles it in ``notification_new``.
MESSAGE_TYPE = "notification.new"


async def _send(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    for group, message in messages:
        await layer.group_send(group, message)


def _log_failure(future: Any) -> None:
    exc = None if future.cancelled() else future.exception()
    if exc is not None:
        log.warning("pushing notifications to sockets failed: %s: %s", type(exc).__name__, exc)


def push_to_sockets(items: list[tuple[int, dict[str, Any]]]) -> None:
    """``items``: ``(user id, inbox item)``. Never raises."""
    from games.realtime.publish import _server_loop, user_group

    try:
        layer = get_channel_layer()
        if layer is None or not items:
            return
        messages = [(user_group(user_id), {"type": MESSAGE_TYPE, "notification": item}) for user_id, item in items]
        loop = _server_loop()
        if loop is not None:  # in a request thread of the ASGI server: don't wait for Redis
            asyncio.run_coroutine_threadsafe(_send(layer, messages), loop).add_done_callback(_log_failure)
        else:
            async_to_sync(_send)(layer, messages)
    except Exception as exc:  # never break what created the notification
        log.warning("pushing notifications to sockets failed: %s: %s", type(exc).__name__, exc)
