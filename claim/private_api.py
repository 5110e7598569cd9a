"""The libraries' private (undocumented) APIs this project leans on, reached through one module.

An upgrade may change a private attribute without notice. The code elsewhere calls the functions here
instead of the attribute, and tests/foundation/test_private_api.py checks each private shape they read
(and that they behave), so such an upgrade fails there, naming the attribute, not as a lost push or a
receiver that never runs.

Wrapped here:

* Django signals: ``Signal._live_receivers(sender)``, the receivers ``send()`` would call, split into
  (sync, async), without calling them (:func:`live_receivers`; games.signals runs them itself: one
  commit hook per receiver, batch handlers).
* asgiref: ``SyncToAsync.threadlocal.main_event_loop`` and ``.main_event_loop_pid``, the loop of the
  ``sync_to_async`` call that runs the current thread (:func:`sync_to_async_loop`; claim.loops hands
  channel-layer sends to it).
* Django's ASGI handler: ``ASGIHandler.handle(scope, receive, send)``, called by :class:`StreamsHandler`
  without the ``ThreadSensitiveContext`` that ``ASGIHandler.__call__`` wraps it in.
* channels_redis: ``channels_redis.utils.create_pool`` and ``decode_hosts`` (a module of the library's
  internals), re-exported for games.realtime.publish.

Used where they are, their shapes checked by the same tests:

* games.realtime.publish: a ``RedisPubSubChannelLayer``'s ``_args`` / ``_kwargs`` (its hosts),
  ``_get_layer()`` (the running loop's layer) and that layer's ``_get_group_channel_name(group)``.
* claim.rowsql: the ORM's and the backends' internals its docstring lists.
* games.notify.endpoints: urllib3's ``HTTPSConnection._new_conn()`` and ``_dns_host`` (the address it
  connects to).
* claim.strict_fields: drf-spectacular's ``AutoSchema._map_basic_serializer``.
* Views: DRF's ``Request._request`` (the Django ``HttpRequest`` it wraps).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Any

from asgiref.sync import SyncToAsync
from channels_redis.utils import create_pool, decode_hosts
from django.core.handlers.asgi import ASGIHandler
from django.dispatch import Signal

__all__ = ["StreamsHandler", "create_pool", "decode_hosts", "live_receivers", "sync_to_async_loop"]


class StreamsHandler(ASGIHandler):
    """Django's ASGI handler without its per-request ``ThreadSensitiveContext``: that context's worker thread
    (where the middleware's and the view's synchronous parts run) lives as long as the request, so each open
    stream would keep an idle thread. Here their synchronous parts run in asgiref's one shared thread, as the
    Channels consumers' database calls do; each is short (the checks, one read), the body waits on the loop."""

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)


def live_receivers(signal: Signal, sender: Any) -> tuple[list[Callable[..., Any]], list[Callable[..., Any]]]:
    """``(sync receivers, async receivers)`` of ``signal`` for ``sender``, each in the order they were
    connected (receivers garbage-collected since are left out): the ones ``signal.send(sender)`` calls."""
    sync_receivers, async_receivers = signal._live_receivers(sender)
    return list(sync_receivers), list(async_receivers)


def sync_to_async_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the ``sync_to_async`` call that runs this thread (set by asgiref in the threads it
    starts for it, in this process), else None. The loop may have stopped since: callers check."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    return getattr(SyncToAsync.threadlocal, "main_event_loop", None)
