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
from django.core.cache.backends.redis import RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple[Any, ...], Any] = {}
_lock = threading.Lock()


class SharedClients(RedisCacheClient):
    """Django's Redis cache client, but one ``redis.Redis`` per connection pool instead of a new one per cache
    operation (its constructor was ≈ 5 % of a Celery worker's CPU per move). A ``Redis`` object keeps no
    connection of its own: each command takes one from the (thread-safe, fork-aware) pool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._redis_of_pool: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # kept for the client's life in self._pools: its id is stable
        client = self._redis_of_pool.get(id(pool))
        if client is None:
            client = self._redis_of_pool.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedClients

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
