"""``/api/v1/seeks``: list, create (paired at once when possible), cancel, quick pairing; the lobby of others'
seeks I may join, and joining one (``lobby``)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, gettext_noop
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.relations import blocked_among
from claim import refusals
from claim.strict_fields import ClosedSerializer, StrictBooleanField, StrictChoiceField, StrictIntegerField
from claim.throttling import AnonRateThrottle, UserRateThrottle
from games.api import keyset
from games.api import schema as schema_errors
from games.api.serializers import MAX_SEATS, MIN_SEATS, WATCHABLE_HELP, TimeControlField
from games.api.views import CreateGameThrottle
from games.models import DAYS_PER_MOVE_CHOICES
from games.rules.base import RulesError
from games.rules.registry import GAMES
from games.service.clock import UNLIMITED_RATED, parse_time_control

from . import lobby, schema, service
from .models import Seek

TAGS = ["seeks"]
DAYS = [d for d, _ in DAYS_PER_MOVE_CHOICES]


class TooManyGames(APIException):
    status_code = 409
    default_code = "too_many_games"


class TooManySeeks(APIException):
    status_code = 409
    default_code = "too_many_seeks"


class SeekMatched(APIException):
    """Cancelling a seek that a pairing took first (the answer names the game)."""

    status_code = 409
    default_code = "seek_matched"


class UnlimitedRated(APIException):
    """The same answer as creating a rated unlimited game (``POST /games``), in the request's language."""

    status_code = 400
    default_code = "unlimited_rated"
    default_detail = UNLIMITED_RATED

    def __init__(self) -> None:
        super().__init__()
        self.payload = {"fields": {"rated": [str(self.detail)]}}


def seek_payload(s: Seek) -> dict[str, Any]:
    now = timezone.now()
    w = service.window(s, now)
    return {"id": s.pk, "username": s.user.username, "kind": s.kind, "options": s.options, "seats": s.seats,
            "days_per_move": s.days_per_move,
            "time_control": parse_time_control(s.time_control, None if s.time_control else s.days_per_move).payload(),
            "rated": s.rated, "rating_range": s.rating_range,
            "window": None if w is None else round(w), "min_reliability": s.min_reliability, "quick": s.quick,
            "bots_welcome": s.bots_welcome, "watchable": s.watchable, "is_bot": s.user.is_bot,
            "status": s.status, "game_id": s.game_id,
            "ai_fallback_at": s.ai_fallback_at.isoformat().replace("+00:00", "Z") if s.ai_fallback_at else None,
            "created_at": s.created_at.isoformat().replace("+00:00", "Z")}


class _GameChoiceSerializer(ClosedSerializer):
    """What game a seek asks for: kind, options, seats, time control, rated."""

    kind = serializers.ChoiceField(choices=sorted(GAMES))
    options = serializers.DictField(required=False, default=dict)
    seats = StrictIntegerField(min_value=MIN_SEATS, max_value=MAX_SEATS, default=2,
                               help_text=f"{MIN_SEATS}-{MAX_SEATS}, as many as the kind takes.")
    days_per_move = StrictChoiceField(choices=DAYS, allow_null=True, default=3,
                                      help_text="Days per move (older form of time_control); null: unlimited.")
    time_control = TimeControlField(required=False, allow_null=True, default=None,
                                    help_text="As when creating a game (days, a bank, unlimited); takes precedence "
                                              "over days_per_move. Seeks pair only with the same time control.")
    rated = StrictBooleanField(default=False, help_text="A rated game (as `POST /games` and `POST /challenges`: "
                                                        "false unless asked); needs a time control.")
    bots_welcome = StrictBooleanField(
        default=False, help_text="Also pair with bot accounts (a bot's seek pairs only with bots and with seeks "
                                 "that welcome them).")
    watchable = StrictBooleanField(default=True, help_text=WATCHABLE_HELP + " Default true (matchmaking is "
                                   "public). Not a pairing condition: the game is watchable only when every paired "
                                   "seek allows it.")

    def validate(self, data):
        info = GAMES[data["kind"]].info
        if not info.min_seats <= data["seats"] <= info.max_seats:
            message = gettext("{game} is played by {low}-{high} players.")
            raise serializers.ValidationError({"seats": [message.format(game=info.title, low=info.min_seats,
                                                                        high=info.max_seats)]})
        tc = data.pop("time_control", None)
        if tc is not None:
            if "days_per_move" in self.initial_data and data["days_per_move"] != tc.get("days_per_move"):
                raise serializers.ValidationError({"days_per_move": [gettext(
                    "Give the time control once: time_control, or days_per_move, not both.")]})
            data["days_per_move"] = tc.get("days_per_move")  # days (or None: bank, unlimited)
            data["time_control"] = tc if tc["type"] == "bank" else None
        if data["rated"] and data["days_per_move"] is None and data.get("time_control") is None:
            raise UnlimitedRated()
        try:
            data["options"] = GAMES[data["kind"]].normalize_options(data["options"], data["seats"])
        except RulesError as exc:
            raise serializers.ValidationError({"options": [str(exc)]}) from None
        return data


class SeekSerializer(_GameChoiceSerializer):
    rating_range = StrictIntegerField(min_value=0, max_value=2000, allow_null=True, default=None,
                                      help_text="± rating points (0-2000); null: any rating.")
    min_reliability = StrictIntegerField(min_value=0, max_value=100, default=0,
                                         help_text="The opponent's reliability at least this (0-100).")


class QuickSerializer(_GameChoiceSerializer):
    """'Play now': the same choices as a seek (an AI fallback is never rated)."""


def _check_cap(user: Any) -> None:
    if service.at_cap(user):
        message = gettext("You are playing {count} games, the most allowed for now ({most}); it grows as you "
                          "finish games.")
        raise TooManyGames(message.format(count=service.current_games(user), most=service.game_cap(user)))


def _create(fn: Any, user: Any, fields: dict[str, Any]) -> Seek:
    _check_cap(user)
    try:
        seek, _ = fn(user, **fields)
    except service.TooManySeeks as exc:
        raise TooManySeeks(str(exc)) from None
    seek.refresh_from_db()
    return seek


class _PostThrottled(APIView):
    """Posting a seek (or 'play now') counts as creating a game: the ``games_create`` rate (POST only)."""

    throttle_classes = [AnonRateThrottle, UserRateThrottle, CreateGameThrottle]


class SeeksView(_PostThrottled):
    @extend_schema(tags=TAGS, responses={200: schema.SeekListSerializer, **schema.STD},
                   summary="Open seeks (yours and everyone's)", description="Scope: `games:read`.")
    def get(self, request):
        qs = Seek.objects.filter(status=Seek.Status.OPEN).select_related("user")
        mine = [seek_payload(s) for s in qs.filter(user=request.user)]
        read = list(qs.exclude(user=request.user)[:100])
        blocked = blocked_among(request.user.pk, {s.user_id for s in read})  # one query over those 100
        others = [seek_payload(s) for s in read if s.user_id not in blocked]
        return Response({"mine": mine, "others": others})

    @extend_schema(tags=TAGS, request=SeekSerializer,
                   responses={201: schema.SeekOutSerializer, 400: schema.E400, 409: schema.E409, **schema.STD},
                   description="`status` is `matched` (with `game_id`) when it was paired at once. At most 10 "
                               "open seeks per user (409 `too_many_seeks`); rate limit: `games_create`. "
                               "Scope: `games:play`.",
                   summary="Post a seek; it is paired at once when a compatible seek waits")
    def post(self, request):
        ser = SeekSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        seek = _create(service.create_seek, request.user, ser.validated_data)
        return Response(seek_payload(seek), status=status.HTTP_201_CREATED)


class SeekDetailView(APIView):
    @extend_schema(tags=TAGS, request=None, summary="Cancel one of your open seeks",
                   responses={204: None, 404: schema_errors.error("No open seek of yours with this id.", "not_found",
                                                                  "No open seek of yours with this id."),
                              409: schema.E409_CANCEL, **schema.STD})
    def delete(self, request, seek_id: int):
        try:
            found = service.cancel_seek(request.user, seek_id)
        except service.SeekMatched as exc:
            raise SeekMatched(str(exc)) from None
        if not found:
            raise NotFound(gettext("No open seek of yours with this id."))
        return Response(status=status.HTTP_204_NO_CONTENT)


class QuickView(_PostThrottled):
    @extend_schema(tags=TAGS, request=QuickSerializer,
                   responses={201: schema.SeekOutSerializer, 400: schema.E400, 409: schema.E409, **schema.STD},
                   description="Counts as one of your open seeks until it is paired (at most 10, 409 "
                               "`too_many_seeks`); rate limit: `games_create`. Scope: `games:play`.",
                   summary="Play now: the oldest compatible seek, else an AI game after a short wait")
    def post(self, request):
        ser = QuickSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        seek = _create(service.quick_pair, request.user, ser.validated_data)
        return Response(seek_payload(seek), status=status.HTTP_201_CREATED)


SEEK_BLOCKED = gettext_noop("You cannot join this player's seek.")


class SeekBlocked(APIException):
    """Joining the seek of a user who has a block with you (either way): never listed for you."""

    status_code = 403
    default_code = "blocked"
    default_detail = gettext_lazy(SEEK_BLOCKED)


class SeekGone(APIException):
    """Joining a seek of the lobby that cannot be joined (any more)."""

    status_code = 409
    default_code = "seek_taken"


LOBBY_PAGE, LOBBY_MOST = 20, 50


def lobby_entry(seek: Seek, rating: int) -> dict[str, Any]:
    return {**seek_payload(seek), "name": seek.user.public_name, "rating": rating}


class SeekLobbyView(APIView):
    @extend_schema(
        tags=TAGS, operation_id="seeks_lobby",
        responses={200: schema.LobbyPageSerializer, 400: schema_errors.E400,
                   404: schema_errors.error("The cursor is not a seek.", "not_found",
                                            "The cursor is not a seek: send back the `next` of a page."),
                   **schema.STD},
        summary="The lobby: other players' open seeks you may join, oldest first (paged)",
        description="Open seeks of other players that would pair with you now (your rating inside their window, "
                    "your reliability at least their minimum; for a bot account only seeks that welcome bots), "
                    "oldest first, each with its player's `name` and `rating` in the seek's pool. Keyset pages: "
                    "send `next` back as `cursor`; a page may hold fewer than `limit` seeks while `next` is not "
                    "null (at most 200 open seeks are read per page). Join one with `POST /seeks/{id}/accept`. "
                    "Scope: `games:read`.",
        parameters=[OpenApiParameter("cursor", keyset.CURSOR_SCHEMA, description="`next` of the previous page."),
                    OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": LOBBY_MOST},
                                     description=f"Seeks per page ({LOBBY_PAGE}; ≤ {LOBBY_MOST})."),
                    OpenApiParameter("kind", str, enum=sorted(GAMES), description="Only seeks of this kind.")],
    )
    def get(self, request):
        after_id = keyset.cursor_param(request.query_params.get("cursor"))
        limit = keyset.limit_param(request.query_params.get("limit"), LOBBY_PAGE, LOBBY_MOST)
        kind = request.query_params.get("kind") or None
        if kind is not None and kind not in GAMES:
            raise serializers.ValidationError({"kind": [refusals.not_one_of("kind", sorted(GAMES))]})
        try:
            after = lobby.cursor_row(after_id)
        except LookupError:
            raise NotFound("The cursor is not a seek: send back the `next` of a page.") from None
        found, cursor = lobby.lobby_page(request.user, after, limit, kind)
        return Response({"results": [lobby_entry(s, r) for s, r in found], "next": cursor})


class SeekAcceptView(_PostThrottled):
    @extend_schema(
        tags=TAGS, operation_id="seeks_accept", request=None,
        responses={201: schema.SeekOutSerializer, 404: schema_errors.error("No open seek with this id.", "not_found",
                                                                          "No open seek with this id."),
                   409: schema.E409_ACCEPT, **schema.STD,
                   403: schema_errors.e403_blocked(SEEK_BLOCKED)},
        summary="Join another player's open seek (from the lobby)",
        description="Posts a seek of yours with the chosen seek's terms and pairs it with that seek, by the rules "
                    "and locks of the seek pairing. The answer is your seek: `status` `matched` with `game_id` "
                    "(two seats: always, else 409 `seek_taken`), or `open` for a 3-4 seat table still waiting "
                    "for players (it pairs later, like any seek). Counts as a seek and a created game "
                    "(`too_many_seeks`, `too_many_games`, rate limit `games_create`). Scope: `games:play`.",
    )
    def post(self, request, seek_id: int):
        _check_cap(request.user)
        try:
            seek, _ = lobby.accept(request.user, seek_id)
        except LookupError:
            raise NotFound(gettext("No open seek with this id.")) from None
        except lobby.Blocked:
            raise SeekBlocked() from None
        except lobby.NotJoinable as exc:
            raise SeekGone(str(exc), code=exc.code) from None
        except service.TooManySeeks as exc:
            raise TooManySeeks(str(exc)) from None
        return Response(seek_payload(seek), status=status.HTTP_201_CREATED)
