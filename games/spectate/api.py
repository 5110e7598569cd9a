"""The spectating REST endpoints (issue 35; docs/api.md, "Watching games"):

* ``GET /api/v1/games/{id}/watch``: one game as a spectator sees it (``SpectatorGame``), with an ``ETag``;
* ``GET /api/v1/watch``: "now playing", the running watchable games, newest game first (``NowPlayingPage``).

Anonymous callers may read both (under the ``anon`` rate); a token needs ``games:read``. Who may watch is
:func:`games.spectate.access.may_watch`: a game one may not watch (no such game, not watchable, not started, a
block between the caller and a player, either way) is the same 404 ``not_found``, which never says which.

"Now playing" pages are keyset pages on the partial indexes ``game_now_playing`` (``-id``) and
``game_now_playing_kind`` (``kind, -id``), both ``WHERE status = 'active' AND watchable``: a page reads at most
``limit + 1`` games from one index range, their seats with their users (one query), the blocks between the caller
and those players (one query, none for an anonymous caller) and the spectator counts (one cache round trip).
Games with a blocked player are left out of the page, so a page may hold fewer than ``limit`` games while
``next`` is not null.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.relations import blocked_among
from claim.throttling import AnonRateThrottle, UserRateThrottle
from games.api import keyset
from games.api import schema as api_schema
from games.api.conditional import CONDITIONAL, conditional
from games.api.views import GameAPIError, PublicFinishedRead
from games.models import Game, Seat
from games.rules.registry import GAMES, KINDS
from games.service._common import SEATS_GAME_CLOCK, game_and_seats
from games.service.errors import GameNotFound

from . import counts
from .access import may_watch
from .payload import now_playing_game, spectator_game
from .schema import NowPlayingPageSerializer, SpectatorGameSerializer

TAGS = ["watch"]
#: ``GET /watch``: games per page by default, and at most.
PAGE, MOST = 20, 50

NOT_FOUND = GameNotFound().message
E404 = api_schema.error("No such game, or one you may not watch (not watchable, not started, or a block between "
                        "you and a player): the same answer for each.", "not_found", NOT_FOUND)
E403 = api_schema.errors("A token without the scope games:read.",
                         ("insufficient_scope", "This token lacks the scope: games:read."))


class PublicWatchView(APIView):
    """Anonymous ``GET`` passes (marked public in the schema: ``PublicFinishedRead.openapi_anonymous``); a token
    needs ``games:read``."""

    permission_classes = [PublicFinishedRead]
    throttle_classes = [AnonRateThrottle, UserRateThrottle]


def _viewer(request: Any) -> Any:
    return request.user if request.user.is_authenticated else None


def _etag(text: bytes) -> str:
    return '"' + hashlib.sha256(text).hexdigest()[:32] + '"'


class GameWatchView(PublicWatchView):
    @extend_schema(
        tags=TAGS, operation_id="games_watch", summary="Watch a game: its spectator view",
        description="A watchable game that has started, as a spectator sees it: public seats, the engine's "
                    "spectator view (nobody's hand), the live clock, the result once over and how many watch it "
                    "now. Players may read it too. For every new version, watch the socket (`{\"type\": "
                    "\"watch\"}`) or `GET /games/{id}/watch/stream` instead of polling. `ETag` on every answer: "
                    "send it back in `If-None-Match` and an unchanged answer is 304 with no body. 404 "
                    "`not_found` for a game you may not watch (no such game, not watchable, not started, a "
                    "block between you and a player, either way: the same answer). Anonymous callers allowed "
                    "(the `anon` rate); scope for tokens: `games:read`.",
        parameters=CONDITIONAL,
        responses={200: SpectatorGameSerializer,
                   304: OpenApiResponse(description="Not modified: `If-None-Match` names this answer's `ETag`."),
                   403: E403, 404: E404, 429: api_schema.E429},
    )
    def get(self, request, game_id: int):
        game, seats = game_and_seats(SEATS_GAME_CLOCK.fetch([game_id]))
        if game is None or not may_watch(game, _viewer(request), seats):
            raise GameAPIError(GameNotFound())
        text = orjson.dumps(spectator_game(game, seats, spectators=counts.count(game.pk)))
        # The tag is the body's digest: the body changes with the version, the spectator count and the players'
        # public names (none of which a tag computed before building it would see all of).
        return conditional(request, _etag(text), lambda: HttpResponse(text, content_type="application/json"))


def _kind_param(raw: str | None) -> str | None:
    if raw is None or raw == "":
        return None
    if raw not in GAMES:
        raise serializers.ValidationError({"kind": [f"kind must be one of {', '.join(KINDS)}, not {raw[:40]!r}."]})
    return raw


def now_playing(user: Any, kind: str | None, before: int | None, limit: int) -> tuple[list[dict[str, Any]], int | None]:
    """One page of "now playing" for ``user`` (None: anonymous): the entries and the next page's cursor."""
    qs = Game.objects.filter(status=Game.Status.ACTIVE, watchable=True)
    if kind is not None:
        qs = qs.filter(kind=kind)
    if before is not None:
        qs = qs.filter(id__lt=before)
    read = list(qs.order_by("-id").only("id", "kind", "rated", "version", "updated_at")[:limit + 1])
    more = len(read) > limit
    games = read[:limit]
    by_game: dict[int, list[Seat]] = {g.pk: [] for g in games}
    if games:
        for seat in Seat.objects.filter(game_id__in=list(by_game)).select_related("user").order_by("game_id", "index"):
            by_game[seat.game_id].append(seat)
    if user is not None:
        blocked = blocked_among(user.pk, {s.user_id for seats in by_game.values() for s in seats
                                          if s.user_id is not None})
        if blocked:
            games = [g for g in games if not any(s.user_id in blocked for s in by_game[g.pk])]
    watching = counts.counts([g.pk for g in games])
    results = [now_playing_game(g, by_game[g.pk], spectators=watching.get(g.pk, 0)) for g in games]
    return results, (read[limit - 1].pk if more else None)


NOW_PLAYING_EXAMPLE = {
    "results": [{"id": 42, "kind": "inheritors", "rated": True,
                 "seats": [{"username": "ada", "name": "Ada", "is_bot": False}, None,
                           {"username": "bob", "name": "Bob B.", "is_bot": False}],
                 "version": 17, "moved_at": "2026-12-04T10:05:00Z", "spectators": 3}],
    "next": "42",
}


class NowPlayingView(PublicWatchView):
    @extend_schema(
        tags=TAGS, operation_id="watch_list", summary="Now playing: running games you may watch",
        description="Running watchable games, newest game first (by id: a game keeps its place while it is "
                    "played), of every kind or of `kind`; games with a player who has a block with you (either "
                    "way) are left out, so a page may hold fewer than `limit` games while `next` is not null. "
                    "Keyset pages: send `next` back as `cursor`. Watch one with `GET /games/{id}/watch`. "
                    "Anonymous callers allowed (the `anon` rate); scope for tokens: `games:read`.",
        parameters=[OpenApiParameter("kind", str, enum=KINDS, description="Only games of this kind."),
                    OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": MOST},
                                     description=f"Games per page ({PAGE}; at most {MOST})."),
                    OpenApiParameter("cursor", keyset.CURSOR_SCHEMA, description="`next` of the previous page.")],
        examples=[OpenApiExample("A page", value=NOW_PLAYING_EXAMPLE, response_only=True)],
        responses={200: NowPlayingPageSerializer,
                   400: api_schema.error("An unknown `kind`, or a `limit` or `cursor` that is not one (`limit` "
                                         "1-50; `cursor`: a `next`): the field's message under `fields`.",
                                         "invalid", "limit: limit must be between 1 and 50.",
                                         fields={"limit": ["limit must be between 1 and 50."]}),
                   403: E403, 429: api_schema.E429},
    )
    def get(self, request):
        params = request.query_params
        kind = _kind_param(params.get("kind"))
        limit = keyset.limit_param(params.get("limit"), PAGE, MOST)
        before = keyset.cursor_param(params.get("cursor"))
        results, cursor = now_playing(_viewer(request), kind, before, limit)
        return Response({"results": results, "next": cursor})
