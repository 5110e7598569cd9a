"""The accounts of a server process's open sockets and streams, checked every :data:`SWEEP_SECONDS`.

A deactivated account loses its sockets and streams like a revoked token (docs/security.md, "Sessions and
tokens"). Saving or deleting a user sends ``accounts.signals.credentials_changed`` (accounts.services), but a
deactivation may come without any signal: a bulk ``User.objects.filter(...).update(is_active=False)``, an SQL
``UPDATE``, or a ``manage.py shell`` beside an embedded server, whose in-memory channel layer no other process
reaches. So each event loop keeps the channels of its open sockets and streams by user, and every
:data:`SWEEP_SECONDS` asks the database which of those users are no longer active (one query per
:data:`CHUNK` users, by primary key); each channel of such a user gets ``auth.recheck``, the message a revoked
token's sockets get: the socket re-checks its credential and closes (4401), the stream sends its
``unauthenticated`` line and ends.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from accounts.models import User

logger = logging.getLogger(__name__)

SWEEP_SECONDS = 3.0
CHUNK = 1000
RECHECK = {"type": "auth.recheck"}


def users_not_active(user_ids: list[int]) -> list[int]:
    """Those of ``user_ids`` whose account is inactive or gone (one query per :data:`CHUNK` ids)."""
    active: set[int] = set()
    for start in range(0, len(user_ids), CHUNK):
        chunk = user_ids[start:start + CHUNK]
        active.update(User.objects.filter(pk__in=chunk, is_active=True).values_list("pk", flat=True))
    return [uid for uid in user_ids if uid not in active]


class AccountWatch:
    """The open channels of one event loop, by user, and the task that sweeps them."""

    def __init__(self) -> None:
        self.channels: dict[int, set[str]] = {}
        self.task: asyncio.Task | None = None

    def add(self, user_id: int, channel: str) -> None:
        self.channels.setdefault(user_id, set()).add(channel)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    def discard(self, user_id: int, channel: str) -> None:
        open_ = self.channels.get(user_id)
        if open_ is not None:
            open_.discard(channel)
            if not open_:
                del self.channels[user_id]

    async def sweep(self) -> int:
        """Send ``auth.recheck`` to every channel of a watched user who is no longer active; how many."""
        if not self.channels:
            return 0
        gone = await database_sync_to_async(users_not_active)(list(self.channels))
        layer = get_channel_layer()
        sent = 0
        for user_id in gone:
            for channel in list(self.channels.get(user_id, ())):
                await layer.send(channel, dict(RECHECK))
                sent += 1
        return sent

    async def _run(self) -> None:
        while self.channels:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception as exc:  # a database or layer hiccup: the next sweep tries again
                logger.warning("account sweep failed: %s: %s", type(exc).__name__, exc)


_watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AccountWatch] = weakref.WeakKeyDictionary()


def watch() -> AccountWatch:
    """The running event loop's :class:`AccountWatch`."""
    loop = asyncio.get_running_loop()
    found = _watches.get(loop)
    if found is None:
        found = _watches[loop] = AccountWatch()
    return found
