"""DRF's rate throttles (their cache: Django's default cache, Redis when ``REDIS_URL`` is set), each
reporting the quota it applied for the ``RateLimit`` fields (claim/ratelimit.py)."""

from __future__ import annotations

from rest_framework import throttling
from rest_framework.settings import api_settings

from claim.ratelimit import ReportingThrottle


def configured_rate(scope: str) -> str | None:
    """``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope]`` as DRF reads it now: ``"count/period"``, or None."""
    # djangorestframework-stubs type the rates float | int | None; DRF's are strings ("10/min") or None
    rate: str | None = api_settings.DEFAULT_THROTTLE_RATES.get(scope)  # type: ignore[assignment]
    return rate


class AnonRateThrottle(ReportingThrottle, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(ReportingThrottle, throttling.UserRateThrottle):
    pass


class UserWriteThrottle(UserRateThrottle):
    """A per-user rate on writes only (reads pass): the ``scope``'s configured rate, read per request, else
    ``default``."""

    default = "60/min"

    def get_rate(self) -> str:
        return (configured_rate(self.scope) if self.scope else None) or self.default

    def allow_request(self, request, view) -> bool:
        return request.method in ("GET", "HEAD", "OPTIONS") or super().allow_request(request, view)


class ScopedRateThrottle(ReportingThrottle, throttling.ScopedRateThrottle):
    """DRF's scoped throttle: the rate of the view's ``throttle_scope``."""
