"""Game service endpoints, mounted under /api/v1/ (see games/api/urls.py and docs/api.md)."""

from __future__ import annotations

from django.urls import include, path

from games import streams
from games.bots.api import OnlineBotsView

app_name = "games"

urlpatterns = [
    path("", include("games.api.urls")),
    path("", include("games.ratings.urls")),
    path("", include("games.clock.urls")),
    path("", include("games.seeks.urls")),
    path("", include("games.notify.urls")),
    path("", include("games.challenges.urls")),
    path("", include("games.chat.urls")),
    path("", include("games.spectate.urls")),
    path("", include("games.tournaments.urls")),
    path("", include("games.social.urls")),
    path("", include("games.review.urls")),
    path("bots/online", OnlineBotsView.as_view(), name="bots-online"),
    # The NDJSON streams (games/streams.py; in the OpenAPI schema by games/stream_schema.py): served by uvicorn.
    path("stream/events", streams.stream, name="stream-events"),
    path("games/<id:game_id>/stream", streams.stream, name="game-stream"),
    path("games/<id:game_id>/watch/stream", streams.watch_stream, name="game-watch-stream"),
]
