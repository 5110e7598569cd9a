"""Response shapes of the spectating endpoints (documentation only: the OpenAPI components ``SpectatorGame``,
``SpectatorSeat``, ``NowPlayingGame`` and ``NowPlayingPage``; ``PublicUser`` is games.api.serializers')."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.serializers import (
    ENDED_REASONS,
    GAME_STATUSES,
    ClockSerializer,
    EngineViewField,
    GameResultField,
    PublicUserSerializer,
)
from games.rules.registry import KINDS

#: ``SpectatorSeat.outcome`` (the same choices as ``Seat.outcome``).
OUTCOMES = ["win", "loss", "draw"]


class SpectatorSeatSerializer(serializers.Serializer):
    """A seat of a watched game: public seat fields only (no rating, no abort offers)."""

    index = serializers.IntegerField()
    user = PublicUserSerializer(allow_null=True, help_text="The person in this seat; null for an AI seat (or an "
                                                           "open one).")
    ai_level = serializers.IntegerField(allow_null=True, help_text="The AI's level (1 Squire, 2 Knight, 3 King); "
                                                                   "null for a person.")
    ai_name = serializers.CharField(allow_null=True, help_text='The AI seat\'s own name ("Ada"); null for a person.')
    to_act = serializers.BooleanField()
    outcome = serializers.ChoiceField(choices=OUTCOMES, allow_null=True, help_text="Once over.")


class SpectatorLinksSerializer(serializers.Serializer):
    self = serializers.CharField(help_text="This spectator view (`GET /games/{id}/watch`).")
    game = serializers.CharField(help_text="The players' view (players only while the game runs).")
    chat = serializers.CharField(help_text="The game's chat (spectators read and write the `spectators` room).")
    record = serializers.CharField(help_text="The public record, once finished.")


class SpectatorGameSerializer(serializers.Serializer):
    """The game as a spectator sees it (`GET /games/{id}/watch`, and the `spectator_game` frames of the socket's
    `watch` and of `GET /games/{id}/watch/stream`): public seats, the engine's spectator view (no hand of
    anyone), the live clock, the result once over, the spectator count."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KINDS)
    title = serializers.CharField(help_text='The game\'s name, e.g. "Inheritors".')
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    version = serializers.IntegerField(help_text="The game's version: a newer one replaces this view.")
    move_count = serializers.IntegerField()
    rated = serializers.BooleanField()
    watchable = serializers.BooleanField(help_text="Always true in an answer (a game no longer watchable is 404).")
    seats = SpectatorSeatSerializer(many=True)
    to_act = serializers.ListField(child=serializers.IntegerField(), help_text="The seats to act (empty once over).")
    view = EngineViewField(help_text="The engine's spectator view (`seat` null): public information only while the "
                                     "game runs.")
    clock = ClockSerializer(allow_null=True, help_text="The live clock (instants, not countdowns).")
    result = GameResultField(allow_null=True, help_text="Once over: the result (null before).")
    ended_reason = serializers.ChoiceField(choices=ENDED_REASONS, allow_null=True)
    spectators = serializers.IntegerField(min_value=0, help_text="How many watch it now (sockets and streams).")
    started_at = serializers.DateTimeField(allow_null=True)
    updated_at = serializers.DateTimeField()
    links = SpectatorLinksSerializer()


@extend_schema_field({"type": "array", "items": {"oneOf": [{"$ref": "#/components/schemas/PublicUser"}],
                                                 "nullable": True}})
class NowPlayingSeatsField(serializers.ListField):
    """The players of a game in seat order, ``null`` for an AI seat (an array of nullable ``PublicUser``)."""


class NowPlayingGameSerializer(serializers.Serializer):
    """A running watchable game of `GET /watch` (no engine view: watch it with `GET /games/{id}/watch`)."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KINDS)
    rated = serializers.BooleanField()
    seats = NowPlayingSeatsField(help_text="The players in seat order; null for an AI seat.")
    version = serializers.IntegerField()
    moved_at = serializers.DateTimeField(help_text="The game's last change.")
    spectators = serializers.IntegerField(min_value=0)


class NowPlayingPageSerializer(serializers.Serializer):
    results = NowPlayingGameSerializer(many=True, help_text="Newest game first.")
    next = serializers.IntegerField(allow_null=True, help_text="The `cursor` of the next page (send it back "
                                                            "as it is); null: the last page.")
