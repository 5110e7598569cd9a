"""``GET /api/v1/invitations/{code}``: what an invitation link invites to, for anyone holding the link.

A logged-out friend who opens ``/#/join/<code>`` sees "Alice invites you to Inheritors, 4 seats, 3 days per
move" before signing up (issue 33). The answer names only what the link's holder is asked to accept: the
game's kind, its number of seats and of empty seats, its time control, whether it is rated, and the public
name of the player who created it. Nothing else of the game (no other seat, no options, no id, no state).

Only an open game with an empty seat answers (that is a code one can still join with); any other code, a
malformed one included, answers the same 404 ``not_found``, so a code reveals nothing once it cannot be used.
Anonymous callers are allowed, per address at the ``invite_preview`` rate (30/min unless configured) on top of
``anon``; codes are 72 random bits (``games.models.new_invite_code``), so the rate is against scans, not
guessing. Cost: one row by the unique index on ``invite_code`` (its creator joined), one count of its seats
(``seat_unique_index``) and the clock row by its key: constant, whatever the number of games.
"""

from __future__ import annotations

import re
from typing import Any

from django.db.models import Count, Q
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from claim.throttling import AnonRateThrottle, UserRateThrottle
from games.models import Game
from games.rules.registry import GAMES
from games.service.clock import clock_row, time_control_of

from . import schema
from .serializers import TimeControlSerializer
from .views import PublicFinishedRead

#: An invitation code as ``new_invite_code`` makes them (URL-safe base64), at most the column's 24 characters.
CODE_RE = re.compile(r"[A-Za-z0-9_-]{1,24}")
NOT_FOUND = "No open invitation has this code: the game may have started, been cancelled or be full."


class InviterSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField(help_text="Public name (display name or username).")


class InvitationPreviewSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="The invitation code (join with `POST /games/join`).")
    kind = serializers.ChoiceField(choices=sorted(GAMES))
    title = serializers.CharField(help_text='The game\'s name, e.g. "Inheritors".')
    seats = serializers.IntegerField(help_text="Seats of the game, the inviter's included.")
    open_seats = serializers.IntegerField(help_text="Seats nobody holds yet (at least 1).")
    inviter = InviterSerializer(help_text="Who created the game and sent the link.")
    time_control = TimeControlSerializer()
    rated = serializers.BooleanField()


class InvitePreviewThrottle(AnonRateThrottle):
    """Anonymous previews: their own rate (``invite_preview``, ``THROTTLE_INVITE_PREVIEW``), per address."""

    scope = "invite_preview"

    def get_rate(self) -> str:
        return str(api_settings.DEFAULT_THROTTLE_RATES[self.scope])


def invitation_preview(code: str) -> dict[str, Any]:
    """The preview of the open game with invitation ``code`` that has an empty seat; 404 otherwise."""
    if not CODE_RE.fullmatch(code):
        raise NotFound(NOT_FOUND)
    game = (Game.objects.filter(invite_code=code, status=Game.Status.OPEN).select_related("created_by")
            .annotate(empty=Count("seats", filter=Q(seats__user__isnull=True, seats__ai_level__isnull=True)))
            .first())
    if game is None or game.empty == 0:
        raise NotFound(NOT_FOUND)
    creator = game.created_by
    return {
        "code": game.invite_code,
        "kind": game.kind,
        "title": GAMES[game.kind].info.title if game.kind in GAMES else game.kind,
        "seats": game.seat_count,
        "open_seats": game.empty,
        "inviter": {"username": creator.username, "name": creator.public_name},
        "time_control": time_control_of(game, clock_row(game)).payload(),
        "rated": game.rated,
    }


PREVIEW_EXAMPLE = {
    "code": "Xk3v9QpL2mZa", "kind": "inheritors", "title": "Inheritors", "seats": 4, "open_seats": 2,
    "inviter": {"username": "alice", "name": "Alice"},
    "time_control": {"type": "correspondence", "days_per_move": 3, "initial_seconds": None,
                     "increment_seconds": None, "cap_seconds": None, "description": "3 days per move"},
    "rated": False,
}


class InvitationPreviewView(APIView):
    permission_classes = [PublicFinishedRead]  # anonymous GET passes; a token needs games:read
    throttle_classes = [AnonRateThrottle, UserRateThrottle, InvitePreviewThrottle]

    @extend_schema(
        tags=["games"], operation_id="invitations_retrieve", summary="What an invitation link invites to",
        description="The preview of an open invitation by its code, for the landing page of the link (also "
                    "without credentials): the game's kind, seats, empty seats, time control, rated, and who "
                    "invites. Only an open game with an empty seat answers; any other code is 404 `not_found`. "
                    "Nothing else about the game is shown. Join with `POST /games/join`. Rate-limited per "
                    "address without credentials (`invite_preview`). Scope for tokens: `games:read`.",
        examples=[OpenApiExample("An invitation", value=PREVIEW_EXAMPLE, response_only=True)],
        responses={200: InvitationPreviewSerializer,
                   403: schema.errors("The token lacks the scope games:read.",
                                      ("insufficient_scope", "This token lacks the scope: games:read.")),
                   404: schema.error("No open invitation has this code.", "not_found", NOT_FOUND),
                   429: schema.E429},
    )
    def get(self, request, code: str):
        return Response(invitation_preview(code))
