"""``Authorization: Bearer …`` authentication and scope checks, for both kinds of token.

* ``clm_<prefix>_<secret>``: a personal API token (:class:`accounts.models.ApiToken`);
* ``clo_…``: an OAuth 2 access token issued to a third-party app by django-oauth-toolkit (accounts/oauth.py).

Both resolve through :func:`authenticate_token` to ``(user, token)`` and are checked against the same scope list
(accounts/scopes.py) by :func:`effective_scopes`: REST (:class:`BearerTokenAuthentication`, :class:`HasScopes`,
games.api.permissions), the socket (accounts.ws_auth) and the NDJSON streams (games/streams.py) alike.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from oauth2_provider.models import AbstractAccessToken
from rest_framework import authentication, exceptions, permissions

from claim.rowsql import Join, JoinedSelect

from .models import ApiToken, User
from .oauth import OAUTH_ACCESS_PREFIX, authenticate_oauth, oauth_token_valid

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


def authenticate_token(plain: str) -> tuple[User, Any]:
    """Resolve a token string (personal or OAuth) to ``(user, token)``; raises AuthenticationFailed with a
    message a person can act on."""
    if plain.startswith(OAUTH_ACCESS_PREFIX):
        return authenticate_oauth(plain)
    prefix = ApiToken.parse_prefix(plain)
    if prefix is None:
        raise exceptions.AuthenticationFailed(
            "Malformed token: expected a personal token 'clm_<id>_<secret>' or an OAuth access token 'clo_…'.")
    found = _TOKEN_WITH_USER.fetch([prefix])
    token = found[0] if found else None
    refusal = token_refusal(token, plain)
    if refusal is not None:
        raise exceptions.AuthenticationFailed(refusal)
    assert token is not None  # token_refusal refuses a missing token
    now = timezone.now()
    if last_use_is_stale(token, now):
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user, token


#: What a ``bot:play`` token of a bot account may do besides playing: read its games and its profile.
BOT_PLAY_IMPLIES = ("games:read", "games:play", "account:read")


def is_bearer_token(auth: Any) -> bool:
    """Whether ``request.auth`` (or a socket's ``scope["token"]``) is a token, personal or OAuth, rather than a
    session (which has every scope)."""
    return isinstance(auth, (ApiToken, AbstractAccessToken))


def token_still_valid(token: Any) -> bool:
    """Whether an open socket's or stream's token still authenticates: not revoked (an OAuth token: not deleted
    by revocation, not expired) and its user active. Asked on every ``auth.recheck`` (accounts.services)."""
    if isinstance(token, ApiToken):
        return ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True, user__is_active=True).exists()
    return oauth_token_valid(token)


def effective_scopes(scopes: Any, is_bot: bool) -> set[str]:
    """A token's scopes as checked (``ApiToken.scopes`` is a list; an OAuth ``AccessToken.scopes`` is
    django-oauth-toolkit's dict of granted scope names, which iterates as those names): ``bot:play`` on a bot
    account includes :data:`BOT_PLAY_IMPLIES` (docs/api.md, "Authentication and scopes"); on an ordinary account
    it adds nothing."""
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

    @staticmethod
    def openapi_scopes(view: Any, method: str) -> list[str]:
        """The scopes a token needs for ``method`` (the OpenAPI schema's OAuth requirement: accounts.openapi)."""
        required = getattr(view, "required_scopes", None) or []
        if isinstance(required, dict):
            required = required.get(method, required.get("*", []))
        return list(required or [])

    def has_permission(self, request, view) -> bool:
        token = request.auth
        if not is_bearer_token(token):
            return True
        required = self.openapi_scopes(view, request.method)
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
        if not is_bearer_token(request.auth):
            return True
        methods = getattr(view, "session_only_methods", None)
        return methods is not None and request.method not in methods
