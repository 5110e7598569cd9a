"""Response shapes of the seek endpoints (documentation: the OpenAPI schema)."""

from __future__ import annotations

from rest_framework import serializers

from games.api import schema
from games.api.serializers import TimeControlSerializer


class SeekOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    kind = serializers.CharField()
    options = serializers.DictField()
    seats = serializers.IntegerField()
    days_per_move = serializers.IntegerField(allow_null=True)
    time_control = TimeControlSerializer()
    rated = serializers.BooleanField()
    rating_range = serializers.IntegerField(allow_null=True, help_text="± rating points asked for; null: any.")
    window = serializers.IntegerField(allow_null=True, help_text="The window now (it widens while the seek waits).")
    min_reliability = serializers.IntegerField()
    quick = serializers.BooleanField(help_text="A 'play now' seek (an AI game after a short wait).")
    bots_welcome = serializers.BooleanField(help_text="May be paired with a bot account.")
    is_bot = serializers.BooleanField(help_text="Posted by a bot account.")
    status = serializers.ChoiceField(choices=["open", "matched", "cancelled"])
    game_id = serializers.IntegerField(allow_null=True, help_text="The game, once matched.")
    created_at = serializers.DateTimeField()


class SeekListSerializer(serializers.Serializer):
    mine = SeekOutSerializer(many=True, help_text="Your open seeks.")
    others = SeekOutSerializer(many=True, help_text="Other players' open seeks (at most 100).")


E400 = schema.errors("Invalid seek: field messages under `fields`.",
                     ("invalid", "seats: Claim is played by 2-2 players."),
                     ("unlimited_rated", "Unlimited games are never rated: choose days per move or a bank clock, "
                                         "or an unrated game."))
E409 = schema.error("You play the most games allowed for now.", "too_many_games",
                    "You are playing 6 games, the most allowed for now (6); it grows as you finish games.")
STD = {401: schema.E401, 403: schema.E403, 429: schema.E429}
