"""OAuth 2 for third-party apps: django-oauth-toolkit (DOT) with this project's tokens and scopes.

docs/api.md, "OAuth", says how an app uses it.

* Authorization code with PKCE S256 only (``OAUTH2_PROVIDER`` in claim/settings.py: plain, implicit and password
  grants are refused by DOT's RFC 9700 gates). Applications are registered by the operator in the Django admin
  (docs/api.md says how); a public client needs only its ``client_id`` and PKCE.
* The consent page is the PWA's ``#/authorize`` screen: ``GET /o/authorize/`` sends the browser there with the
  same query; the screen reads what it shows from ``GET /api/v1/oauth/authorize`` and posts the decision to
  ``POST /api/v1/oauth/authorize`` (session + CSRF), whose answer names where to send the browser
  (accounts/oauth_views.py). DOT/oauthlib validate the request both times (client, exact redirect URI, PKCE,
  scopes) and make the code.
* Access tokens look like ``clo_…`` (refresh tokens ``clr_…``); DOT stores only their SHA-256
  (``COMPLIANT_BCP_RFC9700_TOKEN_STORAGE``). :func:`authenticate_oauth` resolves one for
  accounts.authentication, so REST, the socket and the NDJSON streams accept it like a personal token with the
  same scopes.
* Revoking (DOT's RFC 7009 endpoint, the user's "authorized apps" list, a password reset) deletes the access
  token; the ``post_delete`` signal asks the user's open sockets and streams to re-check their credential
  (accounts.signals.recheck_sockets), which closes this token's within seconds.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_grant_model, get_refresh_token_model
from oauth2_provider.scopes import BaseScopes
from rest_framework import exceptions

from .scopes import DEFAULT_SCOPES, SCOPES
from .signals import recheck_sockets

OAUTH_ACCESS_PREFIX = "clo_"
OAUTH_REFRESH_PREFIX = "clr_"


class ApiScopes(BaseScopes):
    """django-oauth-toolkit's scopes: the personal tokens' list (:data:`accounts.scopes.SCOPES`), not a copy."""

    def get_all_scopes(self) -> dict[str, str]:
        return dict(SCOPES)

    def get_available_scopes(self, application: Any = None, request: Any = None, *args: Any,
                             **kwargs: Any) -> list[str]:
        return list(SCOPES)

    def get_default_scopes(self, application: Any = None, request: Any = None, *args: Any,
                           **kwargs: Any) -> list[str]:
        return list(DEFAULT_SCOPES)


def new_access_token(request: Any = None) -> str:
    """DOT's ``ACCESS_TOKEN_GENERATOR``: ``clo_`` + 256 random bits (a prefix secret scanners can match)."""
    return OAUTH_ACCESS_PREFIX + secrets.token_urlsafe(32)


def new_refresh_token(request: Any = None) -> str:
    """DOT's ``REFRESH_TOKEN_GENERATOR``: ``clr_`` + 256 random bits."""
    return OAUTH_REFRESH_PREFIX + secrets.token_urlsafe(32)


def _checksum(plain: str) -> str:
    return hashlib.sha256(plain.encode()).hexdigest()  # DOT's token_checksum


def authenticate_oauth(plain: str) -> tuple[Any, Any]:
    """``(user, AccessToken)`` for a ``clo_…`` bearer token; AuthenticationFailed with an actionable message."""
    token = (get_access_token_model().objects.select_related("user", "application")
             .filter(token_checksum=_checksum(plain)).first())
    if token is None:
        raise exceptions.AuthenticationFailed(
            "Invalid OAuth access token (unknown or revoked): authorize the app again.")
    if token.is_expired():
        raise exceptions.AuthenticationFailed("This OAuth access token has expired: get a new one with the refresh "
                                              "token (POST /o/token/, grant_type=refresh_token).")
    if token.user is None or not token.user.is_active:
        raise exceptions.AuthenticationFailed("This account is disabled.")
    return token.user, token


def oauth_token_valid(token: Any) -> bool:
    """An open socket's or stream's OAuth token still exists (not revoked), has not expired, and its user is active."""
    return get_access_token_model().objects.filter(pk=token.pk, expires__gt=timezone.now(),
                                                   user__is_active=True).exists()


def revoke_app_for_user(user: Any, application: Any) -> int:
    """End every grant of ``application`` for ``user``: refresh tokens revoked, access tokens and codes deleted.
    Returns how many access tokens ended (their sockets and streams close: :func:`on_access_token_deleted`)."""
    with transaction.atomic():
        for refresh in get_refresh_token_model().objects.filter(user=user, application=application,
                                                                revoked__isnull=True):
            refresh.revoke()
        get_grant_model().objects.filter(user=user, application=application).delete()
        ended, _ = get_access_token_model().objects.filter(user=user, application=application).delete()
    return ended


def revoke_all_for_user(user: Any) -> None:
    """A password reset: every app's tokens and codes of ``user`` end."""
    with transaction.atomic():
        for refresh in get_refresh_token_model().objects.filter(user=user, revoked__isnull=True):
            refresh.revoke()
        get_grant_model().objects.filter(user=user).delete()
        get_access_token_model().objects.filter(user=user).delete()


def on_access_token_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    """``post_delete`` of DOT's AccessToken (revocation deletes it): the user's sockets and streams re-check."""
    if instance.user_id is not None:
        recheck_sockets(instance.user_id)


def connect_signals() -> None:
    post_delete.connect(on_access_token_deleted, sender=get_access_token_model(),
                        dispatch_uid="accounts.oauth.on_access_token_deleted")
