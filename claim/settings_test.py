"""Settings for pytest: the real settings with test defaults filled in.

``make test`` sets DATABASE_URL/REDIS_URL to the real PostgreSQL and Redis. A bare ``pytest``
without DATABASE_URL falls back to the embedded SQLite setup so a quick local run still works.
"""

from __future__ import annotations

import os

os.environ.setdefault("CLAIM_TESTING", "1")
os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production-use-0123456789")
if not os.environ.get("DATABASE_URL"):
    os.environ.setdefault("CLAIM_EMBEDDED", "1")

from .settings import *  # noqa: F403

# Throttle counters in a per-process cache: tests clear it freely without flushing the Redis
# database that the channel layer and Celery share.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Tests register subscriptions at push.example (RFC 2606: never a real host) and fake the delivery.
PUSH_SERVICE_HOSTS = [*PUSH_SERVICE_HOSTS, "push.example", "push.example.org"]  # noqa: F405
