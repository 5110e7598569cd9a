"""URL routes: the API under /api/v1/, the admin, and the PWA at /."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.throttles import throttled_admin_login
from claim.health import health

api_v1 = [
    path("health", health, name="health"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # the split view: Swagger UI's set-up script is a file of its own (Content-Security-Policy: no inline script)
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),
]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    path("admin/login/", throttled_admin_login, name="admin-login"),  # throttled (accounts/throttles.py)
    path("admin/", admin.site.urls),
    path("", include("claim.frontend_urls")),
]

handler404 = "claim.api_errors.not_found"
handler400 = "claim.middleware.bad_request_page"
handler403 = "claim.middleware.forbidden_page"
handler500 = "claim.middleware.server_error"
