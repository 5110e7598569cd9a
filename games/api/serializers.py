"""Request validation and (documentation-only) response shapes of the game endpoints."""

from __future__ import annotations

import json
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from claim.strict_fields import ClosedSerializer, StrictBooleanField, StrictChoiceField, StrictIntegerField
from games.ai import LEVELS
from games.models import DAYS_PER_MOVE_CHOICES
from games.rules.registry import GAMES
from games.service.clock import parse_time_control
from games.service.errors import InvalidRequest

MAX_MOVE_CHARS = 2000
#: The fewest and the most seats any kind takes: the bounds of every ``seats`` in a request (the schema's
#: minimum and maximum); the kind's own span is checked after (400 naming it).
MIN_SEATS = min(rules.info.min_seats for rules in GAMES.values())
MAX_SEATS = max(rules.info.max_seats for rules in GAMES.values())


# ----------------------------------------------------------------------------- requests

#: Enum choice sets named in the OpenAPI schema (claim/settings.py, ENUM_NAME_OVERRIDES).
OPPONENT_TYPES = ["user", "open", "ai"]
NEW_TIME_CONTROL_TYPES = ["days", "bank", "unlimited"]
TIME_CONTROL_TYPES = ["correspondence", "bank", "unlimited"]
#: ``Game.status`` (the OpenAPI enum GameStatusEnum, claim/settings.py).
GAME_STATUSES = ["open", "active", "finished", "aborted"]
#: How a game ends (``Game.ended_reason``): by play, resignation, abort, on time or adjudicated (tournaments).
ENDED_REASONS = ["normal", "resigned", "aborted", "timeout", "adjudicated"]
#: Every ``GameEvent.type`` the service writes (games/service, games/clock).
HISTORY_TYPES = ["created", "joined", "ai_filled", "move", "resigned", "abort_offer", "aborted", "time_given",
                 "pause_asked", "paused", "resumed", "timeout", "vacation", "adjudicated"]


#: ``watchable`` of the create requests (games, challenges, seeks): public unless the creator says no.
WATCHABLE_HELP = ("Whether others may watch the game once it has started (`GET /games/{id}/watch`, \"now playing\" "
                  "`GET /watch`; the spectator view only: nobody's hand).")


class OpponentSerializer(ClosedSerializer):
    type = serializers.ChoiceField(choices=OPPONENT_TYPES, help_text="Who sits in this seat.")
    username = serializers.CharField(required=False, max_length=150, help_text='For "user": who is invited.')
    level = StrictChoiceField(choices=sorted(LEVELS), required=False,
                                    help_text='For "ai": 1 Squire, 2 Knight, 3 King.')

    def validate(self, attrs):
        if attrs["type"] == "user" and not attrs.get("username"):
            raise serializers.ValidationError({"username": 'An opponent of type "user" needs a username.'})
        if attrs["type"] == "ai":
            attrs.setdefault("level", 1)
        return attrs


def KindField(**kwargs) -> serializers.ChoiceField:
    """A game kind of the registry (an enum in the schema), refused with the registry's message."""
    known = ", ".join(sorted(GAMES))
    return serializers.ChoiceField(choices=sorted(GAMES), error_messages={
        "invalid_choice": "unknown game kind '{input}' (known: " + known + ")"}, **kwargs)


@extend_schema_field({"type": "object", "additionalProperties": True})
class OptionsField(serializers.JSONField):
    """Engine options: a JSON object (which keys and values a kind takes is the engine's, checked on create)."""

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            raise serializers.ValidationError("Options must be a JSON object.")
        return value


class NewTimeControlSerializer(serializers.Serializer):
    """Documentation of `time_control` in a create request (validated by the service's parser)."""

    type = serializers.ChoiceField(choices=NEW_TIME_CONTROL_TYPES,
                                   help_text='"days": days per move; "bank": a time bank per seat with an '
                                             'increment per move and a cap; "unlimited": no deadline (never '
                                             'rated). "correspondence" is accepted for "days".')
    days_per_move = StrictChoiceField(choices=[d for d, _ in DAYS_PER_MOVE_CHOICES], required=False,
                                            help_text='"days": the time for each move.')
    initial_seconds = StrictIntegerField(required=False, min_value=3600, max_value=60 * 86400,
                                               help_text='"bank": each seat\'s starting time.')
    increment_seconds = StrictIntegerField(required=False, min_value=0, max_value=14 * 86400,
                                                 help_text='"bank": added after each own move (default 0).')
    cap_seconds = StrictIntegerField(required=False, allow_null=True, min_value=3600, max_value=60 * 86400,
                                           help_text='"bank": the bank never grows above this; at least '
                                                     'initial_seconds (default: initial_seconds).')


@extend_schema_field(NewTimeControlSerializer)
class TimeControlField(serializers.JSONField):
    """``time_control`` of a create request, checked by :func:`games.service.clock.parse_time_control`."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if value is None:
            return None
        try:
            return parse_time_control(value).request()
        except InvalidRequest as exc:
            raise serializers.ValidationError(exc.message) from None


class CreateGameSerializer(ClosedSerializer):
    kind = KindField(help_text='Game kind: "claim", "claim2", "claim-mix", ...')
    options = OptionsField(required=False, default=dict,
                                    help_text='Engine options, e.g. {"factions": [5 names]} for claim-mix.')
    seats = StrictIntegerField(required=False, default=2, min_value=MIN_SEATS, max_value=MAX_SEATS,
                               help_text=f"{MIN_SEATS}-{MAX_SEATS}, as many as the kind takes.")
    opponents: serializers.ListSerializer[Any] = serializers.ListSerializer(
        child=OpponentSerializer(), required=False, max_length=MAX_SEATS - 1,
        help_text='One entry per other seat; default: all "open" (invitation code).')
    days_per_move = StrictChoiceField(choices=[d for d, _ in DAYS_PER_MOVE_CHOICES], required=False,
                                            allow_null=True, default=None,
                                            help_text="Days per move (older form of time_control); "
                                                      "null = unlimited.")
    time_control = TimeControlField(required=False, allow_null=True, default=None,
                                    help_text='Days per move, a bank with increment and cap, or unlimited, e.g. '
                                              '{"type": "bank", "initial_seconds": 259200, '
                                              '"increment_seconds": 86400, "cap_seconds": 604800}. Takes '
                                              'precedence over days_per_move (give one of them).')
    rated = StrictBooleanField(required=False, default=False,
                                     help_text="Rated games need a time control (not unlimited) and no AI seat.")
    seat = StrictIntegerField(required=False, default=0, min_value=0, max_value=MAX_SEATS - 1,
                              help_text="The creator's seat (0-based, below `seats`).")
    watchable = StrictBooleanField(required=False, help_text=WATCHABLE_HELP + " Default: false when a seat invites a "
                                   "user by name (a private invitation), else true (open seats, the AI).")


class JoinByCodeSerializer(ClosedSerializer):
    code = serializers.CharField(max_length=64, help_text="The invitation code of an open game.")


class JoinGameSerializer(ClosedSerializer):
    code = serializers.CharField(max_length=64, required=False,
                                 help_text="Needed to take an open seat; not needed when you were invited.")


class FillSeatSerializer(ClosedSerializer):
    index = StrictIntegerField(min_value=0, max_value=MAX_SEATS - 1, help_text="An empty seat of the game (0-based).")
    level = StrictChoiceField(choices=sorted(LEVELS), help_text="1 Squire, 2 Knight, 3 King.")


class FillWithAISerializer(ClosedSerializer):
    # max_length: a many=True serializer's list limit (DRF ≥ 3.14); djangorestframework-stubs lack it
    seats = FillSeatSerializer(many=True, allow_empty=False, max_length=MAX_SEATS - 1,  # type: ignore[call-arg]
                               help_text="The empty seats to give to the AI, each with its level; seats left out "
                                         "stay open.")

    def validate_seats(self, value):
        indexes = [s["index"] for s in value]
        if len(set(indexes)) != len(indexes):
            raise serializers.ValidationError("Each seat may be named once.")
        return value


def _component(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


# The JSON of the engines' moves, views, events and results, and of the service's events and results: in the
# OpenAPI schema the components games.api.typed_schema builds from their TypedDicts (games/rules/*/types.py,
# games/service/types.py), never a second copy here.

@extend_schema_field(_component("EngineMove"))
class EngineMoveField(serializers.JSONField):
    """A move of any kind (``EngineMove``: ``ClaimMove`` or ``InheritorsMove``)."""


@extend_schema_field(_component("EngineView"))
class EngineViewField(serializers.JSONField):
    """The engine's view of one seat or a spectator (``EngineView``, by ``game``: ``ClaimView`` or
    ``InheritorsView``)."""


@extend_schema_field(_component("EngineEvent"))
class EngineEventField(serializers.JSONField):
    """A public event of a move (``EngineEvent``: ``ClaimEvent`` or ``InheritorsEvent``)."""


@extend_schema_field(_component("HistoryEvent"))
class HistoryEventField(serializers.JSONField):
    """An event of a history entry: an engine's (a move) or the service's (``ServiceEvent``)."""


@extend_schema_field(_component("GameResult"))
class GameResultField(serializers.JSONField):
    """A finished game's result: the engine's (``EngineResult``) or, cut short, the service's (``EndedResult``)."""


class MoveField(EngineMoveField):
    """A move: a non-empty JSON object (its exact shape is checked per game, games/rules/moveshape.py)."""


class MoveSerializer(ClosedSerializer):
    version = StrictIntegerField(min_value=0, help_text="The game version your move was made against.")
    move = MoveField(help_text='One of your legal_moves, e.g. {"play": "knight-7"} (Claim) or {"action": '
                               '"play", "card": "green-1d"} (Inheritors: docs/api.md, "Inheritors moves").')
    client_id = serializers.CharField(required=False, allow_null=True, max_length=64,
                                      help_text="Your id for this move (e.g. a UUID): a retry with the same id "
                                                "returns the first answer and applies nothing.")

    def validate_move(self, value):
        if not isinstance(value, dict) or not value:
            raise serializers.ValidationError('A move must be a non-empty JSON object, e.g. {"play": "knight-7"}.')
        if len(json.dumps(value)) > MAX_MOVE_CHARS:
            raise serializers.ValidationError(f"A move is at most {MAX_MOVE_CHARS} characters of JSON.")
        return value


# ----------------------------------------------------------------------------- responses (documentation)

class SeatRatingSerializer(serializers.Serializer):
    pool = serializers.CharField(help_text="Rating pool: the game kind, with -3p/-4p for 3-4 players.")
    system = serializers.ChoiceField(choices=["glicko2", "openskill"])
    rating = StrictIntegerField()
    deviation = StrictIntegerField()
    provisional = serializers.BooleanField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    last_game_at = serializers.DateTimeField(allow_null=True)


class SeatRatingSnapshotSerializer(SeatRatingSerializer):
    """A seat's rating when its game started, and once the finished game was rated, what the game did to it."""

    after = StrictIntegerField(required=False, help_text="The rating once this game was rated (present only then: "
                                                         "rated games, and the AI levels of an AI game).")
    change = StrictIntegerField(required=False, help_text="What this game did to the rating: `after` minus the "
                                                          "rating just before it was rated, e.g. 12 (present "
                                                          "with `after`).")


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    type = serializers.CharField(help_text='"user", "ai" or "open" (not yet taken).')
    username = serializers.CharField(allow_null=True)
    name = serializers.CharField(allow_null=True, help_text="Public name (display name or username).")
    is_bot = serializers.BooleanField(help_text="A bot account or an AI seat.")
    ai_level = serializers.IntegerField(allow_null=True)
    ai_name = serializers.CharField(allow_null=True)
    rating = SeatRatingSnapshotSerializer(allow_null=True, help_text="The seat's rating when the game started (null "
                                          "for an open seat or before the start); after a rated end, with its "
                                          "`after` and `change`.")
    joined = serializers.BooleanField()
    to_act = serializers.BooleanField()
    abort_offered = serializers.BooleanField()
    outcome = serializers.ChoiceField(choices=["win", "loss", "draw"], allow_null=True)
    rank = serializers.IntegerField(allow_null=True)
    you = serializers.BooleanField()


class TimeControlSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=TIME_CONTROL_TYPES,
                                   help_text='"correspondence" (days_per_move), "bank" or "unlimited".')
    days_per_move = serializers.IntegerField(allow_null=True)
    initial_seconds = serializers.IntegerField(allow_null=True, help_text="Bank: each seat's starting time.")
    increment_seconds = serializers.IntegerField(allow_null=True, help_text="Bank: added after each own move.")
    cap_seconds = serializers.IntegerField(allow_null=True, help_text="Bank: the bank never grows above this.")
    description = serializers.CharField(help_text='For people, e.g. "3 days + 1 day per move (at most 7 days)".')


class VacationSpanSerializer(serializers.Serializer):
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()


class ClockSeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    running = serializers.BooleanField(help_text="This seat's time is running now (count down to deadline).")
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the seat runs out, while running.")
    left_seconds = serializers.IntegerField(allow_null=True,
                                            help_text="Time left while the clock stands still (a bank waiting "
                                                      "for its turn, a paused clock); null while running.")
    vacation = VacationSpanSerializer(allow_null=True,
                                      help_text="The seat's player's vacation that covers its running deadline (the "
                                                "deadline shown is then its end), else their current or next "
                                                "booked period; null: none.")


class ClockSerializer(serializers.Serializer):
    deadline = serializers.DateTimeField(allow_null=True, help_text="The earliest deadline of the seats to act.")
    paused = serializers.BooleanField()
    paused_at = serializers.DateTimeField(allow_null=True)
    pause_requests = serializers.ListField(child=serializers.IntegerField(), help_text="Seats that asked for a "
                                                                                     "pause.")
    seats = ClockSeatSerializer(many=True, help_text="Human seats have a clock; AI and open seats never run.")


class LinksSerializer(serializers.Serializer):
    self = serializers.CharField()
    moves = serializers.CharField()
    history = serializers.CharField()
    record = serializers.CharField()
    replay = serializers.CharField()


class LastEventsSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    type = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    events = serializers.ListField(child=HistoryEventField())


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    version = serializers.IntegerField()
    seats = SeatSerializer(many=True)
    my_seat = serializers.IntegerField(allow_null=True)
    creator_seat = serializers.IntegerField(allow_null=True, help_text="The seat of the player who created the "
                                                                       "game (who invited the others; only they "
                                                                       "may fill open seats with the AI).")
    to_act = serializers.ListField(child=serializers.IntegerField())
    my_turn = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)
    time_control = TimeControlSerializer()
    rated = serializers.BooleanField()
    result = GameResultField(allow_null=True, help_text="Once finished: the result (null before).")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    links = LinksSerializer()
    unread_chat = serializers.IntegerField(
        required=False, min_value=0, max_value=100,
        help_text="`GET /games` only: lines in the players' room after your read marker (`POST /games/{id}/chat/"
                  "read`), others' lines you see only; counted up to 100 (100: a hundred or more).")


#: ``rematch_offer.kind`` (for the OpenAPI enum: claim/settings.py ENUM_NAME_OVERRIDES).
REMATCH_OFFER_KINDS = ["challenge", "game"]
REMATCH_OFFER_STATUSES = ["pending", "accepted", "declined", "cancelled", "expired"]


class RematchOfferLinksSerializer(serializers.Serializer):
    accept = serializers.CharField(help_text="POST here to accept (the other players).")
    decline = serializers.CharField(help_text="POST here to decline (the other players).")
    cancel = serializers.CharField(help_text="POST here to withdraw the offer (its maker).")


class RematchOfferSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=REMATCH_OFFER_KINDS, help_text='"challenge": two seats against a '
                                   'human (answer it as a challenge); "game": a new game inviting the same '
                                   "players (three or four seats, or against the AI).")
    id = serializers.CharField(help_text="The challenge's id, or the new game's id.")
    by = serializers.IntegerField(help_text="The seat (of this game) of the player who offered it.")
    status = serializers.ChoiceField(choices=REMATCH_OFFER_STATUSES)
    game_id = serializers.IntegerField(allow_null=True, help_text="The rematch game, once there is one.")
    declined_by = serializers.IntegerField(allow_null=True, help_text="The seat that declined it.")
    decline_reason = serializers.CharField(allow_null=True, help_text="A challenge's decline reason.")
    joined = serializers.ListField(child=serializers.IntegerField(), help_text="The seats that accepted so far "
                                   "(the offerer's included).")
    expires_at = serializers.DateTimeField(allow_null=True, help_text="When a pending challenge expires.")
    links = RematchOfferLinksSerializer()


class GameViewSerializer(GameSummarySerializer):
    options = serializers.DictField()
    watchable = serializers.BooleanField(help_text="Whether others may watch the game (chosen at creation; "
                                                   "`GET /games/{id}/watch`).")
    clock = ClockSerializer(help_text="The live clock: instants, not countdowns (show them in the viewer's zone).")
    move_count = serializers.IntegerField()
    legal_moves = serializers.ListField(child=EngineMoveField(), help_text="Your legal moves now.")
    view = EngineViewField(allow_null=True, help_text="The engine's view for your seat (spectator view for others); "
                                                      "null before the game starts.")
    last_events = LastEventsSerializer(allow_null=True)
    ended_reason = serializers.ChoiceField(choices=ENDED_REASONS, allow_null=True)
    can_abort = serializers.BooleanField()
    invite_code = serializers.CharField(allow_null=True, help_text="While open, shown to seated players.")
    rematch_of = serializers.IntegerField(allow_null=True)
    rematch = serializers.IntegerField(allow_null=True, help_text="The rematch game's id, once there is one.")
    rematch_offer = RematchOfferSerializer(allow_null=True, help_text="A finished game's rematch offer: "
                                           "`POST /games/{id}/rematch`; also the `rematch_offer` event.")


class HistoryEntrySerializer(serializers.Serializer):
    version = serializers.IntegerField()
    type = serializers.ChoiceField(choices=HISTORY_TYPES, help_text="What changed in this version.")
    seat = serializers.IntegerField(allow_null=True)
    events = serializers.ListField(child=HistoryEventField(), help_text="Public events of this version.")
    move_number = serializers.IntegerField(allow_null=True)
    move = EngineMoveField(allow_null=True, help_text="The raw move: only after the end or for its own seat.")
    created_at = serializers.DateTimeField()


class LoggedMoveSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = EngineMoveField()


class PublicUserSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField(help_text="The display name (the username when none is set).")
    is_bot = serializers.BooleanField()


#: ``ChatLine.room`` (for the OpenAPI enum: claim/settings.py ENUM_NAME_OVERRIDES).
CHAT_ROOMS = ["players", "spectators"]


class ChatLineSerializer(serializers.Serializer):
    """One line of a game's chat: a quick phrase or free text, `text` always what to show (as plain text)."""

    id = serializers.IntegerField()
    game_id = serializers.IntegerField()
    room = serializers.ChoiceField(choices=CHAT_ROOMS)
    author = PublicUserSerializer()
    phrase = serializers.CharField(allow_null=True, help_text="A quick phrase's code (`GET /chat/phrases`), or null "
                                                              "for free text.")
    text = serializers.CharField(help_text="The free text, or the phrase in the reader's language (en/de/cs): show "
                                           "it as plain text, never as markup or a link.")
    created_at = serializers.DateTimeField()


class RecordSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    title = serializers.CharField()
    record_format = serializers.CharField()
    options = serializers.DictField()
    seats = SeatSerializer(many=True)
    seed = serializers.IntegerField(help_text="The deal's seed: published with the record.")
    status = serializers.CharField()
    ended_reason = serializers.ChoiceField(choices=ENDED_REASONS, allow_null=True)
    result = GameResultField(allow_null=True, help_text="The outcome; with `reason` when play was cut short "
                                                        "(resigned, timeout, aborted).")
    moves = LoggedMoveSerializer(many=True)
    record = serializers.DictField(allow_null=True, help_text="The engine's record (e.g. claim.record/1).")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    chat = ChatLineSerializer(
        many=True, required=False,
        help_text="`GET /games/{id}/record` only, when the game has chat: both rooms' lines (`ChatLine`), oldest "
                  "first, hidden lines and those of players you muted or have a block with left out; at most the "
                  "last 1000 of each room.")


class ReplaySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    step = serializers.IntegerField()
    steps = serializers.IntegerField()
    move = LoggedMoveSerializer(allow_null=True)
    events = serializers.ListField(child=EngineEventField(), help_text="The events of the last move applied.")
    to_act = serializers.ListField(child=serializers.IntegerField())
    spectator_view = EngineViewField()
    seat_views = serializers.ListField(child=EngineViewField())


class GameErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    # A field named "fields": DRF's serializer metaclass takes it out of the class attributes, so it does not
    # replace Serializer.fields (djangorestframework-stubs cannot express that).
    fields = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="Per-field messages (code invalid).")
    view = GameViewSerializer(required=False, help_text="The current game view (409 stale_version, not_active).")
    legal_moves = serializers.ListField(child=EngineMoveField(), required=False,
                                        help_text="Your legal moves (400 illegal_move).")
    retry_after = serializers.IntegerField(required=False, help_text="Seconds to wait (429).")


class GameErrorSerializer(serializers.Serializer):
    error = GameErrorDetailSerializer()
