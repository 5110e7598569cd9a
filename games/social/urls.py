"""Routes of follows, blocks, mutes, friends and public profiles (games/social/api.py), under /api/v1/."""

from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("users/<str:username>", api.PublicProfileView.as_view(), name="user-profile"),
    path("users/<str:username>/follow", api.FollowView.as_view(), name="user-follow"),
    path("users/<str:username>/block", api.BlockView.as_view(), name="user-block"),
    path("users/<str:username>/mute", api.MuteView.as_view(), name="user-mute"),
    path("following", api.FollowingView.as_view(), name="following"),
    path("followers", api.FollowersView.as_view(), name="followers"),
    path("blocks", api.BlocksView.as_view(), name="blocks"),
    path("mutes", api.MutesView.as_view(), name="mutes"),
    path("friends", api.FriendsView.as_view(), name="friends"),
]
