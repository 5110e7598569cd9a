"""Rate limits for the account endpoints (rates: ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``).

* ``login``: per client IP + account, every attempt counts.
* ``login_account``: failed logins per account from all addresses together (:class:`LoginAccountThrottle`);
  a browser the account logged in from before is exempt.
* ``register``: per client IP.
* ``password_reset``: per client IP and, separately, per e-mail address asked for.
* ``password_change`` (the ``login`` rate): per account, every attempt counts (it checks the old password).

"Account" is the account the typed name resolves to by the lookup's own rule (:mod:`accounts.lookup`): its
primary key when it resolves, otherwise the name's canonical form (NFKC + case folding); e-mail addresses
are keyed by their canonical form, the rule the reset lookup matches by. So no spelling of a name
(upper case, long s, full-width letters) has a quota of its own.

The client IP is ``REMOTE_ADDR`` unless ``REST_FRAMEWORK["NUM_PROXIES"]`` is set: DRF's default
would otherwise trust a client-supplied ``X-Forwarded-For`` and a brute-forcer could rotate it.
Rates are read when a request is checked (not at import), so tests can lower them.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import re
import time
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponse
from rest_framework import exceptions
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from claim.ratelimit import Quota, ReportingThrottle, record
from claim.throttling import configured_rate

from .lookup import canonical, user_for_login
from .models import User

#: The cookie naming the account a browser last logged in to (signed; :func:`remember_device`).
DEVICE_COOKIE = "claim_login_device"
DEVICE_MAX_AGE = 365 * 86400
_DEVICE_SALT = "accounts.throttles.login-device"
_RESERVED = "_claim_login_account_reservation"
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])[a-z]*\s*$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class Throttled(exceptions.Throttled):
    extra_detail_singular = "Try again in {wait} second."
    extra_detail_plural = "Try again in {wait} seconds."


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:32]


def _raw_field(request: Any, name: str) -> str:
    """The field as typed and trimmed (as the serializers trim it), from a DRF request or a Django form post."""
    data = request.data if hasattr(request, "data") else request.POST
    value = data.get(name, "") if isinstance(data, Mapping) else ""
    return str(value).strip()


def account_ident(request: Any) -> str | None:
    """``user:<pk>`` of the account the request's ``username`` resolves to, else ``name:<digest of its
    canonical form>``; None without a username."""
    name = _raw_field(request, "username")
    if not name:
        return None
    user = user_for_login(name, request)
    return f"user:{user.pk}" if user is not None else f"name:{_digest(canonical(name)[:254])}"


def parse_rate(rate: str) -> tuple[int, int]:
    """``"30/15min"`` → (30, 900): a count per a number (default 1) of seconds, minutes, hours or days."""
    match = _RATE.match(rate)
    if match is None:
        raise ImproperlyConfigured(f"Throttle rate {rate!r}: write a count per period, e.g. '30/15min' or '10/min'.")
    count, multiple, unit = match.groups()
    return int(count), int(multiple or 1) * _UNITS[unit]


# --- The browser an account logged in from --------------------------------------------------------

def remember_device(response: Any, user: User) -> None:
    """Set :data:`DEVICE_COOKIE` (signed with the secret key, ``HttpOnly``, a year) to ``user``'s key."""
    response.set_cookie(DEVICE_COOKIE, signing.dumps(user.pk, salt=_DEVICE_SALT), max_age=DEVICE_MAX_AGE,
                        secure=settings.SESSION_COOKIE_SECURE, httponly=True, samesite="Lax")


def known_device(request: Any, user: User) -> bool:
    """Whether the request carries a valid :data:`DEVICE_COOKIE` of ``user`` (set by a successful login)."""
    value = request.COOKIES.get(DEVICE_COOKIE)
    if not value:
        return False
    try:
        return signing.loads(value, salt=_DEVICE_SALT, max_age=DEVICE_MAX_AGE) == user.pk
    except signing.BadSignature:
        return False


# --- Throttles ------------------------------------------------------------------------------------

class _AccountThrottle(ReportingThrottle, SimpleRateThrottle):
    @property
    def THROTTLE_RATES(self):  # DRF reads this name; a property reads the rates now, not at import
        return api_settings.DEFAULT_THROTTLE_RATES

    def get_ident(self, request) -> str:
        if api_settings.NUM_PROXIES is None:
            return request.META.get("REMOTE_ADDR") or "unknown"
        return super().get_ident(request)

    def _key(self, ident: str) -> str:
        """The cache key of ``ident`` (a method of another name than DRF's ``key`` attribute, the cache key
        ``allow_request`` keeps on the instance: that would hide the method for a second check)."""
        return self.cache_format % {"scope": self.scope, "ident": ident}


class LoginThrottle(_AccountThrottle):
    scope = "login"

    def get_cache_key(self, request, view) -> str:
        return self._key(f"{self.get_ident(request)}:{account_ident(request) or '-'}")


class LoginAccountThrottle(BaseThrottle):
    """Failed logins of one account from all addresses together: ``login_account`` (``THROTTLE_LOGIN_ACCOUNT``)
    per fixed window; past it, 429 with ``Retry-After`` until the window ends, then the count starts again.

    Each login attempt takes one of the window's places *before* its password is checked (an atomic cache
    increment, so parallel requests from many addresses cannot overshoot); :func:`release` gives it back when
    the login succeeds or another limit refuses the request, so only failed logins stay counted. A browser
    with the account's :data:`DEVICE_COOKIE` (it logged in there before) is exempt: an attacker slows down,
    the owner's own devices never wait, and a new device at most until the window ends.
    """

    scope = "login_account"

    def __init__(self) -> None:
        self._wait: float | None = None

    def allow_request(self, request: Any, view: Any) -> bool:
        name = _raw_field(request, "username")
        if not name:
            return True
        user = user_for_login(name, request)
        if user is not None and known_device(request, user):
            return True
        rate = configured_rate(self.scope)
        if rate is None:  # no rate set: no limit, as DRF's throttles read a rate of None
            return True
        limit, window = parse_rate(rate)
        now = time.time()
        index = int(now // window)
        key = f"throttle_{self.scope}_{account_ident(request)}_{index}"
        cache.add(key, 0, timeout=window + 60)
        try:
            count = cache.incr(key)
        except ValueError:  # evicted between add and incr
            cache.set(key, 1, timeout=window + 60)
            count = 1
        setattr(getattr(request, "_request", request), _RESERVED, key)
        left = (index + 1) * window - now
        allowed = count <= limit
        self._wait = None if allowed else left
        record(request, Quota(self.scope, limit, window, max(limit - count, 0), math.ceil(left)))
        return allowed

    def wait(self) -> float | None:
        return self._wait


def release(request: Any) -> None:
    """Give back the place :class:`LoginAccountThrottle` took for this request (a success, or refused anyway)."""
    raw = getattr(request, "_request", request)
    key = raw.__dict__.pop(_RESERVED, None)
    if key is not None:
        with contextlib.suppress(ValueError):  # ValueError: the window ended meanwhile
            cache.decr(key)


class RegisterThrottle(_AccountThrottle):
    scope = "register"

    def get_cache_key(self, request, view) -> str:
        return self._key(self.get_ident(request))


class PasswordResetIPThrottle(_AccountThrottle):
    scope = "password_reset"

    def get_cache_key(self, request, view) -> str:
        return self._key(f"ip:{self.get_ident(request)}")


class PasswordResetEmailThrottle(_AccountThrottle):
    """Stops anyone from flooding one inbox from many addresses: keyed by the canonical e-mail, the form
    the reset lookup matches (:func:`accounts.lookup.users_with_email`)."""

    scope = "password_reset"
    policy_name = "password_reset_email"  # RateLimit fields: a quota of its own (claim/ratelimit.py)

    def get_cache_key(self, request, view) -> str | None:
        email = canonical(_raw_field(request, "email"))[:254]
        return self._key(f"email:{_digest(email)}") if email else None


class PasswordChangeThrottle(_AccountThrottle):
    """Password changes per account at the ``login`` rate: each checks the old password."""

    scope = "login"
    policy_name = "password_change"

    def get_cache_key(self, request, view) -> str | None:
        user = request.user
        return self._key(f"password_change:{user.pk}") if user.is_authenticated else None


class AdminLoginThrottle(_AccountThrottle):
    """``/admin/login/`` POSTs per client address, at the ``login`` rate (Django's admin has no limit)."""

    scope = "login"

    def get_cache_key(self, request, view) -> str:
        return self._key(f"admin:{self.get_ident(request)}")


def _too_many(throttle: Any) -> Any:
    wait = int((throttle.wait() or 60) + 0.999)
    response = HttpResponse(f"Too many login attempts: try again in {wait} seconds.", status=429,
                            content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(wait)
    return response


def throttled_admin_login(request, extra_context=None):
    """Django admin's login view behind :class:`AdminLoginThrottle` and :class:`LoginAccountThrottle`: 429
    with ``Retry-After`` past either rate."""
    if request.method != "POST":
        return admin.site.login(request, extra_context)
    throttle = AdminLoginThrottle()
    if not throttle.allow_request(request, None):
        return _too_many(throttle)
    account = LoginAccountThrottle()
    if not account.allow_request(request, None):
        release(request)
        return _too_many(account)
    response = admin.site.login(request, extra_context)
    if request.user.is_authenticated:
        release(request)
        remember_device(response, request.user)
    return response
