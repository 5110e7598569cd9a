from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("chat/phrases", api.PhrasesView.as_view(), name="chat-phrases"),
    path("games/<id:game_id>/chat", api.GameChatView.as_view(), name="game-chat"),
    path("games/<id:game_id>/chat/read", api.ChatReadView.as_view(), name="game-chat-read"),
    path("reports", api.ReportsView.as_view(), name="reports"),
]
