"""The OAuth consent API behind the PWA's ``#/authorize`` screen, and the user's list of authorized apps.

* ``GET /o/authorize/?…`` (:func:`authorize_redirect`): the address apps send the browser to. It forwards the
  query unchanged to the PWA screen on this origin (a fixed path: no open redirect); the screen makes the user
  log in first if needed.
* ``GET /api/v1/oauth/authorize?…``: DOT validates the request (client, exact redirect URI, PKCE S256, scopes);
  the answer is what the screen shows (the app's name, the scopes in words) and echoes back.
* ``POST /api/v1/oauth/authorize``: the user's Allow / Deny (session and CSRF: DRF's SessionAuthentication).
  DOT validates again and makes the code; the answer's ``redirect_to`` is the app's redirect URI with ``code``
  (or ``error=access_denied``) and ``state``. The screen navigates there (a form post's redirect to another
  origin would break the CSP's ``form-action 'self'``).
* ``GET /api/v1/accounts/oauth/apps`` and ``DELETE …/{id}``: the apps the user has authorized, and revoking one.

Token-authenticated requests are refused here (``SessionRequired``): a token must not grant itself more.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from oauth2_provider.exceptions import FatalClientError, OAuthToolkitError
from oauth2_provider.http import OAuth2ResponseRedirect
from oauth2_provider.models import get_access_token_model, get_application_model, get_refresh_token_model
from oauth2_provider.views.mixins import OAuthLibMixin
from oauthlib.oauth2.rfc6749.errors import UnsupportedCodeChallengeMethodError
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from claim.api_errors import error_body

from .authentication import SessionRequired
from .oauth import revoke_app_for_user
from .openapi import error_responses
from .scopes import SCOPES
from .views import SESSION_ONLY, AccountView

TAGS = ["oauth"]
PWA_SCREEN = "/#/authorize"
BOT_SCOPE = "bot:play"
PKCE_METHOD = "S256"


def authorize_redirect(request: HttpRequest) -> HttpResponse:
    """``/o/authorize/``: on to the PWA's consent screen with the same query string (same origin, fixed path);
    a request refused for a reason other than its client or redirect URI (a ``code_challenge_method`` other
    than ``S256``, a missing challenge, an unknown scope) goes straight back to the app's redirect URI with the
    OAuth error and the ``state`` (RFC 6749 4.1.2.1), without a consent screen."""
    back = _early_refusal(request)
    if back is not None:
        return OAuth2ResponseRedirect(*back)
    query = request.META.get("QUERY_STRING", "")
    return HttpResponseRedirect(PWA_SCREEN + ("?" + query if query else ""))


def _early_refusal(request: HttpRequest) -> tuple[str, list[str]] | None:
    """``(the app's redirect URI with the error, its allowed schemes)`` when DOT/oauthlib or the PKCE check
    refuse the request and the client and the redirect URI are valid (else the consent screen shows the error:
    a bad client or redirect URI is never redirected to); None when the request passes."""
    application = _application(request.GET.get("client_id"))
    try:
        _scopes, credentials = OAuthLibMixin().validate_authorization_request(request)
    except OAuthToolkitError as error:
        refusal: Response | None = _refusal(error, application)
    else:
        refusal = _pkce_refusal(credentials, application)
    target = None if refusal is None else refusal.data["error"].get("redirect_to")
    return None if target is None else (target, application.get_allowed_schemes())


class ScopeWordsSerializer(serializers.Serializer):
    scope = serializers.CharField()
    description = serializers.CharField()


class AuthorizeRequestSerializer(serializers.Serializer):
    """What the screen posts back: the validated request as `GET` answered it, and the decision."""

    client_id = serializers.CharField(max_length=100)
    redirect_uri = serializers.CharField(max_length=2000)
    response_type = serializers.ChoiceField(choices=["code"])
    scope = serializers.CharField(max_length=500, allow_blank=True, required=False, default="")
    state = serializers.CharField(max_length=1000, allow_blank=True, required=False, default="")
    code_challenge = serializers.CharField(min_length=43, max_length=128)
    code_challenge_method = serializers.ChoiceField(choices=["S256"])
    allow = serializers.BooleanField()


class AuthorizeDetailsSerializer(serializers.Serializer):
    application = inline_serializer("OAuthApplication", {"name": serializers.CharField(),
                                                          "client_id": serializers.CharField()})
    scopes = ScopeWordsSerializer(many=True)
    request = inline_serializer("OAuthAuthorizeEcho", {
        "client_id": serializers.CharField(), "redirect_uri": serializers.CharField(),
        "response_type": serializers.CharField(), "scope": serializers.CharField(),
        "state": serializers.CharField(), "code_challenge": serializers.CharField(),
        "code_challenge_method": serializers.CharField()})


class RedirectSerializer(serializers.Serializer):
    redirect_to = serializers.CharField(help_text="Where to send the browser: the app's redirect URI with "
                                        "`code` and `state`, or `error=access_denied` and `state`.")


def _refusal(error: OAuthToolkitError, application: Any = None) -> Response:
    oauthlib_error = error.oauthlib_error
    message = oauthlib_error.description or oauthlib_error.error
    extra: dict[str, str] = {}
    redirect_uri = getattr(oauthlib_error, "redirect_uri", None) or getattr(error, "redirect_uri", None)
    if not isinstance(error, FatalClientError) and redirect_uri and application is not None:
        separator = "&" if "?" in redirect_uri else "?"
        target = redirect_uri + separator + oauthlib_error.urlencoded
        if _scheme_allowed(target, application):
            extra["redirect_to"] = target
    return Response(error_body(f"oauth_{oauthlib_error.error}", message, **extra), status=400)


def _scheme_allowed(uri: str, application: Any) -> bool:
    return urlsplit(uri).scheme in application.get_allowed_schemes()


def _application(client_id: str | None) -> Any:
    return get_application_model().objects.filter(client_id=client_id or "").first()


def _pkce_refusal(credentials: dict[str, Any], application: Any) -> Response | None:
    """RFC 9700: ``code_challenge_method`` must be ``S256``; oauthlib also lets ``plain`` (or none, which means
    plain: RFC 7636 4.3) through the check. Refused as an OAuth ``invalid_request`` (the app is told through its
    redirect URI, with the ``state``), before the consent screen shows anything."""
    method = credentials.get("code_challenge_method") or ""
    if method == PKCE_METHOD:
        return None
    error = UnsupportedCodeChallengeMethodError(
        description=f"PKCE code_challenge_method must be {PKCE_METHOD} (RFC 9700), not '{method or 'plain'}': "
        "send the SHA-256 of the code_verifier, base64url-encoded.", state=credentials.get("state"))
    return _refusal(OAuthToolkitError(error, redirect_uri=credentials.get("redirect_uri")), application)


def _bot_scope_refusal(user: Any, scopes: list[str]) -> Response | None:
    if BOT_SCOPE in scopes and not user.is_bot:
        return Response(error_body("oauth_invalid_scope", f"The scope {BOT_SCOPE} is only for bot accounts, and "
                                   "this account is not one."), status=400)
    return None


class OAuthAuthorizeView(OAuthLibMixin, AccountView):
    permission_classes = [IsAuthenticated, SessionRequired]

    @extend_schema(
        tags=TAGS,
        summary="Check an OAuth authorization request (for the consent screen)",
        description="The query of `/o/authorize/` as the app sent it (`client_id`, `redirect_uri`, "
        "`response_type=code`, `scope`, `state`, `code_challenge`, `code_challenge_method=S256`). Answers the "
        "app's name and the scopes in words, or 400 (`oauth_<error>`; `redirect_to` when the app should be told; "
        "a `code_challenge_method` other than `S256`, `plain` or none, is `oauth_invalid_request`)."
        + SESSION_ONLY,
        responses={200: AuthorizeDetailsSerializer, **error_responses(400, 401, 403)},
    )
    def get(self, request):
        try:
            scopes, credentials = self.validate_authorization_request(request._request)
        except OAuthToolkitError as error:
            return _refusal(error, _application(request.query_params.get("client_id")))
        application = _application(credentials["client_id"])
        refused = _pkce_refusal(credentials, application) or _bot_scope_refusal(request.user, scopes)
        if refused is not None:
            return refused
        return Response({
            "application": {"name": application.name, "client_id": application.client_id},
            "scopes": [{"scope": s, "description": SCOPES.get(s, s)} for s in scopes],
            "request": {
                "client_id": credentials["client_id"], "redirect_uri": credentials["redirect_uri"],
                "response_type": credentials["response_type"], "scope": " ".join(scopes),
                "state": credentials.get("state") or "", "code_challenge": credentials.get("code_challenge", ""),
                "code_challenge_method": credentials.get("code_challenge_method", ""),
            },
        })

    @extend_schema(
        tags=TAGS,
        summary="Allow or deny an OAuth authorization request",
        description="The request as `GET` echoed it, plus `allow`. Validated again (a changed field fails like a "
        "forged one). Answers `redirect_to`: send the browser there. Needs the CSRF header." + SESSION_ONLY,
        request=AuthorizeRequestSerializer,
        responses={200: RedirectSerializer, **error_responses(400, 401, 403)},
    )
    def post(self, request):
        serializer = AuthorizeRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        application = _application(data["client_id"])
        scopes = data["scope"].split()
        if data["allow"]:
            refused = _bot_scope_refusal(request.user, scopes)
            if refused is not None:
                return refused
        credentials = {key: data[key] for key in ("client_id", "redirect_uri", "response_type", "state",
                                                   "code_challenge", "code_challenge_method")}
        try:
            uri, _headers, _body, _status = self.create_authorization_response(
                request._request, data["scope"], credentials, data["allow"])
        except OAuthToolkitError as error:
            refusal = _refusal(error, application)
            redirect_to = refusal.data["error"].get("redirect_to")
            if not data["allow"] and error.oauthlib_error.error == "access_denied" and redirect_to:
                return Response({"redirect_to": redirect_to})  # Deny: the app hears error=access_denied
            return refusal
        if application is None or not _scheme_allowed(uri, application):
            return Response(error_body("oauth_invalid_request", "This redirect URI is not allowed."), status=400)
        return Response({"redirect_to": uri})


class AuthorizedAppSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The application's id (for DELETE).")
    name = serializers.CharField()
    scopes = serializers.ListField(child=serializers.CharField())
    authorized_at = serializers.DateTimeField(help_text="When the oldest of its live tokens was issued.")


def authorized_apps(user: Any) -> list[dict[str, Any]]:
    """The apps holding a live access or refresh token of ``user``, with the scopes granted to them."""
    apps: dict[int, dict[str, Any]] = {}

    def add(application: Any, scope: str, when: Any) -> None:
        entry = apps.setdefault(application.pk, {"id": application.pk, "name": application.name, "scopes": set(),
                                                 "authorized_at": when})
        entry["scopes"].update(scope.split())
        entry["authorized_at"] = min(entry["authorized_at"], when)

    for token in get_access_token_model().objects.filter(user=user, expires__gt=timezone.now(),
                                                         application__isnull=False).select_related("application"):
        add(token.application, token.scope, token.created)
    for refresh in get_refresh_token_model().objects.filter(user=user, revoked__isnull=True).select_related(
            "application", "access_token"):
        add(refresh.application, refresh.access_token.scope if refresh.access_token else "", refresh.created)
    return [{**entry, "scopes": sorted(entry["scopes"])} for entry in sorted(apps.values(), key=lambda e: e["name"])]


class AuthorizedAppListView(AccountView):
    permission_classes = [IsAuthenticated, SessionRequired]

    @extend_schema(
        tags=TAGS,
        summary="Apps you have authorized (OAuth)",
        description="Every app holding a live OAuth token of yours, with the scopes it was granted." + SESSION_ONLY,
        responses={200: AuthorizedAppSerializer(many=True), **error_responses(401, 403)},
    )
    def get(self, request):
        return Response(AuthorizedAppSerializer(authorized_apps(request.user), many=True).data)


class AuthorizedAppDetailView(AccountView):
    permission_classes = [IsAuthenticated, SessionRequired]

    @extend_schema(
        tags=TAGS,
        summary="Revoke an app's access (OAuth)",
        description="Every token of that app for you ends: its requests get 401, its sockets and streams close "
        "(4401) within seconds. The app must ask for your consent again." + SESSION_ONLY,
        responses={204: OpenApiResponse(description="Revoked."), **error_responses(401, 403, 404)},
    )
    def delete(self, request, app_id: int):
        application = get_application_model().objects.filter(pk=app_id).first()
        if application is None or not any(entry["id"] == app_id for entry in authorized_apps(request.user)):
            raise exceptions.NotFound("No such authorized app.")
        revoke_app_for_user(request.user, application)
        return Response(status=status.HTTP_204_NO_CONTENT)
