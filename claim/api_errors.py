"""One error shape for the whole API: ``{"error": {"code", "message", "fields"?}}``.

Every 4xx carries a message a person can act on; validation errors keep DRF's per-field
messages under ``fields``. Database and Redis outages (Redis holds the rate-limit counters every request
checks) become 503 with ``Retry-After`` instead of 500.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from django.views.defaults import page_not_found
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

log = logging.getLogger(__name__)


def _first_message(detail: Any) -> str:
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        msg = _first_message(value)
        return msg if key in ("non_field_errors", "detail") else f"{key}: {msg}"
    return str(detail)


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


def _other_scheme(context: dict[str, Any]) -> bool:
    """Whether the request named credentials of a scheme the API does not take (``Authorization: Basic …``)."""
    request = context.get("request")
    header = request.META.get("HTTP_AUTHORIZATION", "") if request is not None else ""
    return bool(header.strip()) and header.split(None, 1)[0].lower() != "bearer"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    database = isinstance(exc, (OperationalError, InterfaceError)) or type(exc) is DatabaseError
    # django-redis raises its ConnectionInterrupted from redis-py's error (the cache: throttles, sessions)
    if database or isinstance(exc, (RedisConnectionError, RedisTimeoutError, ConnectionInterrupted)):
        log.warning("%s unavailable: %s", "database" if database else "redis", type(exc).__name__)
        return Response(
            error_body("service_unavailable", "The service is briefly unavailable; please retry."),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "5"},
        )
    if isinstance(exc, RequestDataTooBig):
        limit_kb = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
        return Response(
            error_body("too_large", f"The request body is too large (at most {limit_kb} KB)."),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    # Django's own exceptions get the same shape as DRF's (get_object_or_404 and friends).
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "Not found.")
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or "You do not have permission to do this.")
    elif isinstance(exc, exceptions.NotAuthenticated) and _other_scheme(context):
        exc = exceptions.NotAuthenticated("The Authorization header must be 'Bearer <token>' (a personal API token "
                                          "or an OAuth access token, docs/accounts.md); other schemes are not taken.")
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = error_body("invalid", _first_message(exc.detail), fields=fields)
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        extra = {}
        # djangorestframework-stubs lack Throttled.wait (DRF sets it: the seconds to wait, or None)
        wait: float | None = exc.wait if isinstance(exc, exceptions.Throttled) else None  # type: ignore[attr-defined]
        if wait is not None:
            extra["retry_after"] = int(wait + 0.999)
        body = error_body(code, _first_message(exc.detail), **extra)
        # Views may attach extra payload (e.g. the current game view on 409).
        payload = getattr(exc, "payload", None)
        if payload:
            body["error"].update(payload)
        response.data = body
    return response


def not_found(request: Any, exception: Exception | None = None) -> Any:
    """``handler404``: an unknown URL under /api/ answers in the API's error shape, pointing to the
    docs, and a plain HTTP request for the socket's /ws/ says how to open it; other paths get Django's page
    (the PWA serves its own routes)."""
    if request.path.startswith("/api/"):
        message = f"There is no API endpoint at {request.path}: see /api/v1/docs/ for the endpoints."
        return JsonResponse(error_body("not_found", message), status=404)
    if request.path.startswith("/ws/"):
        message = ("/ws/ is the WebSocket endpoint: open it with a WebSocket client (an Upgrade: websocket "
                   "handshake); docs/realtime.md.")
        return JsonResponse(error_body("not_found", message), status=404)
    return page_not_found(request, exception)
