"""URL routes: the API under /api/v1/, the admin, and the PWA at /."""

from __future__ import annotations

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, register_converter
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from oauth2_provider import views as oauth2_views

from accounts.oauth_views import OAuthAuthorizeView, authorize_redirect
from accounts.throttles import throttled_admin_login
from claim.health import health
from claim.ids import IdConverter

register_converter(IdConverter, "id")  # before the includes below, whose routes use it

api_v1: list[URLPattern | URLResolver] = [
    path("health", health, name="health"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # the split view: Swagger UI's set-up script is a file of its own (Content-Security-Policy: no inline script)
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
    path("accounts/", include("accounts.urls")),
    path("oauth/authorize", OAuthAuthorizeView.as_view(), name="oauth-authorize"),
    path("", include("games.urls")),
]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    # OAuth 2 (django-oauth-toolkit; accounts/oauth.py): the consent page is the PWA's, the rest DOT's own views.
    path("o/", include(([
        path("authorize/", authorize_redirect, name="authorize"),
        path("token/", oauth2_views.TokenView.as_view(), name="token"),
        path("revoke_token/", oauth2_views.RevokeTokenView.as_view(), name="revoke-token"),
    ], "oauth2_provider"))),
    path("admin/login/", throttled_admin_login, name="admin-login"),  # throttled (accounts/throttles.py)
    path("admin/", admin.site.urls),
    path("", include("claim.frontend_urls")),
]

handler404 = "claim.api_errors.not_found"
handler400 = "claim.middleware.bad_request_page"
handler403 = "claim.middleware.forbidden_page"
handler500 = "claim.middleware.server_error"
