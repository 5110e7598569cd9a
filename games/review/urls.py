from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("games/<id:game_id>/review", api.GameReviewView.as_view(), name="game-review"),
]
