from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("challenges", api.ChallengesView.as_view(), name="challenges"),
    path("challenges/<str:challenge_id>", api.ChallengeDetailView.as_view(), name="challenge-detail"),
    path("challenges/<str:challenge_id>/accept", api.ChallengeAcceptView.as_view(), name="challenge-accept"),
    path("challenges/<str:challenge_id>/decline", api.ChallengeDeclineView.as_view(), name="challenge-decline"),
    path("challenges/<str:challenge_id>/cancel", api.ChallengeCancelView.as_view(), name="challenge-cancel"),
]
