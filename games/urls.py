"""Game service endpoints, mounted under /api/v1/ (see games/api/urls.py and docs/api.md)."""

from __future__ import annotations

from django.urls import include, path

from games.bots.api import OnlineBotsView

app_name = "games"

urlpatterns = [
    path("", include("games.api.urls")),
    path("", include("games.ratings.urls")),
    path("", include("games.clock.urls")),
    path("", include("games.seeks.urls")),
    path("", include("games.notify.urls")),
    path("bots/online", OnlineBotsView.as_view(), name="bots-online"),
]
