"""claim.cache.RedisCache: every cache object of one configuration shares one client, and each operation
reuses one ``redis.Redis`` per connection pool instead of building one (docs/performance.md)."""

from __future__ import annotations

import os
import re
import threading

import pytest

from claim.cache import RedisCache

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")


def _cache() -> RedisCache:
    url = re.sub(r"/\d*$", "", os.environ["REDIS_URL"].rstrip("/")) + "/13"
    return RedisCache(url, {"KEY_PREFIX": "cache-test"})


def test_operations_reuse_one_redis_client_per_pool() -> None:
    cache = _cache()
    cache.clear()
    first = cache._cache.get_client(write=True)
    cache.set("k", {"a": 1}, 30)
    assert cache.get("k") == {"a": 1}
    assert cache.get_many(["k", "missing"]) == {"k": {"a": 1}}
    assert cache._cache.get_client(write=True) is first
    assert cache._cache.get_client() is first  # one server: reads use the same pool
    assert _cache()._cache is cache._cache  # another cache object of the same configuration: the same client
    cache.clear()


def test_threads_share_the_client_safely() -> None:
    cache = _cache()
    cache.clear()
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(50):
                cache.set(f"t{n}:{i}", i, 30)
                assert cache.get(f"t{n}:{i}") == i
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(cache.get_many([f"t{n}:{i}" for n in range(8) for i in range(50)])) == 400
    cache.clear()
