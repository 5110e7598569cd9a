"""HTTP inside the ASGI server: Django's WSGI handler on a pool of threads (docs/performance.md).

The API's views are all synchronous. Django's ASGI handler runs each request's synchronous part in a
fresh thread (asgiref's ``ThreadSensitiveContext``) with several hand-offs between the event loop and
that thread; its WSGI handler, run by :mod:`a2wsgi` on a fixed pool of ``HTTP_THREADS`` threads, does
the same middleware, views and error handling with less work per request (measured in-process: less
CPU and lower latency per move). ``HTTP_HANDLER=asgi`` switches back to Django's ASGI handler.

The WebSocket side (Channels consumers) is untouched and shares the event loop; request threads hand
socket pushes to it (:mod:`claim.loops`).
"""

from __future__ import annotations

import gc
import os
from typing import Any

from claim.loops import use_running_loop


class WsgiThreads:
    """ASGI ``http`` app: runs a WSGI app on ``threads`` threads and records the server's loop."""

    def __init__(self, wsgi_app: Any, threads: int) -> None:
        from a2wsgi import WSGIMiddleware

        self.inner = WSGIMiddleware(wsgi_app, workers=threads)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        use_running_loop()
        await self.inner(scope, receive, send)


def tune_gc() -> None:
    """The server allocates many short-lived objects per request; Python's default young-generation threshold
    (700) ran a collection every few requests. Objects made at start-up are frozen out of collections and the
    threshold raised (docs/performance.md, sixth round: ≈ 5 % less CPU per move). ``GC_GEN0_THRESHOLD=700``
    restores the default."""
    gc.freeze()
    gc.set_threshold(int(os.environ.get("GC_GEN0_THRESHOLD", "20000")), 20, 20)


def http_application() -> Any:
    """The ``http`` app of :mod:`claim.asgi`, chosen by ``HTTP_HANDLER`` (``wsgi``, the default, or ``asgi``)
    and, for ``wsgi``, ``HTTP_PROCESSES`` (request processes of their own, :mod:`claim.http_procs`)."""
    from django.conf import settings

    if settings.HTTP_HANDLER == "asgi":
        from django.core.asgi import get_asgi_application

        return get_asgi_application()
    if settings.HTTP_PROCESSES > 0:
        from claim.http_procs import WsgiProcesses

        check_shared_state(settings)
        return WsgiProcesses(settings.HTTP_PROCESSES, settings.HTTP_THREADS, settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
                             settings.HTTP_PROCESS_NICE)
    from django.core.wsgi import get_wsgi_application

    return WsgiThreads(get_wsgi_application(), settings.HTTP_THREADS)


def check_shared_state(settings: Any) -> None:
    """Request processes share socket pushes and throttle counts with the server only through Redis."""
    from django.core.exceptions import ImproperlyConfigured

    layer = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    cache = settings.CACHES.get("default", {}).get("BACKEND", "")
    if "InMemory" in layer or "locmem" in cache.lower():
        raise ImproperlyConfigured(
            "HTTP_PROCESSES > 0 needs the Redis channel layer and cache (set REDIS_URL): an in-memory layer "
            "or cache is not shared between the server and its request processes. Unset HTTP_PROCESSES.")
