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

import os
import random
import weakref

from rest_framework import throttling

from claim.ratelimit import Quota, ReportingThrottle

_members = random.Random(os.urandom(16))
os.register_at_fork(after_in_child=lambda: _members.seed(os.urandom(16)))  # forked workers: their own sequence


def _member(now: float) -> str:
    """A unique sorted-set member for a request recorded at ``now`` (its time and 32 random bits: two
    requests of one user in the same microsecond collide once in 4 billion, and only then count once). Not
    a secret, so not ``secrets``: ``os.urandom`` per request was ≈ 3 % of the move path's CPU."""
    return f"{now!r}:{_members.getrandbits(32):08x}"

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
        member = _member(self.now)
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


class AnonRateThrottle(ReportingThrottle, RedisLogMixin, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(ReportingThrottle, RedisLogMixin, throttling.UserRateThrottle):
    pass


class ScopedRateThrottle(ReportingThrottle, RedisLogMixin, throttling.ScopedRateThrottle):
    """DRF's scoped throttle: the rate of the view's ``throttle_scope``."""

    def allow_request(self, request, view) -> bool:
        # DRF's ScopedRateThrottle resolves the view's scope here, then calls the base class.
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)


# --- the asynchronous move path (games.fastmoves) --------------------------------------------------

# KEYS: the logs of the view's throttles, in DRF's order; ARGV[1] now, ARGV[2] a unique member, then a
# window (s) and a limit per key. DRF's order and rule: the throttles are checked one after the other and
# the first that refuses stops the check (the ones before it have recorded the request). Returns 0 when
# all allowed, else the 1-based index of the one that refused; then, per key checked, the count in its window
# and its oldest entry (a string, to keep its decimals), for the RateLimit fields (claim/ratelimit.py).
_SCRIPT_ALL = """
local now = tonumber(ARGV[1])
local out = {0}
for i, key in ipairs(KEYS) do
  local window = tonumber(ARGV[1 + 2 * i])
  local limit = tonumber(ARGV[2 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  if redis.call('ZCARD', key) >= limit then
    out[1] = i
    return out
  end
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('EXPIRE', key, math.ceil(window))
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  table.insert(out, redis.call('ZCARD', key))
  table.insert(out, oldest[2] or ARGV[1])
end
return out
"""


def user_throttle_logs(view_class: type, user_pk: int) -> list[tuple[str, int, int, str]]:
    """``(Redis key, limit, window seconds, policy name)`` of each throttle of ``view_class`` for an
    authenticated user, in order: the keys, limits and windows :class:`RedisLogMixin` uses for the same
    request, and the name its RateLimit fields use."""
    out = []
    for throttle_class in view_class.throttle_classes:
        throttle = throttle_class.__new__(throttle_class)  # DRF's __init__ reads the rate of a fixed scope
        if isinstance(throttle, throttling.ScopedRateThrottle):
            throttle.scope = getattr(view_class, throttle.scope_attr, None)
            if not throttle.scope:
                continue
        elif not isinstance(throttle, throttling.UserRateThrottle):
            raise TypeError(f"{throttle_class.__name__}: only user and scoped throttles have an async check")
        rate = throttle.get_rate()
        if rate is None:
            continue
        limit, window = throttle.parse_rate(rate)
        key = throttle.cache_format % {"scope": throttle.scope, "ident": user_pk}
        out.append((throttle.cache.make_key(key) + ":log", limit, window, throttle.policy_name or throttle.scope))
    return out


class AsyncThrottles:
    """The Redis-log throttles of a view, checked in one round trip from the event loop.

    ``check`` records the request in every log when all allow (and returns the recorded member and the
    quotas for the RateLimit fields); when one refuses it takes back what it recorded and returns None, so
    the caller can hand the request to DRF, which then counts and refuses it exactly as it always does
    (``Retry-After`` and RateLimit fields included).
    """

    def __init__(self, redis_url: str) -> None:
        import redis.asyncio as aioredis

        self.client = aioredis.Redis.from_url(redis_url)
        self.script = self.client.register_script(_SCRIPT_ALL)

    async def check(self, logs: list[tuple[str, int, int, str]]) -> tuple[str, list[Quota]] | None:
        """The member recorded in every log (to :meth:`undo` it) and the quotas after it, or None when a
        throttle refused."""
        if not logs:
            return "", []
        import math
        import time

        now = time.time()  # DRF's SimpleRateThrottle.timer
        member = _member(now)
        args: list = [repr(now), member]
        for _, limit, window, _ in logs:
            args += [window, limit]
        out = await self.script(keys=[key for key, *_ in logs], args=args)
        refused = int(out[0])
        if refused:
            await self.undo(logs[:refused - 1], member)
            return None
        quotas = []
        for i, (_, limit, window, policy) in enumerate(logs):
            count, oldest = int(out[1 + 2 * i]), float(out[2 + 2 * i])
            quotas.append(Quota(policy, limit, window, max(limit - count, 0),
                                math.ceil(max(oldest + window - now, 0))))
        return member, quotas

    async def undo(self, logs: list[tuple[str, int, int, str]], member: str) -> None:
        """Take a recorded request back out of ``logs`` (it is handed to DRF, which records it itself)."""
        if not logs or not member:
            return
        async with self.client.pipeline(transaction=False) as pipe:
            for key, *_ in logs:
                pipe.zrem(key, member)
            await pipe.execute()
