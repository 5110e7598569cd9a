"""WebSocket authentication and the Origin check, decided in one place (docs/security.md, "CSRF and Origin").

A socket authenticates in exactly one of two ways:

* **A token** (the ``token`` query parameter, exactly that name, or ``Authorization: Bearer``), for
  third-party clients that often send no ``Origin``. The token is the credential: the session cookie is
  not looked at, and the Origin check is skipped *only when the token itself authenticates*. An invalid or
  revoked token gets an anonymous user (the consumer closes with 4401); a cookie never rescues it.
* **The session cookie** (the PWA). Browsers attach cookies to cross-origin sockets too (a page on another
  port of the same host is even the *same site*, so ``SameSite=Lax`` does not stop it), so this way always
  passes :func:`origin_allowed` first (cross-site WebSocket hijacking): the ``Origin`` must be the socket's
  own origin (its host *and port*, the ``Host`` the socket was opened to, itself one of ``ALLOWED_HOSTS``)
  or one of ``CSRF_TRUSTED_ORIGINS``. Channels' ``AllowedHostsOriginValidator`` compares host names only,
  so a page at ``http://127.0.0.1:9999`` passed it for a server at ``127.0.0.1:8000``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from channels.auth import AuthMiddleware
from channels.db import database_sync_to_async
from channels.security.websocket import WebsocketDenier
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http.request import split_domain_port, validate_host
from rest_framework.exceptions import AuthenticationFailed

from .authentication import authenticate_token


@database_sync_to_async
def _user_for_token(plain: str) -> tuple[Any, Any]:
    try:
        user, token = authenticate_token(plain)
    except AuthenticationFailed:
        return AnonymousUser(), None
    return user, token


def presented_token(scope: dict[str, Any]) -> str | None:
    """The token a socket presents (``Authorization: Bearer`` wins over ``?token=``), or ``None``."""
    plain = None
    try:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    except ValueError:
        query = {}
    if query.get("token"):
        plain = query["token"][0]
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            parts = value.decode("latin-1").split()
            if len(parts) == 2 and parts[0].lower() == "bearer":
                plain = parts[1]
    return plain


def origin_allowed(scope: dict[str, Any]) -> bool:
    """The socket's ``Origin`` is its own origin (same host and port as ``Host``, an allowed host) or trusted."""
    headers = {name: value.decode("latin-1") for name, value in scope.get("headers", [])}
    origin, host = headers.get(b"origin", ""), headers.get(b"host", "").lower()
    if not origin or not host:
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != host:
        return False
    domain, _ = split_domain_port(host)
    return bool(domain) and validate_host(domain, settings.ALLOWED_HOSTS)


class SocketAuthMiddleware:
    """Token, or session cookie behind the Origin check (module docstring). Wrap in the session stack."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.cookie_app = AuthMiddleware(inner)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        plain = presented_token(scope)
        if plain is None:
            if not origin_allowed(scope):
                return await WebsocketDenier()(scope, receive, send)
            return await self.cookie_app(scope, receive, send)
        user, token = await _user_for_token(plain)
        scope = dict(scope, user=user, token=token, token_invalid=token is None)
        return await self.inner(scope, receive, send)


def SocketAuthStack(inner: Any) -> Any:
    return CookieMiddleware(SessionMiddleware(SocketAuthMiddleware(inner)))
