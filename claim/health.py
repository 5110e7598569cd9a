"""``GET /api/v1/health``: database, Redis (when configured) and Celery workers, cheaply.

Anyone may call it (load balancers, monitors), so it must cost next to nothing (docs/security.md, "Rate
limits"): each server process computes the answer at most once per :data:`MAX_AGE` seconds, one caller at a
time, and every other call in that window gets the same answer (``"age_s"`` says how old). No check waits on
another process's work: the workers are known alive from the heartbeat each worker writes to Redis every few
seconds (:func:`claim.celery` signals), not from a 1-second broadcast ping. The status is 503 only when
this server cannot serve (database or Redis down); a busy or absent worker is reported (``checks.celery``)
but is not this server's failure.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import redis
from django.conf import settings
from django.db import connection
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view, authentication_classes, permission_classes, throttle_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

MAX_AGE = 2.0
HEARTBEAT_KEY = "claim:worker-heartbeats"  # sorted set: worker host name -> time of its last beat
HEARTBEAT_EVERY = 5
HEARTBEAT_TTL = 30

_lock = threading.Lock()
_last: tuple[float, dict[str, Any], int] | None = None


def _check(fn) -> dict[str, Any]:
    start = time.perf_counter()
    try:
        detail = fn()
        out: dict[str, Any] = {"ok": True}
        if detail:
            out["detail"] = detail
    except Exception as exc:  # a health check reports failures, it never raises
        out = {"ok": False, "error": type(exc).__name__}  # the class only: no address or message
    out["ms"] = round((time.perf_counter() - start) * 1000, 1)
    return out


def _database() -> str:
    with connection.cursor() as cur:
        cur.execute("SELECT 1")
        cur.fetchone()
    return connection.vendor


def _redis_client() -> Any:
    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)


def _redis() -> str:
    _redis_client().ping()
    return "pong"


def _celery() -> str:
    if settings.TASK_MODE != "celery":
        return f"in-process ({settings.TASK_MODE})"
    client = _redis_client() if settings.REDIS_URL else None
    if client is None:
        raise RuntimeError("no heartbeat store (Redis)")
    alive = client.zcount(HEARTBEAT_KEY, time.time() - HEARTBEAT_TTL, "+inf")
    if not alive:
        raise RuntimeError("no Celery worker heartbeat")
    return f"{alive} worker(s)"


def write_heartbeat(hostname: str) -> None:
    """Called by each Celery worker every :data:`HEARTBEAT_EVERY` seconds (claim/celery.py)."""
    now = time.time()
    pipe = _redis_client().pipeline()
    pipe.zadd(HEARTBEAT_KEY, {hostname: now})
    pipe.zremrangebyscore(HEARTBEAT_KEY, "-inf", now - 10 * HEARTBEAT_TTL)  # workers long gone
    pipe.execute()


def _compute() -> tuple[dict[str, Any], int]:
    checks = {"database": _check(_database), "celery": _check(_celery)}
    if settings.REDIS_URL:
        checks["redis"] = _check(_redis)
    ok = checks["database"]["ok"] and checks.get("redis", {"ok": True})["ok"]
    return {"ok": ok, "checks": checks}, 200 if ok else 503


def current() -> tuple[dict[str, Any], int, float]:
    """``(body, status, age in seconds)``: computed at most once per MAX_AGE per process."""
    global _last
    now = time.monotonic()
    last = _last
    if last is not None and now - last[0] < MAX_AGE:
        return last[1], last[2], now - last[0]
    with _lock:  # one computation at a time; the others wait for it instead of repeating it
        last = _last
        if last is not None and time.monotonic() - last[0] < MAX_AGE:
            return last[1], last[2], time.monotonic() - last[0]
        body, status = _compute()
        _last = (time.monotonic(), body, status)
        return body, status, 0.0


@extend_schema(
    summary="Service health",
    description=f"Database, Redis and Celery workers, as this server process saw them at most {MAX_AGE:g} s ago "
                "(`age_s`). 503 when the database or Redis is unreachable; `checks.celery.ok` is false when no "
                "worker's heartbeat is fresh (it does not make the answer 503).",
    responses={
        200: inline_serializer("Health", {
            "ok": serializers.BooleanField(),
            "age_s": serializers.FloatField(),
            "checks": serializers.DictField(child=serializers.DictField()),
        }),
        503: inline_serializer("HealthDown", {
            "ok": serializers.BooleanField(),
            "age_s": serializers.FloatField(),
            "checks": serializers.DictField(child=serializers.DictField()),
        }),
    },
    tags=["meta"],
)
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
@throttle_classes([])  # cached instead (module docstring): a monitor may poll it freely
def health(request: Request) -> Response:
    body, status, age = current()
    return Response({**body, "age_s": round(age, 2)}, status=status)


def reset() -> None:
    """Forget the cached answer (tests)."""
    global _last
    _last = None
