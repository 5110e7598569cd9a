"""WebSocket authentication and the Origin check, decided in one place (docs/security.md, "CSRF and Origin").

A socket authenticates in exactly one of two ways:

* **A token** (the ``token`` query parameter, exactly that name, or ``Authorization: Bearer``), for
  third-party clients that often send no ``Origin``. The token is the credential: the session cookie is
  not looked at, and the Origin check is skipped *only when the token itself authenticates*. An invalid or
  revoked token gets an anonymous user (the consumer closes with 4401); a cookie never rescues it.
* **The session cookie** (the PWA). Browsers attach cookies to cross-site sockets too, so this way always
  passes Channels' ``AllowedHostsOriginValidator`` first (cross-site WebSocket hijacking): a page of another
  origin gets its handshake refused.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.auth import AuthMiddleware
from channels.db import database_sync_to_async
from channels.security.websocket import AllowedHostsOriginValidator
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.contrib.auth.models import AnonymousUser
from rest_framework.exceptions import AuthenticationFailed


@database_sync_to_async
def _user_for_token(plain: str) -> tuple[Any, Any]:
    from .authentication import authenticate_token

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


class SocketAuthMiddleware:
    """Token, or session cookie behind the Origin check (module docstring). Wrap in the session stack."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.cookie_app = AllowedHostsOriginValidator(AuthMiddleware(inner))

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        plain = presented_token(scope)
        if plain is None:
            return await self.cookie_app(scope, receive, send)
        user, token = await _user_for_token(plain)
        scope = dict(scope, user=user, token=token, token_invalid=token is None)
        return await self.inner(scope, receive, send)


def SocketAuthStack(inner: Any) -> Any:
    return CookieMiddleware(SessionMiddleware(SocketAuthMiddleware(inner)))
