from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("seeks", api.SeeksView.as_view(), name="seeks"),
    path("seeks/quick", api.QuickView.as_view(), name="seeks-quick"),
    path("seeks/lobby", api.SeekLobbyView.as_view(), name="seeks-lobby"),
    path("seeks/<id:seek_id>", api.SeekDetailView.as_view(), name="seek-detail"),
    path("seeks/<id:seek_id>/accept", api.SeekAcceptView.as_view(), name="seek-accept"),
]
