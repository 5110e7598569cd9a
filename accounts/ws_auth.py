"""WebSocket authentication: the session cookie (PWA) or a token (``?token=`` or
``Authorization: Bearer`` header, for third-party clients)."""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from rest_framework.exceptions import AuthenticationFailed


@database_sync_to_async
def _user_for_token(plain: str):
    from .authentication import authenticate_token

    try:
        user, token = authenticate_token(plain)
    except AuthenticationFailed:
        return AnonymousUser(), None
    return user, token


class TokenAuthMiddleware:
    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        plain = None
        query = parse_qs(scope.get("query_string", b"").decode())
        if query.get("token"):
            plain = query["token"][0]
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                parts = value.decode("latin-1").split()
                if len(parts) == 2 and parts[0].lower() == "bearer":
                    plain = parts[1]
        if plain:
            user, token = await _user_for_token(plain)
            scope = dict(scope, user=user, token=token, token_invalid=token is None)
        return await self.inner(scope, receive, send)


def TokenOrSessionAuthMiddlewareStack(inner):
    return AuthMiddlewareStack(TokenAuthMiddleware(inner))
