"""``/api/v1/chat/phrases``, ``/api/v1/games/{id}/chat`` (history, post), ``/chat/read`` and ``/api/v1/reports``
(docs/api.md, "Chat")."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import effective_scopes, is_bearer_token
from accounts.throttles import parse_rate
from claim import refusals
from claim.strict_fields import ClosedSerializer, StrictCharField, StrictChoiceField, StrictIntegerField
from claim.throttling import ScopedRateThrottle, UserRateThrottle, configured_rate
from games.api import schema
from games.api.serializers import CHAT_ROOMS, ChatLineSerializer
from games.api.views import GameAPIError, call
from games.service import InvalidRequest

from . import phrases, service
from .models import REPORT_REASONS, REPORT_STATUSES

TAGS = ["chat"]
READ, WRITE, BOT = "chat:read", "chat:write", "bot:play"


class ChatScopes(permissions.BasePermission):
    """A token needs ``chat:read`` to read (GET, and the view's ``read_posts``: marking read) and ``chat:write`` to
    write (POST); a bot account's ``bot:play`` token may do both. Sessions (the PWA) have every scope."""

    message = "This token lacks a required scope."
    code = "insufficient_scope"

    @staticmethod
    def openapi_scopes(view: Any, method: str) -> list[str]:
        return [_needed(view, method)]

    def has_permission(self, request, view) -> bool:
        token = request.auth
        if not is_bearer_token(token):
            return True
        is_bot = bool(getattr(request.user, "is_bot", False))
        have = effective_scopes(token.scopes, is_bot)
        need = _needed(view, request.method)
        if need in have or (is_bot and BOT in have):
            return True
        self.message = f"This token lacks the scope: {need} (or {BOT} for a bot account)."
        return False


def _needed(view: Any, method: str) -> str:
    return READ if method in permissions.SAFE_METHODS or getattr(view, "read_posts", False) else WRITE


class ChatView(APIView):
    permission_classes = [IsAuthenticated, ChatScopes]


class _Rate:
    """A rate read when a request comes (settings may change after import), ``N/<k>unit`` windows allowed."""

    default = "8/min"

    def get_rate(self) -> str | None:
        return configured_rate(self.scope) or self.default  # type: ignore[attr-defined]

    def parse_rate(self, rate: str | None) -> tuple[int | None, int | None]:
        return (None, None) if rate is None else parse_rate(rate)


class ChatThrottle(_Rate, ScopedRateThrottle):
    """The ``chat`` scope (``THROTTLE_CHAT``, default 8/min per user): lines written, every game together."""

    def allow_request(self, request, view) -> bool:
        return request.method != "POST" or super().allow_request(request, view)


class ChatBurstThrottle(_Rate, UserRateThrottle):
    """The ``chat_burst`` scope (``THROTTLE_CHAT_BURST``, default 3/10s per user): no more than a few lines at once."""

    scope = "chat_burst"
    default = "3/10s"

    def allow_request(self, request, view) -> bool:
        return request.method != "POST" or super().allow_request(request, view)


class ReportThrottle(_Rate, UserRateThrottle):
    """The ``reports`` scope (``THROTTLE_REPORTS``, default 10/hour per user)."""

    scope = "reports"
    default = "10/hour"


class ChatPhraseSerializer(serializers.Serializer):
    code = serializers.ChoiceField(choices=list(phrases.CODES))
    text = serializers.CharField(help_text="In your language (en/de/cs).")


class ChatPageSerializer(serializers.Serializer):
    results = ChatLineSerializer(many=True, help_text="Oldest first.")
    before = serializers.IntegerField(allow_null=True, help_text="Pass as `before` for the next older page; null: "
                                                                 "no older lines.")


class ChatPostSerializer(ClosedSerializer):
    room = StrictChoiceField(choices=CHAT_ROOMS, required=False, default=None, allow_null=True,
                             help_text="Default: `players` for a player, `spectators` for anyone else.")
    phrase = StrictChoiceField(choices=list(phrases.CODES), required=False, default=None, allow_null=True,
                               help_text="A quick phrase's code (either this or `text`).")
    text = StrictCharField(required=False, default=None, allow_null=True, trim_whitespace=False, max_length=1000,
                           help_text="Free text: at most 140 characters after surrounding whitespace is stripped, "
                                     "one line of plain text (no control or bidi-control characters).")


#: What the schema says of free text: a first character that is neither whitespace nor a control, then no control,
#: bidi embedding, override or isolate, and no lone surrogate; 140 characters at most. Every string it allows is
#: taken (the server strips surrounding whitespace, so it also takes some the schema does not describe).
TEXT_PATTERN = (r"^[^\s\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
                r"[^\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]*$")


class ChatPhrasePostSerializer(ClosedSerializer):
    room = StrictChoiceField(choices=CHAT_ROOMS, required=False,
                             help_text="Default: `players` for a player, `spectators` for anyone else.")
    phrase = StrictChoiceField(choices=list(phrases.CODES), help_text="A quick phrase's code.")


class ChatTextPostSerializer(ClosedSerializer):
    room = StrictChoiceField(choices=CHAT_ROOMS, required=False,
                             help_text="Default: `players` for a player, `spectators` for anyone else.")
    text = StrictCharField(min_length=1, max_length=140, validators=[RegexValidator(TEXT_PATTERN)],
                           help_text="Free text: one line of plain text, at most 140 characters (surrounding "
                                     "whitespace is stripped).")


#: The POST body, one of two shapes (``ChatPostSerializer`` takes them, and reports every other one with a 400).
CHAT_POST_REQUEST = PolymorphicProxySerializer(component_name="ChatPost", resource_type_field_name=None,
                                               serializers=[ChatPhrasePostSerializer, ChatTextPostSerializer])


class ChatReadMarkerSerializer(ClosedSerializer):
    last_id = StrictIntegerField(min_value=0, help_text="The id of the newest line you have read.")


class ChatReadSerializer(serializers.Serializer):
    last_id = serializers.IntegerField()
    unread_chat = serializers.IntegerField()


class ReportSerializer(ClosedSerializer):
    username = StrictCharField(max_length=150, help_text="The player reported.")
    game_id = StrictIntegerField(required=False, default=None, allow_null=True, min_value=1,
                                 help_text="The game it happened in.")
    message_id = StrictIntegerField(required=False, default=None, allow_null=True, min_value=1,
                                    help_text="The chat line reported (theirs, in that game).")
    reason = StrictChoiceField(choices=list(REPORT_REASONS))
    note = StrictCharField(required=False, default="", allow_blank=True, max_length=500, trim_whitespace=False)


class ReportCreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=list(REPORT_STATUSES))


ERR_INVALID = schema.errors(
    "Both or neither of phrase and text, an unknown phrase, empty or too long text, control or bidi characters.",
    ("invalid", "The text has 141 characters; at most 140 are allowed."))
ERR_403 = schema.errors(
    "Not a player (the players' room), your chat taken away, or a block with the other player.",
    ("not_a_player", "Only the players of this game write in its players' room."),
    ("chat_banned", "An operator has taken away your chat: you can no longer write in any game."),
    ("blocked", "You cannot chat with this player."),
    ("insufficient_scope", "This token lacks the scope: chat:write (or bot:play for a bot account)."))
ERR_404 = schema.error("No such game, or one you may not watch (the same words).", "not_found",
                       "No such game (or it is not visible to you).")
ERR_409 = schema.errors(
    "The room is closed to you.",
    ("chat_closed", "Spectators never write in the players' room; write in the spectators' room."))
STD = {401: schema.E401, 429: schema.E429}


def _int_query(request, name: str, default: int | None, low: int, high: int) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise GameAPIError(InvalidRequest(refusals.not_an_integer(name), field=name)) from None
    if not low <= value <= high:
        raise GameAPIError(InvalidRequest(refusals.not_between(name, low, high), field=name))
    return value


class PhrasesView(ChatView):
    @extend_schema(tags=TAGS, operation_id="chat_phrases", summary="The quick phrases, in your language",
                   description="Send one as `{\"phrase\": code}`. Scope: `chat:read`.",
                   responses={200: ChatPhraseSerializer(many=True), 403: schema.E403, **STD})
    def get(self, request):
        return Response(phrases.listing(request.user.language))


class GameChatView(ChatView):
    throttle_classes = [UserRateThrottle, ChatThrottle, ChatBurstThrottle]
    throttle_scope = "chat"

    @extend_schema(
        tags=TAGS, operation_id="chat_history", summary="A page of a game's chat, newest page first",
        description="Players read `players` always and `spectators` after the end; spectators (others, on a "
                    "watchable started game) read `spectators`, and `players` after the end; a finished game's "
                    "chat is public to any user. Hidden lines and those of players you muted or have a block "
                    "with are left out. Scope: `chat:read`.",
        parameters=[OpenApiParameter("room", str, enum=CHAT_ROOMS, description="Default: `players` for a player, "
                                                                               "`spectators` otherwise."),
                    OpenApiParameter("before", {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
                                     description="Only lines with a smaller id (the previous page's `before`)."),
                    OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": 100},
                                     description="Lines per page (default 50).")],
        responses={200: ChatPageSerializer, 400: schema.E400,
                   403: schema.errors("The room is not open to you yet.",
                                      ("not_a_player", "Only the players read their room while the game is on; "
                                                       "spectators read it after the end."),
                                      ("chat_closed", "The spectators' room opens to the players when the game "
                                                      "ends.")),
                   404: ERR_404, **STD},
    )
    def get(self, request, game_id: int):
        room = request.query_params.get("room") or None
        if room is not None and room not in CHAT_ROOMS:
            raise GameAPIError(InvalidRequest("room must be players or spectators.", field="room"))
        before = _int_query(request, "before", None, 1, 2**63 - 1)
        limit = _int_query(request, "limit", service.PAGE_DEFAULT, 1, service.PAGE_MAX)
        assert limit is not None
        return Response(call(service.history, request.user, game_id, room, before, limit))

    @extend_schema(
        tags=TAGS, operation_id="chat_post", summary="Write in a game's chat",
        description="A quick phrase (`phrase`) or free text (`text`, at most 140 characters, plain text). The "
                    "players (and, for the spectators' room, the spectators) get a `chat` event. Rate limits: "
                    "`chat` (8/min) and `chat_burst` (3 in 10 s) per user. Scope: `chat:write` (or `bot:play` for a "
                    "bot account).",
        request=CHAT_POST_REQUEST,
        examples=[OpenApiExample("A phrase", request_only=True, value={"phrase": "good_luck"}),
                  OpenApiExample("Free text", request_only=True, value={"room": "players", "text": "Nice move!"})],
        responses={201: ChatLineSerializer, 400: ERR_INVALID, 403: ERR_403, 404: ERR_404, 409: ERR_409, **STD},
    )
    def post(self, request, game_id: int):
        ser = ChatPostSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        out = call(service.post, request.user, game_id, d["room"], d["phrase"], d["text"])
        return Response(out, status=status.HTTP_201_CREATED)


class ChatReadView(ChatView):
    read_posts = True  # marking read is reading: chat:read suffices

    @extend_schema(
        tags=TAGS, operation_id="chat_read", summary="Mark a game's players' room read up to a line",
        description="The marker never moves back. Answers the marker and what is left unread (`unread_chat` of "
                    "`GET /games`). Scope: `chat:read`.",
        request=ChatReadMarkerSerializer,
        responses={200: ChatReadSerializer, 400: schema.E400,
                   403: schema.error("Not a player of this game.", "not_a_player",
                                     "Only the players of this game keep a read marker of its chat."),
                   404: ERR_404, **STD},
    )
    def post(self, request, game_id: int):
        ser = ChatReadMarkerSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        return Response(call(service.mark_read, request.user, game_id, ser.validated_data["last_id"]))


class ReportsView(ChatView):
    throttle_classes = [UserRateThrottle, ReportThrottle]

    @extend_schema(
        tags=TAGS, operation_id="reports_create", summary="Report a player (or one of their chat lines)",
        description="Goes to the operator (the Django admin). `message_id`: a line by that player you can read, "
                    "in `game_id` when given. Rate limit: `reports` (10/hour per user). Scope: `chat:write`.",
        request=ReportSerializer,
        examples=[OpenApiExample("A line", request_only=True,
                                 value={"username": "mallory", "game_id": 42, "message_id": 7, "reason": "abuse",
                                        "note": "Insults."})],
        responses={201: ReportCreatedSerializer,
                   400: schema.errors("Unknown player, yourself, a line not theirs or not in that game.",
                                      ("invalid", "message_id: No such line by this player in this game.")),
                   403: schema.E403, 404: ERR_404, **STD},
    )
    def post(self, request):
        ser = ReportSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        rep = call(service.report, request.user, d["username"], d["game_id"], d["message_id"], d["reason"], d["note"])
        return Response({"id": rep.pk, "status": rep.status}, status=status.HTTP_201_CREATED)
