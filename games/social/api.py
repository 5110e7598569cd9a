"""The endpoints of follows, blocks, mutes, friends and public profiles (issue 35; docs/api.md, "Friends and
profiles"):

* ``PUT`` / ``DELETE /users/{username}/follow|block|mute`` -> ``Relationship``;
* ``GET /following``, ``/followers``, ``/blocks``, ``/mutes`` -> ``UserListPage``; ``GET /friends`` -> ``FriendPage``;
* ``GET /users/{username}`` -> ``PublicProfile`` (public).

Tokens need the ``social`` scope for the first two groups (``bot:play`` does not include it); the profile, public,
asks a token for ``games:read`` like a player's finished games. Writes are throttled per user (``social``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import effective_scopes, is_bearer_token
from accounts.lookup import active_user_named, no_player_called
from accounts.models import User
from claim.throttling import AnonRateThrottle, UserRateThrottle, UserWriteThrottle
from games.api import keyset, schema
from games.api.profile_games import ProfileGameSerializer
from games.api.serializers import PublicUserSerializer
from games.api.views import PublicFinishedRead, call

from . import service

TAGS = ["social"]
SCOPE = "social"
PAGE, MOST = 50, 100


class SocialScopes(permissions.BasePermission):
    """A token needs ``social`` (a bot account's ``bot:play`` does not include it); sessions have every scope."""

    message = f"This token lacks the scope: {SCOPE}."
    code = "insufficient_scope"

    @staticmethod
    def openapi_scopes(view: Any, method: str) -> list[str]:
        return [SCOPE]

    def has_permission(self, request, view) -> bool:
        token = request.auth
        if not is_bearer_token(token):
            return True
        return SCOPE in effective_scopes(token.scopes, bool(getattr(request.user, "is_bot", False)))


class SocialThrottle(UserWriteThrottle):
    """The ``social`` rate (``THROTTLE_SOCIAL``, default 60/min per user): follows, blocks and mutes, added or
    removed, all together."""

    scope = "social"
    default = "60/min"


# --- shapes -------------------------------------------------------------------------------------------------------

class RelationshipSerializer(serializers.Serializer):
    username = serializers.CharField(help_text="The other player's username (as stored).")
    following = serializers.BooleanField(help_text="You follow them.")
    followed_by = serializers.BooleanField(help_text="They follow you.")
    friends = serializers.BooleanField(help_text="Both: you follow each other.")
    blocking = serializers.BooleanField(help_text="You block them.")
    muting = serializers.BooleanField(help_text="You mute them (their chat lines are hidden from you).")


class UserListPageSerializer(serializers.Serializer):
    results = PublicUserSerializer(many=True, help_text="Newest first (the most recent follow, block or mute).")
    next = serializers.IntegerField(allow_null=True, help_text="Pass as `cursor` for the next page; null: the last.")


class FriendSerializer(serializers.Serializer):
    user = PublicUserSerializer()
    online = serializers.BooleanField(help_text="Connected now (a socket or event stream); always false for a "
                                                "friend who hides their presence.")
    watchable_games = serializers.ListField(
        child=serializers.IntegerField(), max_length=service.WATCHABLE_PER_USER,
        help_text=f"Ids of the friend's running watchable games (newest first, at most "
                  f"{service.WATCHABLE_PER_USER}; none with a player who has a block with you): "
                  "`GET /games/{id}/watch`.")


class FriendPageSerializer(serializers.Serializer):
    results = FriendSerializer(many=True, help_text="Online friends first, then by your follow, newest first.")
    next = serializers.IntegerField(allow_null=True, help_text="Pass as `cursor` for the next page; null: the last. A "
                                                            "page may hold fewer friends than `limit` while `next` "
                                                            "is not null.")


class PublicRatingPointSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    rating = serializers.IntegerField(help_text="The rating after that game.")


class PublicRatingSerializer(serializers.Serializer):
    pool = serializers.CharField(help_text="Rating pool: the game kind, with -3p/-4p for 3-4 players.")
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField(help_text="Grown to now for the idle periods since the last rated game.")
    games = serializers.IntegerField(help_text="Rated games played in the pool.")
    history = PublicRatingPointSerializer(many=True,
                                          help_text=f"The {service.HISTORY} latest changes, newest first.")


class PublicProfileSerializer(serializers.Serializer):
    user = PublicUserSerializer()
    joined = serializers.DateTimeField(help_text="When the account was made.")
    ratings = PublicRatingSerializer(many=True, help_text="One per pool the player has a rating in, by pool.")
    recent_games = ProfileGameSerializer(many=True,
                                         help_text=f"The {service.RECENT_GAMES} latest finished games, newest first "
                                                   "(more: `GET /users/{username}/games`).")
    reliability = serializers.IntegerField(
        min_value=0, max_value=100,
        help_text="0-100: the share of the player's recent games (the last 50, recent ones weighted more, one miss "
                  "in 20 forgiven) not lost on time or left; 100 without games. The figure of `GET /ratings/users/"
                  "{username}` and of seeks' `min_reliability`.")
    online = serializers.BooleanField(
        allow_null=True, help_text="Connected now; null for an anonymous caller, across a block (either way), and "
                                   "when the player hides their presence (`hide_presence`) from others.")
    watchable_games = serializers.ListField(
        child=serializers.IntegerField(), max_length=service.WATCHABLE_PER_USER,
        help_text="Ids of the player's running watchable games, as in `Friend`; empty across a block.")
    relationship = RelationshipSerializer(allow_null=True, help_text="Yours with the player; null when you are "
                                                                     "anonymous or it is your own profile.")


# --- errors ---------------------------------------------------------------------------------------------------------

E404 = schema.error("No active player has this username (letter case aside).", "not_found",
                    "No player is called 'nobody'.")
E400_PAGE = schema.error("A bad `cursor` or `limit` (`fields` names it).", "invalid",
                         "cursor: cursor must be an integer.", fields={"cursor": ["cursor must be an integer."]})
E403_SCOPE = schema.errors("The token lacks the `social` scope.",
                           ("insufficient_scope", f"This token lacks the scope: {SCOPE}."))
E403_FOLLOW = schema.errors("The token lacks the `social` scope, or a block stands between you (either way: the "
                            "message never says who blocked whom).",
                            ("insufficient_scope", f"This token lacks the scope: {SCOPE}."),
                            ("blocked", service.BLOCKED_FOLLOW))


def player(username: str) -> User:
    """The active user ``username`` names (accounts.lookup), or 404."""
    found = active_user_named(username)
    if found is None:
        raise NotFound(no_player_called(username))
    return found


PAGE_PARAMETERS = [
    OpenApiParameter("cursor", keyset.CURSOR_SCHEMA, description="`next` of the previous page."),
    OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": MOST},
                     description=f"Entries per page ({PAGE}; at most {MOST})."),
]
RELATIONSHIP_EXAMPLE = {"username": "bob", "following": True, "followed_by": True, "friends": True,
                        "blocking": False, "muting": False}


# --- views ----------------------------------------------------------------------------------------------------------

class SocialView(APIView):
    permission_classes = [IsAuthenticated, SocialScopes]
    required_scopes = [SCOPE]  # documentation (see SocialScopes)
    throttle_classes = [UserRateThrottle, SocialThrottle]


def _relation_view(kind: str, noun: str) -> type[SocialView]:
    verb, yourself = service.VERBS[kind], service.YOURSELF[kind]
    e400 = schema.error("The username is yours (`fields.username`).", "invalid", yourself,
                        fields={"username": [yourself]})
    more = {
        service.FOLLOW: "Following someone who blocks you, or whom you block, is 403 `blocked` (the message never "
                        "says who blocked whom). A new follow tells them (`followed` event) unless they block or "
                        "mute you.",
        service.BLOCK: "A block ends both follows between you, your pending challenges and the open games holding "
                       "you both, and the watching of each other's games; no new play, chat or follow across it, "
                       "either way (docs/api.md, \"Blocks\"). They are not told.",
        service.MUTE: "Their chat lines are hidden from you everywhere; they are not told.",
    }[kind]

    @extend_schema(tags=TAGS, operation_id=f"users_{verb}", summary=f"{noun.capitalize()} a player",
                   description=f"You now {verb} the player (idempotent: again is the same answer). {more} Answers "
                               f"your relationship with them. Rate limit `social` (60/min per user). Scope for "
                               f"tokens: `{SCOPE}`.",
                   request=None,
                   examples=[OpenApiExample("Friends", value=RELATIONSHIP_EXAMPLE, response_only=True)],
                   responses={200: RelationshipSerializer, 400: e400,
                              403: E403_FOLLOW if kind == service.FOLLOW else E403_SCOPE, 404: E404,
                              429: schema.E429})
    def put(self, request, username: str):
        return Response(call(service.set_relation, request.user, kind, player(username), True))

    @extend_schema(tags=TAGS, operation_id=f"users_un{verb}", summary=f"Stop {noun} a player",
                   description=f"You no longer {verb} the player (idempotent). Answers your relationship with "
                               f"them. Rate limit `social`. Scope for tokens: `{SCOPE}`.",
                   request=None,
                   responses={200: RelationshipSerializer, 400: e400, 403: E403_SCOPE, 404: E404,
                              429: schema.E429})
    def delete(self, request, username: str):
        return Response(call(service.set_relation, request.user, kind, player(username), False))

    return type(f"{verb.capitalize()}View", (SocialView,), {"put": put, "delete": delete, "__doc__":
                                                             f"PUT/DELETE /users/{{username}}/{verb}."})


FollowView = _relation_view(service.FOLLOW, "following")
BlockView = _relation_view(service.BLOCK, "blocking")
MuteView = _relation_view(service.MUTE, "muting")

_LIST_TEXT = {
    "following": ("Players you follow", "The players you follow, the latest first."),
    "followers": ("Players who follow you", "The players who follow you, the latest first."),
    "blocks": ("Players you block", "The players you block, the latest first (only yours: nobody learns who "
                                    "blocks them)."),
    "mutes": ("Players you mute", "The players you mute, the latest first (only yours)."),
}


def _list_view(name: str) -> type[SocialView]:
    summary, text = _LIST_TEXT[name]

    @extend_schema(tags=TAGS, operation_id=f"{name}_list", summary=summary,
                   description=f"{text} Keyset pages: send `next` back as `cursor`; null on the last page. Scope "
                               f"for tokens: `{SCOPE}`.",
                   parameters=PAGE_PARAMETERS,
                   responses={200: UserListPageSerializer, 400: E400_PAGE, 403: E403_SCOPE, 429: schema.E429})
    def get(self, request):
        cursor = keyset.cursor_param(request.query_params.get("cursor"))
        limit = keyset.limit_param(request.query_params.get("limit"), PAGE, MOST)
        results, following = service.user_page(request.user, name, cursor, limit)
        return Response({"results": results, "next": following})

    return type(f"{name.capitalize()}View", (SocialView,), {"get": get, "__doc__": f"GET /{name}."})


FollowingView = _list_view("following")
FollowersView = _list_view("followers")
BlocksView = _list_view("blocks")
MutesView = _list_view("mutes")


class FriendsView(SocialView):
    @extend_schema(tags=TAGS, operation_id="friends_list", summary="Your friends (mutual follows)",
                   description="The players you follow who follow you back: online ones first within a page (a "
                               "friend who hides their presence is never shown online), each with up to "
                               f"{service.WATCHABLE_PER_USER} of their running watchable games. Keyset pages over "
                               f"your follows, the latest first: a page reads at most {service.FRIENDS_SCAN} of "
                               "them, so it may hold fewer than `limit` friends while `next` is not null. Scope for "
                               f"tokens: `{SCOPE}`.",
                   parameters=PAGE_PARAMETERS,
                   responses={200: FriendPageSerializer, 400: E400_PAGE, 403: E403_SCOPE, 429: schema.E429})
    def get(self, request):
        cursor = keyset.cursor_param(request.query_params.get("cursor"))
        limit = keyset.limit_param(request.query_params.get("limit"), PAGE, MOST)
        results, following = service.friends_page(request.user, cursor, limit)
        return Response({"results": results, "next": following})


class PublicProfileView(APIView):
    permission_classes = [PublicFinishedRead]  # anonymous GET passes; a token needs games:read
    required_scopes = {"GET": ["games:read"]}  # documentation
    throttle_classes = [AnonRateThrottle, UserRateThrottle]

    @extend_schema(tags=TAGS, operation_id="users_retrieve", summary="A player's public profile",
                   description="Public (also without credentials): the player, when they joined, their ratings "
                               "with the latest history per pool, their 10 latest finished games, reliability, "
                               "whether they are online, their running watchable games, and your relationship with "
                               "them. `online` is null for anonymous callers, across a block (either way) and when "
                               "the player hides their presence; across a block `watchable_games` is empty too. "
                               "Scope for tokens: `games:read`.",
                   responses={200: PublicProfileSerializer,
                              403: schema.errors("The token lacks the scope games:read.",
                                                 ("insufficient_scope", "This token lacks the scope: games:read.")),
                              404: E404, 429: schema.E429})
    def get(self, request, username: str):
        return Response(service.profile(player(username), request.user))
