"""Rate limits for the account endpoints (rates: ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``).

* ``login``: per client IP + username (case-insensitive), every attempt counts.
* ``register``: per client IP.
* ``password_reset``: per client IP and, separately, per e-mail address asked for.

The client IP is ``REMOTE_ADDR`` unless ``REST_FRAMEWORK["NUM_PROXIES"]`` is set: DRF's default
would otherwise trust a client-supplied ``X-Forwarded-For`` and a brute-forcer could rotate it.
Rates are read when a request is checked (not at import), so tests can lower them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from rest_framework import exceptions
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle


class Throttled(exceptions.Throttled):
    extra_detail_singular = "Try again in {wait} second."
    extra_detail_plural = "Try again in {wait} seconds."


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:32]


def _field(request, name: str) -> str:
    data = request.data
    value = data.get(name, "") if isinstance(data, Mapping) else ""
    return str(value).strip().lower()[:254]


class _AccountThrottle(SimpleRateThrottle):
    @property
    def THROTTLE_RATES(self):  # DRF reads this name; a property reads the rates now, not at import
        return api_settings.DEFAULT_THROTTLE_RATES

    def get_ident(self, request) -> str:
        if api_settings.NUM_PROXIES is None:
            return request.META.get("REMOTE_ADDR") or "unknown"
        return super().get_ident(request)

    def key(self, ident: str) -> str:
        return self.cache_format % {"scope": self.scope, "ident": ident}


class LoginThrottle(_AccountThrottle):
    scope = "login"

    def get_cache_key(self, request, view) -> str:
        return self.key(f"{self.get_ident(request)}:{_digest(_field(request, 'username'))}")


class RegisterThrottle(_AccountThrottle):
    scope = "register"

    def get_cache_key(self, request, view) -> str:
        return self.key(self.get_ident(request))


class PasswordResetIPThrottle(_AccountThrottle):
    scope = "password_reset"

    def get_cache_key(self, request, view) -> str:
        return self.key(f"ip:{self.get_ident(request)}")


class PasswordResetEmailThrottle(_AccountThrottle):
    """Stops anyone from flooding one inbox from many addresses."""

    scope = "password_reset"

    def get_cache_key(self, request, view) -> str | None:
        email = _field(request, "email")
        return self.key(f"email:{_digest(email)}") if email else None


class AdminLoginThrottle(_AccountThrottle):
    """``/admin/login/`` POSTs per client address, at the ``login`` rate (Django's admin has no limit)."""

    scope = "login"

    def get_cache_key(self, request, view) -> str:
        return self.key(f"admin:{self.get_ident(request)}")


def throttled_admin_login(request, extra_context=None):
    """Django admin's login view behind :class:`AdminLoginThrottle`: 429 with ``Retry-After`` past the rate."""
    from django.contrib import admin
    from django.http import HttpResponse

    if request.method == "POST":
        throttle = AdminLoginThrottle()
        if not throttle.allow_request(request, None):
            wait = int((throttle.wait() or 60) + 0.999)
            response = HttpResponse(f"Too many login attempts: try again in {wait} seconds.", status=429,
                                    content_type="text/plain; charset=utf-8")
            response["Retry-After"] = str(wait)
            return response
    return admin.site.login(request, extra_context)
