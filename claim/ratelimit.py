"""``RateLimit`` and ``RateLimit-Policy`` response fields (IETF draft-ietf-httpapi-ratelimit-headers-10).

Every throttle that checks a request (DRF's, ours in :mod:`claim.throttling`, the account throttles)
reports its quota, what is left and when the window frees a request (:class:`ReportingThrottle`); the
middleware writes them on the answer, allowed or 429::

    RateLimit-Policy: "user";q=1200;w=60, "moves";q=600;w=60
    RateLimit: "user";r=1187;t=60, "moves";r=598;t=60

``q`` requests per ``w`` seconds; ``r`` requests left now; ``t`` seconds until the oldest request counted
leaves the window (so one more is allowed then). The policy names are the throttle scopes of
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (docs/api.md, "Rate limits").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction

if TYPE_CHECKING:  # to mypy the mixin is the throttle it is mixed into; at run time its base is object
    from rest_framework.throttling import SimpleRateThrottle as _MixedInto
else:
    _MixedInto = object

ATTR = "ratelimit_quota"


@dataclass(frozen=True)
class Quota:
    policy: str
    limit: int
    window: int
    remaining: int
    reset: int


def record(request: Any, quota: Quota) -> None:
    """Keep ``quota`` on the Django request (DRF's ``Request`` wraps it); one entry per policy name."""
    raw = getattr(request, "_request", request)
    quotas = getattr(raw, ATTR, None)
    if quotas is None:
        quotas = {}
        setattr(raw, ATTR, quotas)
    quotas[quota.policy] = quota


class ReportingThrottle(_MixedInto):
    """Mixin for a ``SimpleRateThrottle``: after the check, report the quota it applied."""

    policy_name: str | None = None
    # SimpleRateThrottle.__init__ sets them from its rate, None without one (djangorestframework-stubs do not
    # declare them).
    num_requests: int | None
    duration: int | None

    def allow_request(self, request: Any, view: Any) -> bool:
        allowed = super().allow_request(request, view)
        state = self.__dict__
        history = state.get("history")
        if state.get("key") is None or history is None or getattr(self, "rate", None) is None:
            return allowed  # the throttle did not apply to this request
        policy, num_requests, duration = self.policy_name or self.scope, self.num_requests, self.duration
        # Not reached (a throttle's rate comes with its scope and parses to a count and a window):
        if policy is None or num_requests is None or duration is None:
            return allowed
        limit, window = int(num_requests), int(duration)
        if allowed:
            remaining = max(limit - len(history), 0)
            reset = window if not history else math.ceil(max(history[-1] + window - self.now, 0))
        else:
            remaining, reset = 0, math.ceil(self.wait() or 0)
        record(request, Quota(policy, limit, window, remaining, reset))
        return allowed


def fields(quotas: dict[str, Quota]) -> dict[str, str]:
    items = list(quotas.values())
    return {
        "RateLimit-Policy": ", ".join(f'"{q.policy}";q={q.limit};w={q.window}' for q in items),
        "RateLimit": ", ".join(f'"{q.policy}";r={q.remaining};t={q.reset}' for q in items),
    }


class RateLimitHeaders:
    """Middleware: the fields of the throttles that checked this request."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: Any) -> Any:
        if self.is_async:
            return self._acall(request)
        return self._add(request, self.get_response(request))

    async def _acall(self, request: Any) -> Any:
        return self._add(request, await self.get_response(request))

    @staticmethod
    def _add(request: Any, response: Any) -> Any:
        quotas = getattr(request, ATTR, None)
        if quotas:
            for name, value in fields(quotas).items():
                response[name] = value
        return response
