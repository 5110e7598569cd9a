"""Response shapes of the seek endpoints (documentation: the OpenAPI schema)."""

from __future__ import annotations

from rest_framework import serializers

from games.api import schema
from games.api.serializers import TimeControlSerializer

#: A seek's statuses (its model's), named SeekStatusEnum in the schema.
SEEK_STATUSES = ["open", "matched", "cancelled"]


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
    watchable = serializers.BooleanField(help_text="The player lets others watch the game (it is watchable when "
                                                   "every paired seek allows it).")
    is_bot = serializers.BooleanField(help_text="Posted by a bot account.")
    status = serializers.ChoiceField(choices=SEEK_STATUSES)
    game_id = serializers.IntegerField(allow_null=True, help_text="The game, once matched.")
    ai_fallback_at = serializers.DateTimeField(allow_null=True, help_text="'Play now': when an AI game starts "
                                                                         "if nobody is paired by then; null for "
                                                                         "other seeks.")
    created_at = serializers.DateTimeField()


class SeekListSerializer(serializers.Serializer):
    mine = SeekOutSerializer(many=True, help_text="Your open seeks.")
    others = SeekOutSerializer(many=True, help_text="Other players' open seeks (at most 100).")


class LobbySeekSerializer(SeekOutSerializer):
    name = serializers.CharField(help_text="The player's public name.")
    rating = serializers.IntegerField(help_text="The player's rating in the seek's pool.")


class LobbyPageSerializer(serializers.Serializer):
    results = LobbySeekSerializer(many=True)
    next = serializers.IntegerField(allow_null=True, help_text="The cursor of the next page (the id of the last "
                                                               "seek read); null: the last page.")


E400 = schema.errors("Invalid seek: field messages under `fields`.",
                     ("invalid", "seats: Claim is played by 2-2 players."),
                     ("unlimited_rated", "Unlimited games are never rated: choose days per move or a bank clock, "
                                         "or an unrated game."))
E409 = schema.errors("You play the most games allowed for now, or have the most open seeks.",
                     ("too_many_games",
                      "You are playing 6 games, the most allowed for now (6); it grows as you finish games."),
                     ("too_many_seeks",
                      "You have 10 open seeks, the most allowed (10): cancel one first, or wait for a pairing."))
E409_CANCEL = schema.error("A pairing took the seek first: the message names its game.", "seek_matched",
                           "This seek was already paired: your game is 42 (/api/v1/games/42); resign or abort it "
                           "there.")
STD = {401: schema.E401, 403: schema.E403, 429: schema.E429}
E409_ACCEPT = schema.errors(
    "The seek cannot be joined, or you play the most games allowed / have the most open seeks.",
    ("own_seek", "This is your own seek: it waits for another player (cancel it from your inbox)."),
    ("not_compatible", "Your rating (1720) is outside this seek's window (1500 ± 100)."),
    ("seek_taken", "This seek can no longer be joined (it was just paired or cancelled, or its player has no room "
                   "for another game): choose another."),
    ("too_many_games", "You are playing 6 games, the most allowed for now (6); it grows as you finish games."),
    ("too_many_seeks", "You have 10 open seeks, the most allowed (10): cancel one first, or wait for a pairing."))
