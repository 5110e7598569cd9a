"""``/api/v1/ratings/me``, ``/api/v1/ratings/users/{username}``, ``/api/v1/ratings/pools``,
``/api/v1/leaderboards/{pool}``."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from games.clock.reliability import reliability
from games.rules.registry import GAMES

from . import schema
from .service import history_of_user, leaderboard, pools, ratings_of_user

TAGS = ["ratings"]
POOL_RE = re.compile(r"^(?P<kind>[a-z0-9-]+?)(?:-(?P<n>[34])p)?$")


def profile(user) -> dict:
    return {"username": user.username, "name": user.public_name, "is_bot": user.is_bot,
            "reliability": reliability(user), "ratings": ratings_of_user(user), "history": history_of_user(user)}


def valid_pool(pool: str) -> bool:
    m = POOL_RE.match(pool)
    if not m or m["kind"] not in GAMES:
        return False
    info = GAMES[m["kind"]].info
    n = int(m["n"]) if m["n"] else 2
    return info.min_seats <= n <= info.max_seats


class MyRatingsView(APIView):
    @extend_schema(tags=TAGS, responses={200: schema.RatingProfileSerializer, **schema.READ},
                   summary="Your ratings per pool, history, reliability")
    def get(self, request):
        return Response(profile(request.user))


class UserRatingsView(APIView):
    @extend_schema(tags=TAGS, responses={200: schema.RatingProfileSerializer, **schema.NOT_FOUND},
                   summary="A player's ratings, history, reliability")
    def get(self, request, username: str):
        user = get_object_or_404(get_user_model(), username__iexact=username, is_active=True)
        return Response(profile(user))


class LeaderboardView(APIView):
    @extend_schema(tags=TAGS, responses={200: schema.LeaderboardSerializer, **schema.NOT_FOUND},
                   summary="Leaderboard of a pool (active, established players) with the AI levels' ratings")
    def get(self, request, pool: str):
        if not valid_pool(pool):
            raise NotFound(f"No rating pool named {pool!r}.")
        return Response(leaderboard(pool))


class PoolSerializer(serializers.Serializer):
    pool = serializers.CharField(help_text="Pool id, as in /leaderboards/{pool}: the kind, plus -3p/-4p above 2 seats")
    kind = serializers.CharField(help_text="Game kind")
    seats = serializers.IntegerField(help_text="Number of seats")
    name = serializers.CharField(help_text="English display name")
    system = serializers.ChoiceField(choices=["glicko2", "openskill"], help_text="Rating system")
    players = serializers.IntegerField(help_text="Active people with a rating in the pool")


class PoolsView(APIView):
    @extend_schema(tags=TAGS, responses={200: PoolSerializer(many=True), **schema.READ},
                   operation_id="ratings_pools_list",
                   summary="The rating pools (kind x seats) with their number of rated players")
    def get(self, request):
        return Response(pools())
