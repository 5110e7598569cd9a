from __future__ import annotations

from django.urls import path

from . import export, invitations, profile_games, views

urlpatterns = [
    path("games", views.GamesView.as_view(), name="games"),
    path("games/join", views.JoinByCodeView.as_view(), name="games-join-by-code"),
    path("games/<id:game_id>", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<id:game_id>/join", views.GameJoinView.as_view(), name="game-join"),
    path("games/<id:game_id>/fill", views.GameFillView.as_view(), name="game-fill"),
    path("games/<id:game_id>/moves", views.GameMovesView.as_view(), name="game-moves"),
    path("games/<id:game_id>/resign", views.GameResignView.as_view(), name="game-resign"),
    path("games/<id:game_id>/abort", views.GameAbortView.as_view(), name="game-abort"),
    path("games/<id:game_id>/rematch", views.GameRematchView.as_view(), name="game-rematch"),
    path("games/<id:game_id>/history", views.GameHistoryView.as_view(), name="game-history"),
    path("games/<id:game_id>/record", views.GameRecordView.as_view(), name="game-record"),
    path("games/<id:game_id>/replay", views.GameReplayView.as_view(), name="game-replay"),
    path("invitations/<str:code>", invitations.InvitationPreviewView.as_view(), name="invitation-preview"),
    path("users/<str:username>/games", profile_games.UserGamesView.as_view(), name="user-games"),
    path("users/<str:username>/games/export", export.UserGamesExportView.as_view(), name="user-games-export"),
]
