"""DRF's rate throttles (their cache: Django's default cache, Redis when ``REDIS_URL`` is set), each
reporting the quota it applied for the ``RateLimit`` fields (claim/ratelimit.py)."""

from __future__ import annotations

from rest_framework import throttling

from claim.ratelimit import ReportingThrottle


class AnonRateThrottle(ReportingThrottle, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(ReportingThrottle, throttling.UserRateThrottle):
    pass


class ScopedRateThrottle(ReportingThrottle, throttling.ScopedRateThrottle):
    """DRF's scoped throttle: the rate of the view's ``throttle_scope``."""
