"""Response shapes of the rating endpoints (documentation: the OpenAPI schema)."""

from __future__ import annotations

from rest_framework import serializers

from accounts.openapi import error_responses
from games.api.serializers import SeatRatingSerializer


class RatingHistorySerializer(serializers.Serializer):
    pool = serializers.CharField()
    game_id = serializers.IntegerField(allow_null=True)
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    deviation = serializers.IntegerField()
    at = serializers.DateTimeField()


class RatingProfileSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField()
    is_bot = serializers.BooleanField()
    reliability = serializers.IntegerField(help_text="0-100: the share of finished games the player did not leave.")
    ratings = SeatRatingSerializer(many=True, help_text="One per pool the player has played, by pool.")
    history = RatingHistorySerializer(many=True, help_text="The 100 latest rating changes, newest first.")


class LeaderboardPlayerSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    is_bot = serializers.BooleanField()
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField()
    games = serializers.IntegerField()


class LeaderboardAISerializer(SeatRatingSerializer):
    level = serializers.IntegerField()
    name = serializers.CharField()


class LeaderboardSerializer(serializers.Serializer):
    pool = serializers.CharField()
    system = serializers.ChoiceField(choices=["glicko2", "openskill"])
    players = LeaderboardPlayerSerializer(many=True, help_text="Active, established players (at most 100).")
    ai = LeaderboardAISerializer(many=True, help_text="The AI levels' ratings in this pool.")


READ = error_responses(401, 403, 429)
NOT_FOUND = error_responses(401, 403, 404, 429)
