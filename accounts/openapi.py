"""OpenAPI pieces: the token and OAuth security schemes, the OAuth server's endpoints, the shared error envelope.

The error components (`ApiError`/`ApiErrorDetail`) describe `claim.api_errors`; other apps may reuse
`error_responses` so the schema has one error shape. The OAuth token and revocation endpoints are
django-oauth-toolkit's own views (not DRF views, so the generator does not see them): `add_oauth_endpoints`
documents them (`SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]`).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from .authentication import BOT_PLAY_IMPLIES
from .scopes import SCOPES

TOKEN_SCHEME, OAUTH_SCHEME = "tokenAuth", "oauth2"
BOT_SCOPE = "bot:play"

def operation_scopes(view: Any, method: str) -> list[str]:
    """The token scopes an operation needs: what its permissions say (`openapi_scopes(view, method)`)."""
    needed: list[str] = []
    for permission in view.get_permissions():
        scopes = getattr(permission, "openapi_scopes", None)
        if scopes is not None:
            needed += [s for s in scopes(view, method.upper()) if s not in needed]
    return needed


def anonymous_allowed(view: Any, method: str) -> bool:
    """Whether a permission of the view lets a request without credentials through (`openapi_anonymous`): the
    operation's security then holds the empty requirement `{}`. (drf-spectacular adds it for `AllowAny` itself.)"""
    return any(getattr(permission, "openapi_anonymous", lambda view, method: False)(view, method.upper())
               for permission in view.get_permissions())


def oauth_requirements(scopes: list[str]) -> list[dict[str, list[str]]]:
    """The OAuth requirements of an operation needing `scopes`: those scopes, or `bot:play` when it includes them
    all (a bot account's token)."""
    out = [{OAUTH_SCHEME: scopes}]
    if scopes and BOT_SCOPE not in scopes and set(scopes) <= set(BOT_PLAY_IMPLIES):
        out.append({OAUTH_SCHEME: [BOT_SCOPE]})
    return out


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """`Authorization: Bearer …`: a personal token (`tokenAuth`) or an OAuth access token (`oauth2`), one class
    (accounts.authentication.BearerTokenAuthentication) for both."""

    target_class = "accounts.authentication.BearerTokenAuthentication"
    name = [TOKEN_SCHEME, OAUTH_SCHEME]

    def get_security_requirement(self, auto_schema):
        view, method = auto_schema.view, auto_schema.method
        requirements = [{TOKEN_SCHEME: []}, *oauth_requirements(operation_scopes(view, method))]
        return [*requirements, {}] if anonymous_allowed(view, method) else requirements

    def get_security_definition(self, auto_schema):
        return [
            {
                "type": "http",
                "scheme": "bearer",
                "bearerFormat": "clm_<prefix>_<secret>",
                "description": "A personal API token (create one at POST /api/v1/accounts/tokens with a session "
                "login). Each endpoint's description names the scope a token needs.",
            },
            {
                "type": "oauth2",
                "description": "OAuth 2 for third-party apps (docs/api.md, \"OAuth\"): the authorization code grant "
                "with PKCE, `code_challenge_method=S256` only, for public clients (no client secret). Apps are "
                "registered by the operator. The access token (`clo_…`) is sent as `Authorization: Bearer`, like "
                "a personal token, with the scopes the user granted; `bot:play` stands for `games:read`, "
                "`games:play` and `account:read` on a bot account.",
                "flows": {"authorizationCode": {
                    "authorizationUrl": reverse("oauth2_provider:authorize"),
                    "tokenUrl": reverse("oauth2_provider:token"),
                    "refreshUrl": reverse("oauth2_provider:token"),
                    "scopes": dict(SCOPES),
                }},
            },
        ]


class ApiErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Machine-readable: invalid, not_authenticated, throttled, …")
    message = serializers.CharField(help_text="A sentence a person can act on.")
    # A field named "fields": DRF's serializer metaclass takes it out of the class attributes, so it does not
    # replace Serializer.fields (djangorestframework-stubs cannot express that).
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.JSONField(), required=False, help_text="Validation errors: messages per field."
    )
    retry_after = serializers.IntegerField(required=False, help_text="Seconds to wait (429 only).")


class ApiErrorSerializer(serializers.Serializer):
    error = ApiErrorDetailSerializer()


_DESCRIPTIONS = {
    400: "Invalid input: `error.fields` has the messages per field.",
    401: "Not authenticated, or the bearer token is malformed, unknown or revoked (`WWW-Authenticate: Bearer`).",
    403: "Forbidden: missing token scope, a token used where a session login is required, or a failed CSRF check.",
    404: "Not found.",
    409: "Conflict with the current state.",
    429: "Rate limited: see `Retry-After` (seconds) and `error.retry_after`.",
}


def error_responses(*codes: int, **descriptions: str) -> dict[int, OpenApiResponse]:
    """``{400: OpenApiResponse(ApiError, …), …}``; override a description with ``d403="…"``."""
    return {
        code: OpenApiResponse(ApiErrorSerializer, description=descriptions.get(f"d{code}", _DESCRIPTIONS[code]))
        for code in codes
    }


RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    OpenApiTypes.INT,
    location=OpenApiParameter.HEADER,
    response=[429],
    description="Seconds until the next attempt is allowed.",
)


def _oauth_error(description: str, *codes: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/OAuthError"},
        "examples": {code: {"value": {"error": code, "error_description": "…"}} for code in codes}}}}


_FORM = "application/x-www-form-urlencoded"
_STRING = {"type": "string"}
OAUTH_COMPONENTS: dict[str, Any] = {
    "OAuthTokenRequest": {
        "type": "object",
        "description": "`grant_type=authorization_code` with `code`, `redirect_uri`, `client_id`, `code_verifier`; "
        "or `grant_type=refresh_token` with `refresh_token`, `client_id`.",
        "properties": {
            "grant_type": {"type": "string", "enum": ["authorization_code", "refresh_token"]},
            "code": {**_STRING, "description": "The code from the redirect (works once, for 60 s)."},
            "redirect_uri": {**_STRING, "description": "The same redirect URI as in the authorization request."},
            "client_id": _STRING,
            "code_verifier": {**_STRING, "description": "The PKCE verifier whose SHA-256 was the code_challenge."},
            "refresh_token": {**_STRING, "description": "`clr_…`; it works once: the answer has a new one."},
        },
        "required": ["grant_type", "client_id"],
    },
    "OAuthTokens": {
        "type": "object",
        "properties": {
            "access_token": {**_STRING, "description": "`clo_…`: send it as `Authorization: Bearer`."},
            "refresh_token": {**_STRING, "description": "`clr_…`: for `grant_type=refresh_token` (60 days)."},
            "expires_in": {"type": "integer", "description": "Seconds the access token lasts (3600)."},
            "scope": {**_STRING, "description": "The scopes granted, space-separated."},
            "token_type": {"type": "string", "enum": ["Bearer"]},
        },
        "required": ["access_token", "refresh_token", "expires_in", "scope", "token_type"],
    },
    "OAuthRevokeRequest": {
        "type": "object",
        "properties": {
            "token": {**_STRING, "description": "An access token (`clo_…`) or a refresh token (`clr_…`)."},
            "token_type_hint": {"type": "string", "enum": ["access_token", "refresh_token"]},
            "client_id": _STRING,
        },
        "required": ["token", "client_id"],
    },
    "OAuthError": {
        "type": "object",
        "description": "An OAuth 2 error (RFC 6749 5.2), not the API's error envelope.",
        "properties": {"error": _STRING, "error_description": _STRING},
        "required": ["error"],
    },
}


def oauth_paths() -> dict[str, Any]:
    """The OAuth server's token and revocation endpoints (django-oauth-toolkit's views), as OpenAPI paths."""
    tags = ["oauth"]
    return {
        reverse("oauth2_provider:token"): {"post": {
            "operationId": "oauth_token",
            "tags": tags,
            "summary": "Exchange an authorization code, or a refresh token, for tokens",
            "description": "RFC 6749 4.1.3 and 6, for public clients (no secret: `client_id` and PKCE). A code "
            "works once; a refresh token works once too (the answer carries a new one). Presenting a refresh "
            "token that was already used ends its whole family: the new refresh token and its access token "
            "stop working too (reuse detection: someone copied it), and the app must ask for consent again.",
            "security": [{}],
            "requestBody": {"required": True, "content": {_FORM: {
                "schema": {"$ref": "#/components/schemas/OAuthTokenRequest"}}}},
            "responses": {
                "200": {"description": "The tokens.", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/OAuthTokens"}}}},
                "400": _oauth_error("Refused: a used, expired or unknown code or refresh token, a wrong verifier "
                                    "or redirect URI, a grant type other than these two.", "invalid_grant",
                                    "invalid_request", "unsupported_grant_type"),
                "401": _oauth_error("Unknown client_id.", "invalid_client"),
            },
        }},
        reverse("oauth2_provider:revoke-token"): {"post": {
            "operationId": "oauth_revoke_token",
            "tags": tags,
            "summary": "Revoke an access or refresh token (RFC 7009)",
            "description": "Ends the token: requests with it get 401, its sockets close with 4401 and its streams "
            "end with an `unauthenticated` line, within seconds. Revoking an access token also ends its refresh "
            "token (and revoking a refresh token its access token): the app must ask for consent again. An "
            "unknown or already revoked token is answered 200 too (RFC 7009 2.2).",
            "security": [{}],
            "requestBody": {"required": True, "content": {_FORM: {
                "schema": {"$ref": "#/components/schemas/OAuthRevokeRequest"}}}},
            "responses": {
                "200": {"description": "Revoked (or there was nothing to revoke)."},
                "400": _oauth_error("Malformed request.", "invalid_request", "unsupported_token_type"),
                "401": _oauth_error("Unknown client_id.", "invalid_client"),
            },
        }},
    }


def add_oauth_endpoints(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: `POST /o/token/` and `POST /o/revoke_token/` and their components
    (in the whole site's schema: not in one generated for some URL patterns only)."""
    if getattr(generator, "patterns", None) is not None:
        return result
    result.setdefault("paths", {}).update(oauth_paths())
    result.setdefault("components", {}).setdefault("schemas", {}).update(OAUTH_COMPONENTS)
    return result
