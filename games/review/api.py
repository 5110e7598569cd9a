"""``/api/v1/games/{id}/review``: request (POST) and read (GET) the move-by-move review of an ended game (docs/api.md,
"Reviews")."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from claim.throttling import UserWriteThrottle
from games.api import schema
from games.api.serializers import EngineMoveField
from games.api.views import GameView, call

from . import service, tasks
from .models import REVIEW_STATUSES

TAGS = ["reviews"]


class ReviewThrottle(UserWriteThrottle):
    """The ``review`` scope (``THROTTLE_REVIEW``, default 20/hour per user): review requests (POST; reads pass)."""

    scope = "review"
    default = "20/hour"


class ReviewProgressSerializer(serializers.Serializer):
    done = serializers.IntegerField(min_value=0, help_text="Decisions reviewed so far.")
    total = serializers.IntegerField(min_value=0, help_text="Decisions of the game (every move of every seat).")


class ReviewThresholdsSerializer(serializers.Serializer):
    inaccuracy = serializers.FloatField(help_text="A drop at least this large is an inaccuracy.")
    mistake = serializers.FloatField(help_text="A drop at least this large is a mistake.")


class ReviewOptionSerializer(serializers.Serializer):
    move = EngineMoveField()
    chance = serializers.FloatField(min_value=0, max_value=1, help_text="Estimated chance of winning after it.")


class ReviewDecisionSerializer(serializers.Serializer):
    index = serializers.IntegerField(min_value=0, help_text="The game version before the move (its place in the "
                                                            "game's history).")
    seat = serializers.IntegerField(min_value=0)
    player = serializers.CharField(allow_null=True, help_text="The seat's player's username; null for an AI.")
    played = EngineMoveField()
    best = EngineMoveField(help_text="The best move by the estimate (the played one when it is as good).")
    chance_played = serializers.FloatField(allow_null=True, min_value=0, max_value=1,
                                           help_text="null for a forced move (one legal move).")
    chance_best = serializers.FloatField(allow_null=True, min_value=0, max_value=1)
    drop = serializers.FloatField(allow_null=True, min_value=0, max_value=1, help_text="chance_best - chance_played.")
    mark = serializers.ChoiceField(choices=["inaccuracy", "mistake"], allow_null=True)
    options = ReviewOptionSerializer(many=True, help_text="Every legal move then, best first; empty for a forced "
                                                          "move.")


class ReviewSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=list(REVIEW_STATUSES))
    progress = ReviewProgressSerializer()
    thresholds = ReviewThresholdsSerializer()
    decisions = ReviewDecisionSerializer(many=True, help_text="In game order; empty until `done`.")


EXAMPLE = {
    "game_id": 42, "status": "done", "progress": {"done": 52, "total": 52},
    "thresholds": {"inaccuracy": 0.05, "mistake": 0.15},
    "decisions": [{"index": 40, "seat": 0, "player": "alice", "played": {"play": "goblin-1"},
                   "best": {"play": "goblin-9"}, "chance_played": 0.0, "chance_best": 1.0, "drop": 1.0,
                   "mark": "mistake", "options": [{"move": {"play": "goblin-9"}, "chance": 1.0},
                                                  {"move": {"play": "goblin-1"}, "chance": 0.0}]}],
}
ERR_404 = schema.errors(
    "No such game, or one you may not see (you are not a player and may not watch it).",
    ("not_found", "No such game (or it is not visible to you)."))
ERR_409 = schema.errors(
    "The game is not over (open, running or aborted): no review while a game runs, or none for its kind.",
    ("game_not_over", service.NOT_OVER), ("review_unavailable", service.UNSUPPORTED))
E403 = schema.error("Missing token scope.", "insufficient_scope",
                    "This token lacks the scope: games:play (or bot:play for a bot account).")
STD = {401: schema.E401, 403: E403, 429: schema.E429}


class GameReviewView(GameView):
    throttle_classes = [ReviewThrottle]

    @extend_schema(
        tags=TAGS, operation_id="games_review", summary="The review of an ended game",
        description="Its status, progress and, once `done`, every decision of every seat with each legal move's "
                    "estimated chance of winning from that seat's information then (docs/ai.md, \"Review\"). "
                    "Scope: `games:read`.",
        responses={200: ReviewSerializer,
                   404: schema.errors("No such game, one you may not see, or no review requested yet.",
                                      ("not_found", "No such game (or it is not visible to you)."),
                                      ("no_review", "No review of this game was requested yet.")),
                   409: ERR_409, **STD},
        examples=[OpenApiExample("A review", value=EXAMPLE, response_only=True)])
    def get(self, request, game_id: int):
        review = call(service.get_review, request.user, game_id)
        return Response(service.review_payload(review))

    @extend_schema(
        tags=TAGS, operation_id="games_review_request", summary="Request the review of an ended game",
        description="For a player of a finished game, or anyone who may watch it. 202 with the review queued "
                    "(computed in the background; `review` events on your socket and account stream tell its "
                    "progress), 200 with the stored one when it exists (a `failed` one is queued again: 202). "
                    "Never while the game runs (409 `game_not_over`). Rate: `review` (20/hour per user). "
                    "Scope: `games:play` (or `bot:play` for a bot account).",
        request=None,
        responses={200: ReviewSerializer, 202: ReviewSerializer, 404: ERR_404, 409: ERR_409, **STD})
    def post(self, request, game_id: int):
        review, queued = call(tasks.request_review, request.user, game_id)
        return Response(service.review_payload(review), status=status.HTTP_202_ACCEPTED if queued else 200)
