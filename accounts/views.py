"""The accounts API under /api/v1/accounts/ (see docs/accounts.md).

Sessions are for the PWA (cookie + CSRF); tokens are for third-party clients and bots. Anything
that changes the account or its credentials needs a session (:class:`SessionRequired`).
"""

from __future__ import annotations

from django.contrib.auth import authenticate, login, logout, update_session_auth_hash
from django.middleware.csrf import get_token
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from claim.throttling import ScopedRateThrottle

from . import privacy, services
from .authentication import HasScopes, SessionRequired
from .models import SCOPES, ApiToken
from .openapi import RETRY_AFTER, error_responses
from .serializers import (
    WRONG_CREDENTIALS,
    AccountDeleteSerializer,
    CsrfSerializer,
    LoginSerializer,
    PasswordChangeSerializer,
    PasswordResetConfirmSerializer,
    PasswordResetSerializer,
    PersonalDataPageSerializer,
    PersonalDataSerializer,
    ProfileSerializer,
    RegisterSerializer,
    ScopeSerializer,
    TokenCreatedSerializer,
    TokenCreateSerializer,
    TokenSerializer,
)
from .throttles import (
    LoginAccountThrottle,
    LoginThrottle,
    PasswordChangeThrottle,
    PasswordResetEmailThrottle,
    PasswordResetIPThrottle,
    RegisterThrottle,
    Throttled,
    release,
    remember_device,
)

TAGS = ["accounts"]
NOT_AUTHENTICATED = "Log in first, or send an 'Authorization: Bearer <token>' header."
SESSION_ONLY = " Session login only: API tokens get 403."


class AccountView(APIView):
    """Base: helpful 401 text, throttle messages in words."""

    throttle_message = "Too many requests."

    def permission_denied(self, request, message=None, code=None):
        if request.authenticators and not request.successful_authenticator:
            raise exceptions.NotAuthenticated(NOT_AUTHENTICATED)
        super().permission_denied(request, message=message, code=code)

    def throttled(self, request, wait):
        raise Throttled(wait=wait, detail=self.throttle_message)


class AnonymousAccountView(AccountView):
    """Endpoints for people who are not logged in yet: no authentication at all."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    def enforce_csrf(self, request) -> None:
        """Login CSRF protection: a foreign site must not log the browser into another account.

        DRF only checks CSRF for already-authenticated sessions, so session-creating views do it
        themselves. API test clients skip it unless created with ``enforce_csrf_checks=True``.
        """
        SessionAuthentication().enforce_csrf(request)


def _profile(user) -> dict:
    return ProfileSerializer(user).data


class CsrfView(AnonymousAccountView):
    @extend_schema(
        tags=TAGS,
        summary="Get a CSRF token",
        description="Sets the `csrftoken` cookie and returns the same value. The PWA calls this before its "
        "first unsafe request and sends the value as `X-CSRFToken`. Logging in rotates it: read the cookie "
        "again afterwards. Token clients don't need CSRF.",
        responses={200: CsrfSerializer},
    )
    def get(self, request):
        return Response({"csrf_token": get_token(request._request)})


class RegisterView(AnonymousAccountView):
    throttle_classes = [RegisterThrottle]
    throttle_message = "Too many sign-ups from this address."

    @extend_schema(
        tags=TAGS,
        summary="Create an account and log in",
        description="Starts a session (cookie). Needs the CSRF token (GET /accounts/csrf). A username "
        "that exists in any letter case gives 400 with `fields.username`: 'This username is taken.'",
        request=RegisterSerializer,
        responses={201: ProfileSerializer, **error_responses(400, 403, 429, d403="CSRF check failed.")},
        parameters=[RETRY_AFTER],
    )
    def post(self, request):
        self.enforce_csrf(request)
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            user = services.register_user(**serializer.validated_data)
        except services.UsernameTaken as exc:
            raise exceptions.ValidationError({"username": [services.USERNAME_TAKEN]}) from exc
        login(request._request, user, backend="accounts.backends.UserBackend")
        return Response(_profile(user), status=status.HTTP_201_CREATED)


class LoginView(AnonymousAccountView):
    throttle_classes = [LoginThrottle, AnonRateThrottle, LoginAccountThrottle]
    throttle_message = "Too many login attempts."

    def throttled(self, request, wait):
        release(request)  # a refused attempt checks no password: it does not count as a failed login
        super().throttled(request, wait)

    @extend_schema(
        tags=TAGS,
        summary="Log in (session)",
        description="Username in any letter case (and compatibility forms: NFKC + case folding). Wrong username "
        "or password give the same 400. Needs the CSRF token. Rate limited per client address and account "
        "(`login` rate), and failed logins per account from all addresses together (`login_account` rate; a "
        "browser that logged in to the account before, with its `claim_login_device` cookie, is exempt).",
        request=LoginSerializer,
        responses={200: ProfileSerializer, **error_responses(400, 403, 429, d403="CSRF check failed.")},
        parameters=[RETRY_AFTER],
    )
    def post(self, request):
        self.enforce_csrf(request)
        serializer = LoginSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = authenticate(
            request._request,
            username=serializer.validated_data["username"],
            password=serializer.validated_data["password"],
        )
        if user is None:
            raise exceptions.ValidationError(WRONG_CREDENTIALS)
        login(request._request, user)
        release(request)  # only failed logins count against the account (LoginAccountThrottle)
        response = Response(_profile(user))
        remember_device(response, user)
        return response


class LogoutView(AccountView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=TAGS,
        summary="Log out (end the session)",
        description="Ends the session; harmless when not logged in. The session's open sockets close (4401) "
        "within seconds. Tokens are not affected (revoke them with DELETE /accounts/tokens/{id}).",
        request=None,
        responses={204: OpenApiResponse(description="Logged out."), **error_responses(401, 403)},
    )
    def post(self, request):
        user_id = request.user.pk if request.user.is_authenticated and request.auth is None else None
        logout(request._request)
        if user_id is not None:
            services.recheck_sockets(user_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(AccountView):
    permission_classes = [IsAuthenticated, HasScopes, SessionRequired]
    required_scopes = {"GET": ["account:read"]}
    session_only_methods = {"PATCH", "PUT"}

    @extend_schema(
        tags=TAGS,
        summary="Your profile",
        description="Token scope: `account:read`.",
        responses={200: ProfileSerializer, **error_responses(401, 403)},
    )
    def get(self, request):
        return Response(_profile(request.user))

    @extend_schema(
        tags=TAGS,
        summary="Change your profile",
        description="Partial update of display_name, email, language (en/de/cs), time_zone (IANA) and "
        "hide_presence (whether others may see that you are online)."
        + SESSION_ONLY,
        request=ProfileSerializer,
        responses={200: ProfileSerializer, **error_responses(400, 401, 403)},
    )
    def patch(self, request):
        serializer = ProfileSerializer(request.user, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        serializer.save()
        return Response(serializer.data)


class PasswordChangeView(AccountView):
    permission_classes = [IsAuthenticated, SessionRequired]
    throttle_classes = [*AccountView.throttle_classes, PasswordChangeThrottle]
    throttle_message = "Too many password change attempts."

    @extend_schema(
        tags=TAGS,
        summary="Change your password",
        description="Keeps this session logged in; other sessions of the account are logged out. Rate limited "
        "per account (`login` rate: each attempt checks the old password)." + SESSION_ONLY,
        request=PasswordChangeSerializer,
        responses={204: OpenApiResponse(description="Changed."), **error_responses(400, 401, 403, 429)},
        parameters=[RETRY_AFTER],
    )
    def post(self, request):
        user = request.user
        serializer = PasswordChangeSerializer(data=request.data, context={"user": user})
        serializer.is_valid(raise_exception=True)
        services.set_new_password(user, serializer.validated_data["new_password"], reset=False)
        update_session_auth_hash(request._request, user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordResetView(AnonymousAccountView):
    throttle_classes = [PasswordResetIPThrottle, PasswordResetEmailThrottle]
    throttle_message = "Too many password reset requests."

    @extend_schema(
        tags=TAGS,
        summary="Ask for a password reset e-mail",
        description="Always 204, whether or not an account has this e-mail (no account enumeration). If one "
        "has, it gets a link to `FRONTEND_URL/reset-password?uid=…&token=…`. Rate limited per client "
        "address and per e-mail (`password_reset` rate).",
        request=PasswordResetSerializer,
        responses={204: OpenApiResponse(description="Accepted."), **error_responses(400, 429)},
        parameters=[RETRY_AFTER],
    )
    def post(self, request):
        serializer = PasswordResetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.request_password_reset(serializer.validated_data["email"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordResetConfirmView(AnonymousAccountView):
    throttle_classes = [AnonRateThrottle]

    @extend_schema(
        tags=TAGS,
        summary="Set a new password from a reset link",
        description="`uid` and `token` come from the e-mailed link. A link works once; it also stops working "
        "when the password changes otherwise or after PASSWORD_RESET_TIMEOUT. Does not log in; all "
        "existing sessions of the account end, every API token of the account is revoked, and their open "
        "sockets close (4401).",
        request=PasswordResetConfirmSerializer,
        responses={
            204: OpenApiResponse(description="Password set."),
            **error_responses(400, 429, d400="'This reset link is invalid or has expired.', or a weak password "
                              "(`fields.new_password`)."),
        },
        parameters=[RETRY_AFTER],
    )
    def post(self, request):
        serializer = PasswordResetConfirmSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.set_new_password(serializer.validated_data["user"], serializer.validated_data["new_password"],
                                  reset=True)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ScopesView(AnonymousAccountView):
    @extend_schema(
        tags=TAGS,
        summary="Token scopes",
        description="Every scope a token can have, with what it allows.",
        responses={200: ScopeSerializer(many=True)},
    )
    def get(self, request):
        return Response([{"scope": k, "description": v} for k, v in SCOPES.items()])


class TokenListView(AccountView):
    permission_classes = [IsAuthenticated, SessionRequired]

    @extend_schema(
        tags=TAGS,
        summary="Your API tokens",
        description="Newest first, revoked ones included (with `revoked_at`). Never the secret." + SESSION_ONLY,
        responses={200: TokenSerializer(many=True), **error_responses(401, 403)},
    )
    def get(self, request):
        tokens = ApiToken.objects.filter(user=request.user).order_by("-created_at", "-id")
        return Response(TokenSerializer(tokens, many=True).data)

    @extend_schema(
        tags=TAGS,
        summary="Create an API token",
        description="The response's `token` is the only time the secret is shown; only a digest is stored. "
        f"At most {services.MAX_ACTIVE_TOKENS} active tokens. `bot:play` needs a bot account." + SESSION_ONLY,
        request=TokenCreateSerializer,
        responses={201: TokenCreatedSerializer, **error_responses(400, 401, 403)},
    )
    def post(self, request):
        serializer = TokenCreateSerializer(data=request.data, context={"user": request.user})
        serializer.is_valid(raise_exception=True)
        token, plain = ApiToken.issue(request.user, **serializer.validated_data)
        data = TokenCreatedSerializer(token).data
        data["token"] = plain
        return Response(data, status=status.HTTP_201_CREATED)


class TokenDetailView(AccountView):
    permission_classes = [IsAuthenticated, SessionRequired]

    @extend_schema(
        tags=TAGS,
        summary="Revoke an API token",
        description="Requests with it get 401 from now on. Revoking a revoked token is a no-op." + SESSION_ONLY,
        responses={204: OpenApiResponse(description="Revoked."), **error_responses(401, 403, 404)},
    )
    def delete(self, request, token_id: int):
        token = ApiToken.objects.filter(pk=token_id, user=request.user).first()
        if token is None:  # someone else's token looks the same as none
            raise exceptions.NotFound("No such token.")
        services.revoke_token(token)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BotUpgradeView(AccountView):
    permission_classes = [IsAuthenticated, SessionRequired]

    @extend_schema(
        tags=TAGS,
        summary="Turn this account into a bot account",
        description="Irreversible. Only for an account that has never played (409 otherwise). A bot account "
        "can create tokens with `bot:play` and is shown as a bot. Already a bot: 200, no change." + SESSION_ONLY,
        request=None,
        responses={200: ProfileSerializer, **error_responses(401, 403, 409)},
    )
    def post(self, request):
        try:
            user = services.upgrade_to_bot(request.user)
        except services.HasGames as exc:
            raise Conflict(
                "This account has already played, so it can't become a bot: create a new account for your bot."
            ) from exc
        return Response(_profile(user))


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "Conflict with the current state."
    default_code = "conflict"


# --- Your data: the export (GDPR art. 15, 20) and the deletion of the account (art. 17) ---------------------------

class PrivacyView(AccountView):
    """Session only (a token, whatever its scopes, gets 403: the export holds the tokens' own metadata and the
    push endpoints, which no token may read, and deleting needs the password), at the ``privacy`` rate."""

    permission_classes = [IsAuthenticated, SessionRequired]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "privacy"
    throttle_message = "Too many requests for your data."


class MyDataView(PrivacyView):
    @extend_schema(
        tags=TAGS,
        summary="Download your data",
        description="Every personal record held about you, as one JSON document: your account's fields, then one "
        f"section per kind of record, each with its first {privacy.PAGE_SIZE} records (newest first) and the "
        "address of its next page (`next`). Games are listed by id with their addresses; their records are in "
        "`GET /games/{id}/record` and the game export. Tokens: metadata only, never a secret. Rate limited "
        "(`privacy` rate)." + SESSION_ONLY,
        responses={200: PersonalDataSerializer, **error_responses(401, 403, 429)},
        parameters=[RETRY_AFTER],
    )
    def get(self, request):
        data = privacy.export(request.user, request.path.rstrip("/"))
        response = Response(data)
        response["Content-Disposition"] = f'attachment; filename="claim-data-{request.user.pk}.json"'
        response["Cache-Control"] = "no-store"
        return response


class MyDataSectionView(AccountView):
    permission_classes = [IsAuthenticated, SessionRequired]  # as PrivacyView, at the general `user` rate

    @extend_schema(
        tags=TAGS,
        operation_id="accounts_me_data_section_retrieve",
        summary="A further page of one section of your data",
        description=f"At most {privacy.PAGE_SIZE} records of the section with an id below `before`, newest first, "
        "and the next page's address (one bounded query, so at the general `user` rate, not `privacy`: a long "
        "history can be read to its end). Unknown section: 404." + SESSION_ONLY,
        parameters=[OpenApiParameter("before", OpenApiTypes.STR, description="The `id` of the last record of the "
                                     "previous page (a positive integer; a challenge's id is text)."),
                    RETRY_AFTER],
        responses={200: PersonalDataPageSerializer, **error_responses(400, 401, 403, 404, 429)},
    )
    def get(self, request, section: str):
        found = privacy.sections().get(section)
        if found is None:
            raise exceptions.NotFound(f"No such section: choose one of {', '.join(sorted(privacy.sections()))}.")
        try:
            before = privacy.parse_before(found, request.query_params.get("before"))
        except ValueError as exc:
            raise exceptions.ValidationError({"before": [str(exc)]}) from None
        response = Response(privacy.section_page(request.user, found, before, request.path.rstrip("/")))
        response["Cache-Control"] = "no-store"
        return response


class AccountDeleteView(PrivacyView):
    @extend_schema(
        tags=TAGS,
        summary="Delete your account",
        description="Needs your password. Irreversible: your open games are aborted and your active games resigned; "
        "your seeks and pending challenges end; your tokens, app authorizations, notifications, push "
        "subscriptions, vacation, ratings and e-mail address are deleted; every session ends and every socket and "
        "stream of yours closes (4401). Finished games keep your seat, shown as an anonymous \"Deleted player\". "
        "Your username is free again." + SESSION_ONLY,
        request=AccountDeleteSerializer,
        responses={204: OpenApiResponse(description="Deleted; this session is logged out."),
                   **error_responses(400, 401, 403, 429, d400="Wrong password (`fields.password`).")},
        parameters=[RETRY_AFTER],
    )
    def post(self, request):
        user = request.user
        serializer = AccountDeleteSerializer(data=request.data, context={"user": user})
        serializer.is_valid(raise_exception=True)
        services.delete_account(user)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)
