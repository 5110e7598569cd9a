"""Game service endpoints, mounted under /api/v1/ (see games/api/urls.py and docs/api.md)."""

from __future__ import annotations

from django.urls import include, path

app_name = "games"

urlpatterns = [
    path("", include("games.api.urls")),
]
