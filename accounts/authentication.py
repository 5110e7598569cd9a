"""``Authorization: Bearer clm_…`` personal-token authentication and scope checks."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from rest_framework import authentication, exceptions, permissions

from claim.rowsql import Join, JoinedSelect

from .models import ApiToken, User

# Every API request runs this lookup: its SQL is compiled once (claim/rowsql.py).
_TOKEN_WITH_USER = JoinedSelect(ApiToken, [Join("user")], where="t0.prefix = %s", order_by="t0.id")


def token_refusal(token: ApiToken | None, plain: str) -> str | None:
    """Why ``token`` (the row found for ``plain``'s prefix, with its user) does not authenticate, or None."""
    if token is None or not token.matches(plain):
        return "Invalid token."
    if not token.is_active:
        return "This token has been revoked; create a new one."
    if not token.user.is_active:
        return "This account is disabled."
    return None


def last_use_is_stale(token: ApiToken, now: Any) -> bool:
    """``last_used_at`` is written at most once a minute, not on every request."""
    return token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60


def authenticate_token(plain: str) -> tuple[User, ApiToken]:
    """Resolve a token string; raises AuthenticationFailed with a message a person can act on."""
    prefix = ApiToken.parse_prefix(plain)
    if prefix is None:
        raise exceptions.AuthenticationFailed("Malformed token: expected 'clm_<id>_<secret>'.")
    found = _TOKEN_WITH_USER.fetch([prefix])
    token = found[0] if found else None
    refusal = token_refusal(token, plain)
    if refusal is not None:
        raise exceptions.AuthenticationFailed(refusal)
    now = timezone.now()
    if last_use_is_stale(token, now):
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user, token


#: What a ``bot:play`` token of a bot account may do besides playing: read its games and its profile.
BOT_PLAY_IMPLIES = ("games:read", "games:play", "account:read")


def effective_scopes(scopes: Any, is_bot: bool) -> set[str]:
    """A token's scopes as checked: ``bot:play`` on a bot account includes :data:`BOT_PLAY_IMPLIES`
    (docs/api.md, "Authentication and scopes"); on an ordinary account it adds nothing."""
    have = set(scopes or [])
    if is_bot and "bot:play" in have:
        have.update(BOT_PLAY_IMPLIES)
    return have


class BearerTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).decode("latin-1")
        if not header:
            return None
        parts = header.split()
        if parts[0].lower() != self.keyword.lower():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Authorization header must be 'Bearer <token>'.")
        return authenticate_token(parts[1])

    def authenticate_header(self, request) -> str:
        return self.keyword


class HasScopes(permissions.BasePermission):
    """Token requests need every scope in the view's ``required_scopes`` (per method allowed).

    ``required_scopes`` may be a list (all methods) or a dict ``{"GET": [...], "POST": [...]}``.
    Session-authenticated requests (the PWA) have every scope.
    """

    message = "This token lacks a required scope."
    code = "insufficient_scope"

    def has_permission(self, request, view) -> bool:
        token = request.auth
        if not isinstance(token, ApiToken):
            return True
        required = getattr(view, "required_scopes", [])
        if isinstance(required, dict):
            required = required.get(request.method, required.get("*", []))
        have = effective_scopes(token.scopes, bool(getattr(request.user, "is_bot", False)))
        missing = [s for s in required if s not in have]
        if missing:
            self.message = f"This token lacks the scope(s): {', '.join(missing)}."
            return False
        return True


class SessionRequired(permissions.BasePermission):
    """Refuses token requests: some things need the account holder logged in with a password.

    Token management, password changes, profile edits and the bot upgrade are session-only, so a
    leaked token can't mint more tokens, lock the owner out or change the account. A view may set
    ``session_only_methods`` (e.g. ``{"PATCH"}``) to restrict only some methods.
    """

    message = "This needs a session login (the web app, with your password); API tokens can't be used here."
    code = "session_required"

    def has_permission(self, request, view) -> bool:
        if not isinstance(request.auth, ApiToken):
            return True
        methods = getattr(view, "session_only_methods", None)
        return methods is not None and request.method not in methods
