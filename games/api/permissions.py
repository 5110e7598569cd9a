"""Token scopes for the game endpoints.

* Reading (GET) needs ``games:read``.
* Playing (POST: create, join, move, resign, abort, rematch) needs ``games:play``, or ``bot:play`` on a
  bot account (``User.is_bot``). A ``bot:play`` token of a non-bot account does not allow playing.
* A bot account's ``bot:play`` token may also read its games.
* Session-authenticated requests (the PWA) have every scope.
"""

from __future__ import annotations

from typing import Any

from rest_framework import permissions

from accounts.authentication import effective_scopes, is_bearer_token

READ, PLAY = "games:read", "games:play"
BOT = "bot:play"


class GameScopes(permissions.BasePermission):
    message = "This token lacks a required scope."
    code = "insufficient_scope"  # the same code as accounts.authentication.HasScopes

    @staticmethod
    def openapi_scopes(view: Any, method: str) -> list[str]:
        """The scope a token needs for ``method`` (the OpenAPI schema's OAuth requirement: accounts.openapi)."""
        return [READ] if method in permissions.SAFE_METHODS else [PLAY]

    def has_permission(self, request, view) -> bool:
        token = request.auth
        if not is_bearer_token(token):
            return True
        refusal = scope_refusal(token.scopes, bool(getattr(request.user, "is_bot", False)),
                                reading=request.method in permissions.SAFE_METHODS)
        if refusal is None:
            return True
        self.message = refusal
        return False


def scope_refusal(scopes: Any, is_bot: bool, reading: bool) -> str | None:
    """Why a token with ``scopes`` may not read (GET) or play (POST) games, or None when it may."""
    have = effective_scopes(scopes, is_bot)
    if reading:
        return None if READ in have else f"This token lacks the scope: {READ}."
    if PLAY in have:
        return None
    if BOT in have and not is_bot:
        return f"The scope {BOT} is only valid for bot accounts; this token needs {PLAY}."
    return f"This token lacks the scope: {PLAY} (or {BOT} for a bot account)."
