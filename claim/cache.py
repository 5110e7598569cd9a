"""Django's Redis cache with connection pools shared by the whole process.

Django builds a new cache object per thread and per async context (``caches`` is an asgiref
``Local``), and each ``RedisCache`` builds its own client and connection pools on first use: under
ASGI that is a new TCP connection to Redis for nearly every request (measured: a third of the
throttles' cost and of every presence check; docs/performance.md). Here all cache objects of one
configuration share one client, whose pools are thread-safe and reset themselves after a fork.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.utils.functional import cached_property

_clients: dict[tuple[Any, ...], Any] = {}
_lock = threading.Lock()


class RedisCache(DjangoRedisCache):
    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        client = _clients.get(key)
        if client is None:
            with _lock:
                client = _clients.get(key)
                if client is None:
                    client = _clients[key] = self._class(self._servers, **self._options)
        return client
