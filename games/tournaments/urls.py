from __future__ import annotations

from django.urls import path

from . import api, league_api

urlpatterns = [
    path("tournaments", api.TournamentsView.as_view(), name="tournaments"),
    path("tournaments/<id:tournament_id>", api.TournamentDetailView.as_view(), name="tournament-detail"),
    path("tournaments/<id:tournament_id>/join", api.TournamentJoinView.as_view(), name="tournament-join"),
    path("tournaments/<id:tournament_id>/leave", api.TournamentLeaveView.as_view(), name="tournament-leave"),
    path("tournaments/<id:tournament_id>/cancel", api.TournamentCancelView.as_view(), name="tournament-cancel"),
    path("tournaments/<id:tournament_id>/games", api.TournamentGamesView.as_view(), name="tournament-games"),
]

urlpatterns += [
    path("leagues", league_api.LeaguesView.as_view(), name="leagues"),
    path("leagues/<id:league_id>", league_api.LeagueDetailView.as_view(), name="league-detail"),
    path("leagues/<id:league_id>/join", league_api.LeagueJoinView.as_view(), name="league-join"),
    path("leagues/<id:league_id>/leave", league_api.LeagueLeaveView.as_view(), name="league-leave"),
]
