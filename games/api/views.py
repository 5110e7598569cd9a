"""REST endpoints of the game service (``/api/v1/games...``). Thin: validate, call the service, answer."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException, NotAuthenticated
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from claim import refusals
from claim.throttling import ScopedRateThrottle, UserRateThrottle, UserWriteThrottle
from games import service
from games.rules.registry import GAMES
from games.service import ServiceError
from games.service.lifecycle import BLOCKED_JOIN

from . import schema
from .conditional import CONDITIONAL, conditional
from .permissions import GameScopes
from .serializers import (
    CreateGameSerializer,
    FillWithAISerializer,
    GameSummarySerializer,
    GameViewSerializer,
    HistoryEntrySerializer,
    JoinByCodeSerializer,
    JoinGameSerializer,
    MoveSerializer,
    RecordSerializer,
    ReplaySerializer,
)

TAGS = ["games"]


class GameAPIError(APIException):
    """A :class:`ServiceError` as an API error: its status, code, message and extra payload."""

    def __init__(self, err: ServiceError) -> None:
        self.status_code = err.status
        super().__init__(detail=err.message, code=err.code)
        payload = dict(err.payload)
        if err.field:
            payload.setdefault("fields", {err.field: [err.message]})
        self.payload = payload


def call(fn, *args: Any, **kwargs: Any) -> Any:
    try:
        return fn(*args, **kwargs)
    except ServiceError as err:
        raise GameAPIError(err) from None


class CreateGameThrottle(UserWriteThrottle):
    """Creating games (invitations included): ``games_create`` rate, 200/hour unless configured."""

    scope = "games_create"
    default = "200/hour"


class GameView(APIView):
    """Base: authenticated, token scopes games:read (GET) / games:play or bot:play (POST)."""

    permission_classes = [IsAuthenticated, GameScopes]
    required_scopes = {"GET": ["games:read"], "POST": ["games:play"]}  # documentation (see GameScopes)


MAX_INT_PARAM = 2**31 - 1


ANONYMOUS_METHODS = ("GET", "HEAD", "OPTIONS")


class PublicFinishedRead(GameScopes):
    """Anonymous ``GET`` passes (the view then shows only finished games); everyone else as :class:`GameScopes`."""

    @staticmethod
    def openapi_anonymous(view: Any, method: str) -> bool:
        """The schema marks these reads public (`{}` in their security: accounts.openapi)."""
        return method in ANONYMOUS_METHODS

    def has_permission(self, request, view) -> bool:
        if not request.user.is_authenticated:
            return request.method in ANONYMOUS_METHODS
        return super().has_permission(request, view)


class PublicReadView(GameView):
    """A read that finished games allow without credentials (issue 26): anonymous callers get the spectator
    side of a finished game; any other game (or none) answers them 401, so nothing about it is revealed."""

    permission_classes = [PublicFinishedRead]

    def handle_exception(self, exc):
        if isinstance(exc, GameAPIError) and exc.status_code == 404 and not self.request.user.is_authenticated:
            exc = NotAuthenticated("Only finished games are public: log in or send a token to see your own games.")
        return super().handle_exception(exc)


def _int_param(request, name: str, default: int | None) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise GameAPIError(service.InvalidRequest(refusals.not_an_integer(name), field=name)) from None
    if value < 0:
        raise GameAPIError(service.InvalidRequest(refusals.negative(name), field=name))
    return min(value, MAX_INT_PARAM)  # never beyond PostgreSQL's integer: nothing is that late


class GamesView(GameView, GenericAPIView):
    # djangorestframework-stubs type the setting str | None; api_settings gives the class it names
    pagination_class = api_settings.DEFAULT_PAGINATION_CLASS  # type: ignore[assignment]
    throttle_classes = [UserRateThrottle, CreateGameThrottle]

    @extend_schema(
        tags=TAGS, operation_id="games_list", summary="Your games (the correspondence inbox)",
        description="Your games, in inbox order: games where you must act first (nearest deadline first), "
                    "then the others by nearest deadline, then most recently updated; `status=finished`: newest "
                    "finished first. Paged (`limit`, `offset`). "
                    "Scope: `games:read`.",
        parameters=[OpenApiParameter("status", str, enum=list(service.queries.INBOX_STATUSES),
                                     description="Which games: `current` (open + active, default), `open`, "
                                                 "`active`, `finished`, `aborted` or `all`."),
                    OpenApiParameter("kind", str, enum=sorted(GAMES), description="Only games of this kind.")],
        responses={200: GameSummarySerializer(many=True), 400: schema.E400, **schema.STANDARD},
    )
    def get(self, request):
        qs = call(service.inbox, request.user, request.query_params.get("status") or "current",
                  request.query_params.get("kind") or None)
        page = self.paginate_queryset(qs)
        data = [service.game_summary(g, request.user, list(g.seats.all())) for g in page]
        return self.get_paginated_response(service.queries.with_summary_fields(request.user, list(page), data))

    @extend_schema(
        tags=TAGS, operation_id="games_create", summary="Create a game",
        description="Create a game; you take `seat` (default 0). AI seats are filled at once; invited users "
                    "join with `POST /games/{id}/join`, others with the invitation code (`POST /games/join`). "
                    "The game starts (the engine deals) when every seat is filled. Scope: `games:play`.",
        request=CreateGameSerializer,
        examples=[
            OpenApiExample("Against the AI", request_only=True,
                           value={"kind": "claim", "opponents": [{"type": "ai", "level": 2}], "days_per_move": 3}),
            OpenApiExample("Invite a player", request_only=True,
                           value={"kind": "claim2", "opponents": [{"type": "user", "username": "bob"}],
                                  "days_per_move": 7, "rated": True}),
            OpenApiExample("Open invitation (code)", request_only=True,
                           value={"kind": "claim-mix", "options": {"factions": ["knight", "goblin", "dragon",
                                                                                "troll", "seer"]},
                                  "opponents": [{"type": "open"}]}),
            OpenApiExample("Days per move (time_control)", request_only=True,
                           value={"kind": "claim", "opponents": [{"type": "user", "username": "bob"}],
                                  "time_control": {"type": "days", "days_per_move": 3}, "rated": True}),
            OpenApiExample("Bank: 3 days + 1 day per move, at most 7 days", request_only=True,
                           value={"kind": "claim", "opponents": [{"type": "user", "username": "bob"}],
                                  "time_control": {"type": "bank", "initial_seconds": 259200,
                                                   "increment_seconds": 86400, "cap_seconds": 604800},
                                  "rated": True}),
            OpenApiExample("Unlimited (casual only)", request_only=True,
                           value={"kind": "claim", "opponents": [{"type": "user", "username": "bob"}],
                                  "time_control": {"type": "unlimited"}, "rated": False}),
            *schema.GAME_VIEW_EXAMPLES, *schema.BANK_VIEW_EXAMPLES,
        ],
        responses={201: GameViewSerializer,
                   400: schema.errors("Invalid kind, options (the engine's message), seats, opponents or time "
                                      "control; a rated game without a time control.",
                                      ("invalid", "unknown game kind 'chess' (known: claim, claim-mix, claim2)"),
                                      ("invalid_options", "claim-mix needs the option \"factions\": ..."),
                                      ("unlimited_rated", "Unlimited games are never rated: choose days per move "
                                                          "or a bank clock, or an unrated game.")),
                   **schema.STANDARD, 403: schema.e403_blocked("opponent 1: you cannot invite bob.")},
    )
    def post(self, request):
        ser = CreateGameSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        game = call(service.create_game, request.user, d["kind"], d.get("options") or {}, d["seats"],
                    d.get("opponents"), d.get("days_per_move"), d["rated"], d["seat"],
                    time_control=d.get("time_control"), watchable=d.get("watchable", _invites_nobody(d)))
        return Response(service.game_view_payload(game, request.user), status=status.HTTP_201_CREATED)


def _invites_nobody(data: dict) -> bool:
    """``watchable``'s default for ``POST /games``: true unless a seat invites a user by name (a private invitation;
    docs/rulings.md, "Watching")."""
    return not any(o.get("type") == "user" for o in data.get("opponents") or [])


class JoinByCodeView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="games_join_by_code", summary="Join a game by invitation code",
        description="Take an open seat of the game with this code (201), or get the game again if you are already "
                    "seated (200). Scope: `games:play`.",
        request=JoinByCodeSerializer,
        examples=[OpenApiExample("Code", value={"code": "Xk3v9QpL2mZa"}, request_only=True),
                  *schema.GAME_VIEW_EXAMPLES],
        responses={201: GameViewSerializer, 200: GameViewSerializer, 400: schema.E400,
                   409: schema.errors("The game is not open or every seat is taken.",
                                      ("not_open", "This game is no longer open for joining."),
                                      ("game_full", "Every seat of this game is taken.")),
                   **schema.STANDARD, 403: schema.e403_blocked(BLOCKED_JOIN)},
    )
    def post(self, request):
        ser = JoinByCodeSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        game, joined = call(service.join_game, request.user, code=ser.validated_data["code"])
        return Response(service.game_view_payload(game, request.user),
                        status=status.HTTP_201_CREATED if joined else status.HTTP_200_OK)


class GameDetailView(PublicReadView):
    @extend_schema(
        tags=TAGS, operation_id="games_retrieve", summary="Your view of a game",
        description="Everything your seat may know: the engine's view for your seat, your legal moves, who must "
                    "act, the deadline and the last events. Finished games are public (spectator view, everything "
                    "revealed, also without credentials); open, active and aborted games are visible only to their "
                    "players (404 otherwise; 401 without credentials). Scope: `games:read`.",
        examples=schema.GAME_VIEW_EXAMPLES,
        responses={200: GameViewSerializer, **schema.STANDARD},
    )
    def get(self, request, game_id: int):
        return Response(call(service.view_for, request.user, game_id))


class GameJoinView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="games_join", summary="Join a game (invited, or with its code)",
        description="Accept your invitation, or take an open seat with the game's `code`. 201 when you joined now, "
                    "200 if you were already seated. Scope: `games:play`.",
        request=JoinGameSerializer,
        examples=[OpenApiExample("Accept an invitation", value={}, request_only=True), *schema.GAME_VIEW_EXAMPLES],
        responses={201: GameViewSerializer, 200: GameViewSerializer, 400: schema.E400,
                   409: schema.errors("The game is not open or every seat is taken.",
                                      ("not_open", "This game is no longer open for joining."),
                                      ("game_full", "Every seat of this game is taken.")),
                   **schema.STANDARD, 403: schema.e403_blocked(BLOCKED_JOIN)},
    )
    def post(self, request, game_id: int):
        ser = JoinGameSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        game, joined = call(service.join_game, request.user, game_id=game_id, code=ser.validated_data.get("code"))
        return Response(service.game_view_payload(game, request.user),
                        status=status.HTTP_201_CREATED if joined else status.HTTP_200_OK)


class GameFillView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="games_fill_ai", summary="Fill empty seats with the AI (creator of an open game)",
        description="The creator of an open game (3-4 players waiting for invitees, or any open seat) gives empty "
                    "seats to the AI, each with its level; seats left out stay open for people. Seats held by an "
                    "invited or joined player cannot be filled. When no seat is left empty the game starts at "
                    "once (like the last join: a `game_started` event). Rated games take no AI. "
                    "Scope: `games:play`.",
        request=FillWithAISerializer,
        examples=[OpenApiExample("Two AI players", request_only=True,
                                 value={"seats": [{"index": 2, "level": 1}, {"index": 3, "level": 2}]}),
                  *schema.GAME_VIEW_EXAMPLES],
        responses={**schema.STANDARD, 200: GameViewSerializer,
                   400: schema.errors("Malformed body: no seat, a seat named twice, an unknown level, or a seat "
                                      "number the game does not have.",
                                      ("invalid", "This game has seats 0 to 2, not 3.")),
                   403: schema.errors("Missing token scope, or you did not create this game.",
                                      ("insufficient_scope", "This token lacks the scope: games:play (or "
                                                             "bot:play for a bot account)."),
                                      ("not_creator", "Only the player who created this game can fill its "
                                                      "seats with the AI.")),
                   409: schema.errors("The game is not open, is rated, or the seat is not empty.",
                                      ("not_open", "This game is no longer open: its seats are all taken."),
                                      ("rated_no_ai", "A rated game takes no AI players: invite people to its "
                                                      "seats, or start an unrated game."),
                                      ("seat_taken", "Seat 1 is held by a player: only empty seats can be "
                                                     "filled."))},
    )
    def post(self, request, game_id: int):
        ser = FillWithAISerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        levels = {s["index"]: s["level"] for s in ser.validated_data["seats"]}
        game = call(service.fill_with_ai, request.user, game_id, levels)
        return Response(service.game_view_payload(game, request.user))


class MovesThrottle(ScopedRateThrottle):
    """The ``moves`` scope (``THROTTLE_MOVES``, default 600/min per user)."""


class GameMovesView(GameView):
    throttle_classes = [UserRateThrottle, MovesThrottle]
    throttle_scope = "moves"

    @extend_schema(
        tags=TAGS, operation_id="games_move", summary="Make a move",
        description=(
            "Play one of your `legal_moves` against the `version` you saw. The move is applied atomically "
            "(the game row is locked). Retry safety: send a `client_id`; a retry with the same id returns the "
            "first answer (200) and applies nothing. A move against an old version gets 409 `stale_version` with "
            "the current view under `error.view`. The move shapes of each kind are `EngineMove`'s (Inheritors: "
            "docs/api.md, \"Inheritors moves\"). Scope: `games:play` (or `bot:play` for a bot account). "
            f"Rate limit: `moves` scope ({settings.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'].get('moves')})."
        ),
        request=MoveSerializer,
        examples=[
            OpenApiExample("Play a card", request_only=True,
                           value={"version": 3, "move": {"play": "knight-7"},
                                  "client_id": "6f1c1f8e-3a53-4c43-9b0e-2f3c7f1b8a10"}),
            OpenApiExample("Seer choice", request_only=True,
                           value={"version": 8, "move": {"seer": "top"}, "client_id": "a-unique-id-2"}),
            OpenApiExample("Inheritors: play an influence card", request_only=True,
                           value={"version": 5, "move": {"action": "play", "card": "green-1d"},
                                  "client_id": "a-unique-id-3"}),
            OpenApiExample("Inheritors: discard and take a pile", request_only=True,
                           value={"version": 9, "move": {"action": "discard_take", "card": "red-3b", "pile": 0,
                                                         "take": 1}, "client_id": "a-unique-id-4"}),
            OpenApiExample("Inheritors: end the turn", request_only=True,
                           value={"version": 10, "move": {"end_turn": True}, "client_id": "a-unique-id-5"}),
            *schema.GAME_VIEW_EXAMPLES,
        ],
        responses={
            201: OpenApiResponse(GameViewSerializer, description="Applied: your new view."),
            200: OpenApiResponse(GameViewSerializer,
                                 description="A retry of an applied `client_id`: the first answer."),
            400: schema.errors("Malformed body, or the engine refused the move (its message, with your legal moves "
                               "under `error.legal_moves`).",
                               ("invalid", "move: A move must be a non-empty JSON object, "
                                           "e.g. {\"play\": \"knight-7\"}."),
                               ("illegal_move", "you must follow Knights: you hold Knight 5")),
            409: schema.errors("Stale version (current view under `error.view`), not your turn, or the game is not "
                               "in play.",
                               ("stale_version", "Your move was made against version 3, but the game is at version 4: "
                                                 "look at the current view and try again."),
                               ("not_your_turn", "It is not your turn: waiting for seat 1."),
                               ("not_active", "This game is not in play (status: finished).")),
            **schema.STANDARD,
        },
    )
    def post(self, request, game_id: int):
        ser = MoveSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        payload, applied = call(service.make_move, request.user, game_id, d["version"], d["move"],
                                d.get("client_id") or None)
        return Response(payload, status=status.HTTP_201_CREATED if applied else status.HTTP_200_OK)


class GameResignView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="games_resign", summary="Resign",
        description="You lose; every other seat wins. The game ends for everyone. Scope: `games:play`.",
        request=None, examples=schema.GAME_VIEW_EXAMPLES,
        responses={200: GameViewSerializer,
                   409: schema.error("Only a game in play can be resigned.", "not_active",
                                     "Only a game in play can be resigned."),
                   **schema.STANDARD},
    )
    def post(self, request, game_id: int):
        game = call(service.resign, request.user, game_id)
        return Response(service.game_view_payload(game, request.user))


class GameAbortView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="games_abort", summary="Offer (or accept) to abort",
        description="Only before the first move. While the game is open, any seated player (creator or invitee) "
                    "calls it off at once. Once it started, the game is aborted when every human seat has offered "
                    "(against the AI: at once). A tournament game is never aborted (409 `tournament_game`). "
                    "Scope: `games:play`.",
        request=None, examples=schema.GAME_VIEW_EXAMPLES,
        responses={200: GameViewSerializer,
                   409: schema.errors("Too late (a move was made) or the game has ended.",
                                      ("abort_not_allowed",
                                       "A game can only be aborted before the first move; resign instead."),
                                      ("tournament_game", "A tournament game cannot be aborted: play it, resign "
                                                          "it, or withdraw from the tournament."),
                                      ("not_active", "This game has already ended.")),
                   **schema.STANDARD},
    )
    def post(self, request, game_id: int):
        game = call(service.offer_abort, request.user, game_id)
        return Response(service.game_view_payload(game, request.user))


class GameRematchView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="games_rematch", summary="Offer (or accept) a rematch",
        description="The same players again, with the same kind, options, seats, time control and rated flag. "
                    "Two seats against a human: an offer to the other player (a challenge, `rematch_offer` of "
                    "this game; 202 with this game's view, again 202 while it waits); the other player's request "
                    "accepts it (200, the new game). Three or four seats, or against the AI: a new game inviting "
                    "the same users (201; AI seats filled); another player's request joins it (200). Every change "
                    "of the offer is the `rematch_offer` event. Scope: `games:play`.",
        request=None, examples=schema.GAME_VIEW_EXAMPLES,
        responses={201: GameViewSerializer, 200: GameViewSerializer, 202: GameViewSerializer,
                   409: schema.errors("Not finished, an opponent's account is closed, or your offer was declined.",
                                      ("not_finished", "A rematch can be asked for once the game has finished."),
                                      ("opponent_unavailable", "No rematch: the account of Bob is closed."),
                                      ("rematch_declined", "Bob declined your rematch offer."),
                                      ("too_many_challenges_to_user", "You have 3 pending challenges to bob, ...")),
                   **schema.STANDARD, 403: schema.e403_blocked("You cannot play a rematch with this player.")},
    )
    def post(self, request, game_id: int):
        game, outcome = call(service.rematch, request.user, game_id)
        codes = {"created": status.HTTP_201_CREATED, "offered": status.HTTP_202_ACCEPTED}
        return Response(service.game_view_payload(game, request.user), status=codes.get(outcome, status.HTTP_200_OK))


class GameHistoryView(PublicReadView, GenericAPIView):
    # djangorestframework-stubs type the setting str | None; api_settings gives the class it names
    pagination_class = api_settings.DEFAULT_PAGINATION_CLASS  # type: ignore[assignment]

    @extend_schema(
        tags=TAGS, operation_id="games_history", summary="History of a game",
        description="One entry per version, oldest first, from `from_version` (inclusive): the public events of "
                    "that change. The raw `move` is shown after the end, or to the seat that made it; otherwise "
                    "null. To catch up after version N ask `from_version=N+1`. Paged. Scope: `games:read`.",
        parameters=[OpenApiParameter("from_version", {"type": "integer", "minimum": 0},
                                     description="First version (default 0).")],
        examples=[OpenApiExample("A move", response_only=True, value={
            "count": 1, "next": None, "previous": None,
            "results": [{"version": 4, "type": "move", "seat": 1, "move_number": 2, "move": None,
                         "events": [{"type": "play", "seat": 1, "card": "knight-4"}],
                         "created_at": "2026-11-29T10:05:00Z"}]})],
        responses={200: HistoryEntrySerializer(many=True), 400: schema.E400, **schema.STANDARD},
    )
    def get(self, request, game_id: int):
        from_version = _int_param(request, "from_version", 0)
        game, mine, entries = call(service.history_for, request.user, game_id, from_version)
        page = self.paginate_queryset(entries)
        assert page is not None  # pagination_class is set
        viewer = mine.index if mine is not None else None
        return self.get_paginated_response([service.history_entry_payload(e, game, viewer) for e in page])


class GameRecordView(PublicReadView):
    @extend_schema(
        tags=TAGS, operation_id="games_record", summary="The public record of a finished game",
        description="After the end: the engine's record (deal, deck, every move, result), the move log and the seed. "
                    "Public for finished games. Stored when the game ends; `ETag` on every answer: send it back "
                    "in `If-None-Match` and an unchanged record answers 304 with no body. Scope: `games:read`.",
        responses={200: RecordSerializer,
                   409: schema.errors("The game has not ended (or was aborted).",
                                      ("not_finished", "The record is published when the game ends."),
                                      ("no_record", "This game was aborted before it was dealt: there is no record.")),
                   304: OpenApiResponse(description="Not modified: `If-None-Match` names this record's `ETag`."),
                   **schema.STANDARD},
        parameters=CONDITIONAL,
    )
    def get(self, request, game_id: int):
        found = call(service.public_record, request.user, game_id)
        return conditional(request, found.etag, lambda: HttpResponse(found.text(), content_type="application/json"))


class GameReplayView(PublicReadView):
    @extend_schema(
        tags=TAGS, operation_id="games_replay", summary="Step through a finished game",
        description="The game rebuilt from its move log after `step` moves (default: all), with the spectator view "
                    "and every seat's view (the game is over, so nothing is hidden any more). Scope: `games:read`.",
        parameters=[OpenApiParameter("step", {"type": "integer", "minimum": 0},
                                     description="Moves applied (0 = the deal).")],
        responses={200: ReplaySerializer, 400: schema.E400,
                   409: schema.error("The game has not ended.", "not_finished",
                                     "The record is published when the game ends."),
                   **schema.STANDARD},
    )
    def get(self, request, game_id: int):
        step = _int_param(request, "step", None)
        return Response(call(service.replay_for, request.user, game_id, step))
