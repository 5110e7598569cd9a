from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("tournaments", api.TournamentsView.as_view(), name="tournaments"),
    path("tournaments/<id:tournament_id>", api.TournamentDetailView.as_view(), name="tournament-detail"),
    path("tournaments/<id:tournament_id>/join", api.TournamentJoinView.as_view(), name="tournament-join"),
    path("tournaments/<id:tournament_id>/leave", api.TournamentLeaveView.as_view(), name="tournament-leave"),
    path("tournaments/<id:tournament_id>/cancel", api.TournamentCancelView.as_view(), name="tournament-cancel"),
    path("tournaments/<id:tournament_id>/games", api.TournamentGamesView.as_view(), name="tournament-games"),
]
