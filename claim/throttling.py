"""DRF rate throttles that cost one Redis round trip per check (docs/performance.md).

DRF's ``SimpleRateThrottle`` keeps the request history as a pickled list in the cache: a GET and a
SET per throttle per request (4 synchronous round trips for a move, which has two throttles), and
the whole list is (un)pickled every time. On Django's Redis cache these classes keep the same
sliding-window log in a Redis sorted set, trimmed, counted and appended by one Lua script (one
``EVALSHA``): the same limit, the same window, the same rule (a refused request is not recorded)
and the same ``Retry-After``. On any other cache (the local-memory cache of tests and the embedded
run) they are DRF's classes unchanged.
"""

from __future__ import annotations

import secrets
import weakref

from rest_framework import throttling

# KEYS[1] the log; ARGV: now, window (s), limit, a unique member. Returns {allowed, count, oldest}:
# count is the number of requests in the window (after recording this one when allowed), oldest
# the time of the oldest one (DRF's ``history[-1]``), as a string to keep its decimals.
_SCRIPT = """
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('EXPIRE', KEYS[1], math.ceil(window))
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {allowed, count, oldest[2] or ARGV[1]}
"""

_clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # connection pool → Redis client
_script = None  # the registered Lua script (its SHA; called with the client of the request)


class RedisLogMixin:
    """One round trip per check on Django's Redis cache; DRF's behaviour otherwise."""

    def _redis(self):
        """A client on the cache's write pool (Django builds a new ``Redis`` per ``get_client``)."""
        backend = getattr(self.cache, "_cache", None)
        get_pool = getattr(backend, "_get_connection_pool", None)
        if get_pool is None or not hasattr(backend, "_client"):
            return None
        pool = get_pool(write=True)
        client = _clients.get(pool)
        if client is None:
            client = _clients[pool] = backend._client(connection_pool=pool)
        return client

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        client = self._redis()
        if client is None:
            return super().allow_request(request, view)
        global _script
        if _script is None:
            _script = client.register_script(_SCRIPT)
        self.now = self.timer()
        key = self.cache.make_key(self.key) + ":log"  # not the key of DRF's pickled list
        member = f"{self.now!r}:{secrets.token_hex(4)}"
        allowed, count, oldest = _script(keys=[key], args=[repr(self.now), self.duration, self.num_requests, member],
                                         client=client)
        # DRF's wait() reads len(history) and history[-1] (the oldest entry in the window).
        self.history = _History(int(count), float(oldest))
        return bool(allowed)


class _History:
    """Stands in for DRF's history list in ``wait()``: its length and its oldest entry."""

    def __init__(self, count: int, oldest: float) -> None:
        self.count = count
        self.oldest = oldest

    def __len__(self) -> int:
        return self.count

    def __bool__(self) -> bool:
        return self.count > 0

    def __getitem__(self, index: int) -> float:
        if index != -1:
            raise IndexError(index)
        return self.oldest


class AnonRateThrottle(RedisLogMixin, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(RedisLogMixin, throttling.UserRateThrottle):
    pass


class ScopedRateThrottle(RedisLogMixin, throttling.ScopedRateThrottle):
    """DRF's scoped throttle: the rate of the view's ``throttle_scope``."""

    def allow_request(self, request, view) -> bool:
        # DRF's ScopedRateThrottle resolves the view's scope here, then calls the base class.
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)
