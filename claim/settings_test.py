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

# Under pytest-xdist every worker has its own test database (pytest-django's _gw<n> suffix) and here
# its own Redis database, which the processes it starts (Celery workers, servers) inherit: ids restart
# at 1 in every test database, so a shared channel layer would mix two workers' "game.1" groups.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if XDIST_WORKER.startswith("gw") and os.environ.get("REDIS_URL"):
    _base, _, _db = os.environ["REDIS_URL"].rstrip("/").rpartition("/")
    if _db.isdigit() and _base.startswith("redis"):
        os.environ["REDIS_URL"] = f"{_base}/{10 + int(XDIST_WORKER[2:])}"
        for _var in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
            os.environ.pop(_var, None)

from .settings import *  # noqa: E402, F403

# Throttle counters in a per-process cache: tests clear it freely without flushing the Redis
# database that the channel layer and Celery share.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Tests register subscriptions at push.example (RFC 2606: never a real host) and fake the delivery.
PUSH_SERVICE_HOSTS = [*PUSH_SERVICE_HOSTS, "push.example", "push.example.org"]  # noqa: F405

# A transactional test's flush deletes rows instead of truncating tables (claim/test_postgresql/base.py).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"]["ENGINE"] = "claim.test_postgresql"  # noqa: F405
