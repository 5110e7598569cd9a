"""``GET /api/v1/users/{username}/games``: a player's finished games, newest first, one keyset page at a time.

Public, like every finished game (``games.service.access``): anyone may list them, with or without
credentials. Each entry is the inbox's summary of the game (seats, result, time control, links to its
record and replay) with the player's seat and when the game ended.

Cost (issue 33): a page is one range of the partial index ``seat_user_finished`` (seat user, finished_at DESC,
game DESC; seats of finished games only), read from the index alone, stopping after ``limit`` + 1 entries. The
cursor is the last entry's game id; its ``finished_at`` is read by the unique index on (game, user), and the
next page starts inside the index where this one stopped (no ``OFFSET``). Then the page's games by primary key
and their seats with their users: the same few statements for any page of any player, whatever the length
of their history.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from accounts.lookup import no_player_called
from accounts.models import User
from claim.throttling import AnonRateThrottle, UserRateThrottle
from games import service
from games.models import Game, Seat

from . import keyset, schema
from .serializers import GameSummarySerializer
from .views import PublicFinishedRead, PublicReadView

PAGE, MOST = 20, 50


def finished_page(user: Any, after: datetime | None, after_id: int | None, limit: int) -> tuple[list[int], int | None]:
    """The ids of ``user``'s finished games after ``(after, after_id)`` (newest first), at most ``limit``, and
    the cursor of the next page (the last id; None: no more): one index-only range scan of
    ``seat_user_finished`` of ``limit`` + 1 entries."""
    qs = Seat.objects.filter(user=user, finished_at__isnull=False)
    if after is not None and after_id is not None:
        qs = qs.filter(finished_at__lte=after).filter(Q(finished_at__lt=after) | Q(game_id__lt=after_id))
    rows = list(qs.order_by("-finished_at", "-game_id").values_list("game_id", flat=True)[:limit + 1])
    page = rows[:limit]
    return page, page[-1] if len(rows) > limit else None


def cursor_row(user: Any, game_id: int | None) -> datetime | None:
    """When the cursor's game ended (its seat of ``user``: the unique index on (game, user)); 404 when
    ``user`` has no finished game of that id."""
    if game_id is None:
        return None
    found = Seat.objects.filter(game_id=game_id, user=user, finished_at__isnull=False).values_list(
        "finished_at", flat=True).first()
    if found is None:
        raise NotFound(f"Game {game_id} is not a finished game of this player: send back the `next` of a page.")
    return found


def page_payload(user: Any, viewer: Any, game_ids: list[int]) -> list[dict[str, Any]]:
    """The entries of ``game_ids`` in that order: the summary (as ``viewer`` sees it) and ``user``'s seat."""
    games = {g.pk: g for g in Game.objects.filter(pk__in=game_ids).select_related("clock")
             .prefetch_related("seats__user")}
    out = []
    for gid in game_ids:
        game = games[gid]
        seats = list(game.seats.all())
        mine = next(s for s in seats if s.user_id == user.pk)
        out.append({**service.game_summary(game, viewer, seats), "player_seat": mine.index,
                    "outcome": mine.outcome or None, "ended_reason": game.ended_reason or None,
                    "finished_at": game.finished_at.isoformat().replace("+00:00", "Z") if game.finished_at else None})
    return out


class ProfileGameSerializer(GameSummarySerializer):
    player_seat = serializers.IntegerField(help_text="The listed player's seat.")
    outcome = serializers.ChoiceField(choices=["win", "loss", "draw"], allow_null=True,
                                      help_text="The listed player's outcome.")
    ended_reason = serializers.CharField(allow_null=True, help_text="normal, resigned or timeout.")
    finished_at = serializers.DateTimeField()


class ProfileGamesPageSerializer(serializers.Serializer):
    results = ProfileGameSerializer(many=True)
    next = serializers.IntegerField(allow_null=True, help_text="The cursor of the next (older) page (the last "
                                                               "game's id); null: the last page.")


class UserGamesView(PublicReadView):
    permission_classes = [PublicFinishedRead]
    throttle_classes = [AnonRateThrottle, UserRateThrottle]

    @extend_schema(
        tags=["games"], operation_id="users_games_list", summary="A player's finished games (newest first, paged)",
        description="The finished games the player sat in, newest first, as inbox summaries with `player_seat`, "
                    "`outcome`, `ended_reason` and `finished_at`. Keyset pages: send the answer's `next` back as "
                    "`cursor` for the next (older) page; `next` is null on the last. Public (finished games "
                    "are); scope for tokens: `games:read`.",
        parameters=[
            OpenApiParameter("cursor", keyset.CURSOR_SCHEMA, description="`next` of the previous page."),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": MOST},
                             description=f"Games per page ({PAGE}; ≤ {MOST})."),
        ],
        responses={200: ProfileGamesPageSerializer, 400: schema.E400, 403: schema.E403,
                   404: schema.error("No such player, or the cursor is not one of their finished games.",
                                     "not_found", "No player is called 'nobody'."),
                   429: schema.E429},
    )
    def get(self, request, username: str):
        after_id = keyset.cursor_param(request.query_params.get("cursor"))
        limit = keyset.limit_param(request.query_params.get("limit"), PAGE, MOST)
        user = User.objects.filter(username__iexact=username).first()
        if user is None:
            raise NotFound(no_player_called(username))
        game_ids, cursor = finished_page(user, cursor_row(user, after_id), after_id, limit)
        return Response({"results": page_payload(user, request.user, game_ids), "next": cursor})
