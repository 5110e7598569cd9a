"""``/api/v1/challenges``: make, list, read, accept, decline, cancel (docs/api.md, "Challenges")."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from claim.strict_fields import ClosedSerializer, StrictBooleanField, StrictChoiceField, StrictIntegerField
from claim.throttling import UserRateThrottle
from games.api import schema
from games.api.serializers import WATCHABLE_HELP, KindField, OptionsField, TimeControlField, TimeControlSerializer
from games.api.views import CreateGameThrottle, GameView, call
from games.models import DAYS_PER_MOVE_CHOICES

from . import service
from .models import CHALLENGE_STATUSES

TAGS = ["challenges"]


class ChallengeCreateSerializer(ClosedSerializer):
    to = serializers.CharField(max_length=150, required=False, allow_null=True, default=None,
                               help_text="The username challenged; null or absent: an open challenge (anyone with "
                                         "its id may accept).")
    kind = KindField(help_text='"claim", "claim2", "claim-mix" or "inheritors".')
    options = OptionsField(required=False, default=dict, help_text="Engine options, as for POST /games.")
    days_per_move = StrictChoiceField(choices=[d for d, _ in DAYS_PER_MOVE_CHOICES], required=False,
                                            allow_null=True, default=3,
                                            help_text="Days per move (older form of time_control); null: unlimited.")
    time_control = TimeControlField(required=False, allow_null=True, default=None,
                                    help_text="As for POST /games; takes precedence over days_per_move.")
    rated = StrictBooleanField(required=False, default=False)
    watchable = StrictBooleanField(required=False, default=False,
                                   help_text=WATCHABLE_HELP + " Default false: a challenge is a private invitation.")
    seat = StrictChoiceField(choices=[0, 1], required=False, allow_null=True, default=None,
                                   help_text="Your seat (0 moves first in Claim); null: drawn when accepted.")
    expires_in = StrictIntegerField(required=False, allow_null=True, default=None, min_value=service.MIN_TTL,
                                          max_value=service.MAX_TTL,
                                          help_text=f"Seconds until it expires (default {service.DEFAULT_TTL}).")

    def validate(self, attrs):
        # days_per_move's default (3) is for a request without time_control: one that gives only
        # time_control (any type, e.g. unlimited) must not be refused as giving two different controls.
        if attrs.get("time_control") is not None and "days_per_move" not in self.initial_data:
            attrs["days_per_move"] = None
        return attrs


class DeclineSerializer(ClosedSerializer):
    reason = serializers.ChoiceField(choices=service.DECLINE_REASON_CHOICES, required=False, default="generic",
                                     help_text="Why (the challenger sees it with a sentence): "
                                     + ", ".join(f"`{k}` ({v})" for k, v in service.DECLINE_REASONS.items()))


class PersonSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField()
    is_bot = serializers.BooleanField()


class ChallengeLinksSerializer(serializers.Serializer):
    self = serializers.CharField()
    accept = serializers.CharField()
    decline = serializers.CharField()
    cancel = serializers.CharField()
    game = serializers.CharField(allow_null=True)


class ChallengeSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="Ten random characters.")
    status = serializers.ChoiceField(choices=CHALLENGE_STATUSES)
    challenger = PersonSerializer()
    to = PersonSerializer(allow_null=True, help_text="Null while an open challenge waits.")
    open = serializers.BooleanField(help_text="Made open to anyone (stays true once accepted).")
    kind = serializers.CharField()
    title = serializers.CharField()
    options = serializers.DictField(help_text="Normalized by the engine.")
    time_control = TimeControlSerializer()
    rated = serializers.BooleanField()
    watchable = serializers.BooleanField(help_text="Whether others may watch the game.")
    seat = serializers.IntegerField(allow_null=True, help_text="The challenger's seat; null: drawn when accepted.")
    decline_reason = serializers.ChoiceField(choices=service.DECLINE_REASON_CHOICES, allow_null=True)
    decline_message = serializers.CharField(allow_null=True)
    game_id = serializers.IntegerField(allow_null=True, help_text="The game, once accepted.")
    rematch_of = serializers.IntegerField(allow_null=True, help_text="The finished game this challenge offers a "
                                          "rematch of (`POST /games/{id}/rematch`), else null.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    links = ChallengeLinksSerializer()


class ChallengeListSerializer(serializers.Serializer):
    incoming = ChallengeSerializer(many=True, help_text="Pending challenges to you, newest first.")
    outgoing = ChallengeSerializer(many=True, help_text="Your pending challenges, newest first (open ones too).")


E404 = schema.error("No such challenge, or one to and by other users.", "not_found",
                    "No such challenge (or it is not for you).")
E409 = schema.errors("The challenge is no longer pending, has expired, or you may not do this to it.",
                     ("challenge_not_pending", "This challenge is already accepted."),
                     ("challenge_expired", "This challenge has expired."),
                     ("own_challenge", "You cannot accept your own challenge; cancel it instead."),
                     ("not_challenger", "Only the challenger can cancel a challenge; decline it instead."),
                     ("open_challenge", "An open challenge cannot be declined: just leave it."))
STD = {401: schema.E401, 403: schema.E403, 429: schema.E429}


def _one(challenge) -> Response:
    return Response(service.challenge_payload(challenge))


class ChallengesView(GameView):
    throttle_classes = [UserRateThrottle, CreateGameThrottle]  # a challenge counts as creating a game

    @extend_schema(tags=TAGS, operation_id="challenges_list", summary="Your pending challenges, in and out",
                   description="Scope: `games:read`.", responses={200: ChallengeListSerializer, **STD})
    def get(self, request):
        incoming, outgoing = service.pending_for(request.user)
        return Response({"incoming": [service.challenge_payload(c) for c in incoming],
                         "outgoing": [service.challenge_payload(c) for c in outgoing]})

    @extend_schema(
        tags=TAGS, operation_id="challenges_create", summary="Challenge a player (or anyone) to one game",
        description="Checked like `POST /games` (kind, options, time control, rated). The user challenged gets "
                    "`challenge_received` on their socket. At most 20 pending challenges per user, 3 of them to "
                    "one player (409); rate limit: `games_create` (a challenge counts as creating a game). "
                    "Scope: `games:play`.",
        request=ChallengeCreateSerializer,
        examples=[OpenApiExample("Challenge bob", request_only=True,
                                 value={"to": "bob", "kind": "claim", "days_per_move": 3, "rated": True}),
                  OpenApiExample("Open challenge", request_only=True, value={"kind": "inheritors"})],
        responses={201: ChallengeSerializer,
                   400: schema.errors("Invalid terms (as for POST /games), unknown user, yourself.",
                                      ("invalid", "to: No player is called 'nobody'."),
                                      ("invalid_options", "claim-mix needs the option \"factions\": ..."),
                                      ("unlimited_rated", "Unlimited games are never rated: ...")),
                   409: schema.errors("Too many pending challenges: 20 in all, 3 to one player.",
                                      ("too_many_challenges",
                                       "You have 20 pending challenges, the most allowed: cancel one first."),
                                      ("too_many_challenges_to_user",
                                       "You have 3 pending challenges to bob, the most allowed to one player: "
                                       "wait for an answer or cancel one first.")),
                   **STD, 403: schema.e403_blocked("You cannot challenge this player.")},
    )
    def post(self, request):
        ser = ChallengeCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        c = call(service.create, request.user, **ser.validated_data)
        return Response(service.challenge_payload(c), status=status.HTTP_201_CREATED)


class ChallengeDetailView(GameView):
    @extend_schema(tags=TAGS, operation_id="challenges_retrieve", summary="One challenge",
                   description="Yours (made or received), or any open challenge by its id. Scope: `games:read`.",
                   responses={200: ChallengeSerializer, 404: E404, **STD})
    def get(self, request, challenge_id: str):
        return _one(call(service.get, request.user, challenge_id))


class ChallengeAcceptView(GameView):
    @extend_schema(tags=TAGS, operation_id="challenges_accept", summary="Accept: the game starts at once",
                   description="The answer's `game_id` is the new game (both players get `challenge_accepted` "
                               "and `game_started`). Scope: `games:play`.", request=None,
                   responses={200: ChallengeSerializer, 404: E404, 409: E409, **STD,
                              403: schema.e403_blocked("You cannot accept this challenge.")})
    def post(self, request, challenge_id: str):
        return _one(call(service.accept, request.user, challenge_id))


class ChallengeDeclineView(GameView):
    @extend_schema(tags=TAGS, operation_id="challenges_decline", summary="Decline a challenge, with a reason",
                   description="Scope: `games:play`.", request=DeclineSerializer,
                   responses={200: ChallengeSerializer, 400: schema.E400, 404: E404, 409: E409, **STD})
    def post(self, request, challenge_id: str):
        ser = DeclineSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        return _one(call(service.decline, request.user, challenge_id, ser.validated_data["reason"]))


class ChallengeCancelView(GameView):
    @extend_schema(tags=TAGS, operation_id="challenges_cancel", summary="Cancel your challenge",
                   description="Scope: `games:play`.", request=None,
                   responses={200: ChallengeSerializer, 404: E404, 409: E409, **STD})
    def post(self, request, challenge_id: str):
        return _one(call(service.cancel, request.user, challenge_id))
