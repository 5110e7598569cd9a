"""``GET /api/v1/health``: database, Redis (when configured) and Celery workers."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db import connection
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view, authentication_classes, permission_classes, throttle_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response


def _check(fn) -> dict[str, Any]:
    start = time.perf_counter()
    try:
        detail = fn()
        out: dict[str, Any] = {"ok": True}
        if detail:
            out["detail"] = detail
    except Exception as exc:  # a health check reports failures, it never raises
        out = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:200]}
    out["ms"] = round((time.perf_counter() - start) * 1000, 1)
    return out


def _database() -> str:
    with connection.cursor() as cur:
        cur.execute("SELECT 1")
        cur.fetchone()
    return connection.vendor


def _redis() -> str:
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    client.ping()
    return "pong"


def _celery() -> str:
    if settings.TASK_MODE != "celery":
        return f"in-process ({settings.TASK_MODE})"
    from claim.celery import app

    replies = app.control.inspect(timeout=1.0).ping() or {}
    if not replies:
        raise RuntimeError("no Celery worker answered")
    return f"{len(replies)} worker(s)"


@extend_schema(
    summary="Service health",
    responses=inline_serializer(
        "Health",
        {
            "ok": serializers.BooleanField(),
            "checks": serializers.DictField(child=serializers.DictField()),
        },
    ),
    tags=["meta"],
)
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
@throttle_classes([])
def health(request: Request) -> Response:
    checks = {"database": _check(_database), "celery": _check(_celery)}
    if settings.REDIS_URL:
        checks["redis"] = _check(_redis)
    ok = all(c["ok"] for c in checks.values())
    return Response({"ok": ok, "checks": checks}, status=200 if ok else 503)
