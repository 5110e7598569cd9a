"""The spectating REST endpoints (games/spectate/api.py), mounted under /api/v1/ by games/urls.py."""

from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("games/<id:game_id>/watch", api.GameWatchView.as_view(), name="game-watch"),
    path("watch", api.NowPlayingView.as_view(), name="watch"),
]
