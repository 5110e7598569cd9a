from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("ratings/pools", api.PoolsView.as_view(), name="ratings-pools"),
    path("ratings/me", api.MyRatingsView.as_view(), name="ratings-me"),
    path("ratings/users/<str:username>", api.UserRatingsView.as_view(), name="ratings-user"),
    path("leaderboards/<str:pool>", api.LeaderboardView.as_view(), name="leaderboard"),
]
