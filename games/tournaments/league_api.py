"""``/api/v1/leagues``: list (keyset pages), create, read (the current season's divisions, each a round-robin
tournament, and the previous season's promotion and relegation), join, leave (docs/api.md, "Leagues";
docs/tournaments.md, "League")."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from claim import refusals
from claim.strict_fields import ClosedSerializer, StrictBooleanField, StrictCharField, StrictIntegerField
from claim.throttling import UserRateThrottle, UserWriteThrottle
from games.api import keyset, schema
from games.api.serializers import KindField, OptionsField, TimeControlField, TimeControlSerializer
from games.api.views import GameView, call
from games.rules.registry import GAMES

from . import league as service
from . import service as tournaments
from .api import PlayerSerializer, _iso, _person
from .models import LEAGUE_STATUSES, League, LeagueDivision, LeagueMember, LeagueSeason

TAGS = ["leagues"]
PAGE, MOST = 20, 100


# ----------------------------------------------------------------------------------------------- requests

class LeagueCreateSerializer(ClosedSerializer):
    name = StrictCharField(max_length=60, help_text="At most 60 characters.")
    kind = KindField(help_text='The game kind of every game: a 2-player kind, e.g. "claim".')
    options = OptionsField(required=False, default=dict, help_text="Engine options of every game, as for POST /games.")
    time_control = TimeControlField(help_text="Days per move or a bank, as for POST /games (not unlimited).")
    rated = StrictBooleanField(required=False, default=True, help_text="Rated in the kind's 2-player pool.")
    division_size = StrictIntegerField(required=False, default=service.DEFAULT_DIVISION,
                                       min_value=service.MIN_DIVISION, max_value=service.MAX_DIVISION,
                                       help_text="Players per division (the lowest takes the remainder: from half "
                                                 "a division to one and a half).")
    season_days = StrictIntegerField(required=False, default=service.DEFAULT_SEASON_DAYS,
                                     min_value=service.MIN_SEASON_DAYS, max_value=service.MAX_SEASON_DAYS,
                                     help_text="A season's length; its games still running then are adjudicated.")
    movers = StrictIntegerField(required=False, default=service.DEFAULT_MOVERS, min_value=1,
                                max_value=service.MAX_DIVISION // 2,
                                help_text="Promoted and relegated per division at a season's end (at most half "
                                          "a division).")
    max_members = StrictIntegerField(required=False, default=service.DEFAULT_MEMBERS, min_value=service.MIN_DIVISION,
                                     max_value=service.MAX_MEMBERS, help_text="At least division_size.")
    rating_min = StrictIntegerField(required=False, allow_null=True, default=None, min_value=0,
                                    max_value=tournaments.MAX_RATING)
    rating_max = StrictIntegerField(required=False, allow_null=True, default=None, min_value=0,
                                    max_value=tournaments.MAX_RATING)
    min_reliability = StrictIntegerField(required=False, default=0, min_value=0,
                                         max_value=tournaments.MAX_RELIABILITY,
                                         help_text="Members' reliability (0-100) at least this; 0: no condition.")
    bots_allowed = StrictBooleanField(required=False, default=False)
    starts_at = serializers.DateTimeField(help_text="The first season's start (at most 90 days ahead).")


# ----------------------------------------------------------------------------------------------- answers

class LeagueLinksSerializer(serializers.Serializer):
    self = serializers.CharField()
    join = serializers.CharField()
    leave = serializers.CharField()


class LeagueSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField()
    title = serializers.CharField(help_text="The kind's title.")
    status = serializers.ChoiceField(choices=LEAGUE_STATUSES,
                                     help_text="`open`: no season running (waiting for the start or for two "
                                               "members); `running`; `closed`.")
    closing = serializers.BooleanField(help_text="An operator closed it: no season after the current one.")
    options = serializers.DictField()
    time_control = TimeControlSerializer()
    rated = serializers.BooleanField()
    division_size = serializers.IntegerField()
    season_days = serializers.IntegerField()
    movers = serializers.IntegerField(help_text="Promoted and relegated per division.")
    max_members = serializers.IntegerField()
    member_count = serializers.IntegerField(help_text="Members (those leaving at the season's end included).")
    rating_min = serializers.IntegerField(allow_null=True)
    rating_max = serializers.IntegerField(allow_null=True)
    min_reliability = serializers.IntegerField()
    bots_allowed = serializers.BooleanField()
    starts_at = serializers.DateTimeField(help_text="The first season's start.")
    current_season = serializers.IntegerField(help_text="The running or last season's number (0: none yet).")
    featured = serializers.BooleanField()
    created_by = PlayerSerializer()
    created_at = serializers.DateTimeField()
    links = LeagueLinksSerializer()


class DivisionLinksSerializer(serializers.Serializer):
    tournament = serializers.CharField(allow_null=True, help_text="Its standings and crosstable.")
    games = serializers.CharField(allow_null=True)


class DivisionSerializer(serializers.Serializer):
    division = serializers.IntegerField(help_text="1 = the top division.")
    tournament_id = serializers.IntegerField(allow_null=True, help_text="Its round-robin tournament (null for a "
                                                                        "moment at the season's start).")
    players = PlayerSerializer(many=True, help_text="In ladder order at the season's start.")
    links = DivisionLinksSerializer()


class SeasonSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(help_text="Games still running then are adjudicated.")
    finished_at = serializers.DateTimeField(allow_null=True)


class CurrentSeasonSerializer(SeasonSerializer):
    divisions = DivisionSerializer(many=True, help_text="The top division first.")


class MoveSerializer(serializers.Serializer):
    player = PlayerSerializer()
    division = serializers.IntegerField(allow_null=True, help_text="Their division that season (1 = top); null: "
                                                                   "a newcomer.")
    rank = serializers.IntegerField(allow_null=True, help_text="Their final rank in it.")
    to = serializers.IntegerField(allow_null=True, help_text="Their division the next season; null: dropped.")
    movement = serializers.ChoiceField(choices=["promoted", "relegated", "stayed", "entered", "dropped"])


class PreviousSeasonSerializer(SeasonSerializer):
    moves = MoveSerializer(many=True, help_text="Every player, by division then rank; newcomers last.")


class MembershipSerializer(serializers.Serializer):
    joined_at = serializers.DateTimeField()
    division = serializers.IntegerField(allow_null=True, help_text="Your division this season (1 = top); null: "
                                                                   "waiting for the next season.")
    left_at = serializers.DateTimeField(allow_null=True, help_text="You left: dropped at the season's end.")


class LeagueDetailSerializer(LeagueSerializer):
    season = CurrentSeasonSerializer(allow_null=True, help_text="The running season; null: none.")
    previous_season = PreviousSeasonSerializer(allow_null=True, help_text="The last finished season: promotion "
                                                                          "and relegation.")
    waiting = PlayerSerializer(many=True, help_text="Members who enter the lowest division at the next season.")
    my_membership = MembershipSerializer(allow_null=True, help_text="Yours, or null.")


class LeaguePageSerializer(serializers.Serializer):
    results = LeagueSerializer(many=True)
    next = serializers.IntegerField(allow_null=True, help_text="The cursor of the next page; null: the last page.")


# ----------------------------------------------------------------------------------------------- payloads

def league_payload(lg: League) -> dict[str, Any]:
    base = f"/api/v1/leagues/{lg.pk}"
    return {
        "id": lg.pk, "name": lg.name, "kind": lg.kind,
        "title": GAMES[lg.kind].info.title if lg.kind in GAMES else lg.kind, "status": lg.status,
        "closing": lg.closing, "options": lg.options, "time_control": tournaments.time_control_of(lg).payload(),
        "rated": lg.rated, "division_size": lg.division_size, "season_days": lg.season_days, "movers": lg.movers,
        "max_members": lg.max_members, "member_count": lg.member_count, "rating_min": lg.rating_min,
        "rating_max": lg.rating_max, "min_reliability": lg.min_reliability, "bots_allowed": lg.bots_allowed,
        "starts_at": _iso(lg.starts_at), "current_season": lg.current_season, "featured": lg.featured,
        "created_by": _person(lg.created_by), "created_at": _iso(lg.created_at),
        "links": {"self": base, "join": f"{base}/join", "leave": f"{base}/leave"},
    }


def _season(s: LeagueSeason) -> dict[str, Any]:
    return {"number": s.number, "starts_at": _iso(s.starts_at), "ends_at": _iso(s.ends_at),
            "finished_at": _iso(s.finished_at)}


def _one(d: int | None) -> int | None:
    """A division from 1 (the top) as the API counts them."""
    return None if d is None else d + 1


def _movement(division: int | None, to: int | None) -> str:
    if to is None:
        return "dropped"
    if division is None:
        return "entered"
    return "promoted" if to < division else "relegated" if to > division else "stayed"


def detail_payload(lg: League, viewer: Any) -> dict[str, Any]:
    """The league, its running season's divisions, the last finished season's moves, the members waiting and the
    viewer's membership: bounded by the league's members (at most ``max_members``) and two seasons."""
    seasons = list(LeagueSeason.objects.filter(league=lg).order_by("-number")[:2])
    running = next((s for s in seasons if s.finished_at is None), None)
    previous = next((s for s in seasons if s.finished_at is not None), None)
    divisions = list(LeagueDivision.objects.filter(season=running).order_by("number")) if running else []
    members = list(LeagueMember.objects.filter(league=lg).select_related("user").order_by("joined_at", "pk"))
    ids = {p for d in divisions for p in d.players} | {m["user_id"] for m in (previous.moves if previous else [])}
    known = {m.user_id: m.user for m in members}
    users = {**{u.pk: u for u in get_user_model().objects.filter(pk__in=ids - set(known))}, **known}
    mine = next((m for m in members if m.user_id == getattr(viewer, "pk", None)), None)

    def division(d: LeagueDivision) -> dict[str, Any]:
        t = f"/api/v1/tournaments/{d.tournament_id}" if d.tournament_id else None
        return {"division": d.number + 1, "tournament_id": d.tournament_id,
                "players": [_person(users[p]) for p in d.players if p in users],
                "links": {"tournament": t, "games": f"{t}/games" if t else None}}

    def move(m: dict[str, Any]) -> dict[str, Any]:
        return {"player": _person(users[m["user_id"]]), "division": _one(m["division"]), "rank": m["rank"],
                "to": _one(m["to"]), "movement": _movement(m["division"], m["to"])}

    return {
        **league_payload(lg),
        "season": {**_season(running), "divisions": [division(d) for d in divisions]} if running else None,
        "previous_season": ({**_season(previous), "moves": [move(m) for m in previous.moves
                                                              if m["user_id"] in users]} if previous else None),
        "waiting": [_person(m.user) for m in members if m.division is None and m.left_at is None],
        "my_membership": None if mine is None else {
            "joined_at": _iso(mine.joined_at), "division": None if mine.division is None else mine.division + 1,
            "left_at": _iso(mine.left_at)},
    }


# ----------------------------------------------------------------------------------------------- errors

E404 = schema.error("No such league.", "not_found", "No such league.")
E400 = schema.errors("Invalid terms: the field is named under `fields`.",
                     ("invalid", "movers (promoted and relegated per division) must be between 1 and 5 for "
                                 "divisions of 10."),
                     ("invalid_options", "claim-mix needs the option \"factions\": ..."))
E409_CREATE = schema.error("Too many leagues of yours not closed.", "too_many_leagues",
                           "You have 2 leagues not closed, the most allowed.")
E403_JOIN = schema.errors("Missing token scope, an entry condition, or a block.",
                          ("insufficient_scope", "This token lacks the scope: games:play (or bot:play for a bot "
                                                 "account)."),
                          ("bots_not_allowed", "This league takes no bots."),
                          ("rating_out_of_range", "Your rating in claim is 1432; this league takes players rated "
                                                  "1500 to 1800."),
                          ("reliability_too_low", "Your reliability is 72; this league takes players with a "
                                                  "reliability of at least 90."),
                          ("blocked", "You cannot join this league: a block stands between you and one of its "
                                      "members."))
E409_JOIN = schema.errors("Closed, full, or a member already.",
                          ("not_open", "This league is closed: it takes no new members."),
                          ("full", "This league is full (200 members)."),
                          ("already_member", "You are already a member of this league."))
E409_LEAVE = schema.error("Not a member.", "not_member", "You are not a member of this league.")
STD = {401: schema.E401, 403: schema.E403, 429: schema.E429}
EXAMPLE_CREATE = {"name": "Claim ladder", "kind": "claim", "time_control": {"type": "days", "days_per_move": 2},
                  "division_size": 10, "season_days": 28, "movers": 2, "min_reliability": 80,
                  "starts_at": "2026-12-20T18:00:00Z"}


class CreateLeagueThrottle(UserWriteThrottle):
    """Creating leagues: ``leagues_create`` rate, 10/hour unless configured."""

    scope = "leagues_create"
    default = "10/hour"


def _get_league(league_id: int) -> League:
    return call(service.get, league_id)


class LeaguesView(GameView):
    throttle_classes = [UserRateThrottle, CreateLeagueThrottle]

    @extend_schema(
        tags=TAGS, operation_id="leagues_list", summary="Leagues, newest first (paged)",
        description="Newest first; `status` filters. Keyset pages: send `next` back as `cursor`. Scope: "
                    "`games:read`.",
        parameters=[OpenApiParameter("status", str, enum=LEAGUE_STATUSES, description="Only this status."),
                    OpenApiParameter("cursor", keyset.CURSOR_SCHEMA, description="`next` of the previous page."),
                    OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": MOST},
                                     description=f"Leagues per page ({PAGE}; ≤ {MOST}).")],
        responses={200: LeaguePageSerializer, 400: schema.E400, **STD},
    )
    def get(self, request):
        after = keyset.cursor_param(request.query_params.get("cursor"))
        limit = keyset.limit_param(request.query_params.get("limit"), PAGE, MOST)
        wanted = request.query_params.get("status") or None
        if wanted is not None and wanted not in LEAGUE_STATUSES:
            raise ValidationError({"status": [refusals.not_one_of("status", LEAGUE_STATUSES)]})
        qs = League.objects.select_related("created_by")
        if wanted is not None:
            qs = qs.filter(status=wanted)
        if after is not None:
            qs = qs.filter(pk__lt=after)
        rows = list(qs.order_by("-id")[:limit + 1])
        page = rows[:limit]
        return Response({"results": [league_payload(lg) for lg in page],
                         "next": page[-1].pk if len(rows) > limit else None})

    @extend_schema(
        tags=TAGS, operation_id="leagues_create", summary="Create a league",
        description="Any player may create one (at most 2 not closed at once: 409; operators: no limit); creating "
                    "it does not make you a member. The first season starts at `starts_at` with the members then "
                    "(at least 2); each next season starts when the previous ends. Rate limit: `leagues_create` "
                    "(10/hour). Scope: `games:play`.",
        request=LeagueCreateSerializer,
        examples=[OpenApiExample("A monthly ladder", request_only=True, value=EXAMPLE_CREATE)],
        responses={201: LeagueDetailSerializer, 400: E400, 409: E409_CREATE, **STD},
    )
    def post(self, request):
        ser = LeagueCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        lg = call(service.create, request.user, **ser.validated_data)
        return Response(detail_payload(_get_league(lg.pk), request.user), status=status.HTTP_201_CREATED)


class LeagueDetailView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="leagues_retrieve", summary="One league: its season's divisions, the last moves",
        description="`season.divisions`: each division of the running season is a round-robin tournament "
                    "(`GET /tournaments/{tournament_id}`: standings, crosstable; `/games`). `previous_season.moves`: "
                    "who went up, down, stayed, entered or was dropped. Scope: `games:read`.",
        responses={200: LeagueDetailSerializer, 404: E404, **STD},
    )
    def get(self, request, league_id: int):
        return Response(detail_payload(_get_league(league_id), request.user))


class LeagueJoinView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="leagues_join", summary="Join a league (you play from the next season)",
        description="Checked: not closed, not a member already, bots allowed, your rating in the kind's 2-player "
                    "pool within the range, your reliability at least `min_reliability`, not full, no block between "
                    "you and a member. You enter the lowest division at the next season's start. Scope: "
                    "`games:play`.",
        request=None, responses={200: LeagueDetailSerializer, 403: E403_JOIN, 404: E404, 409: E409_JOIN,
                                 401: schema.E401, 429: schema.E429},
    )
    def post(self, request, league_id: int):
        call(service.join, request.user, league_id)
        return Response(detail_payload(_get_league(league_id), request.user))


class LeagueLeaveView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="leagues_leave", summary="Leave a league",
        description="Waiting for the next season: your membership is gone at once. Playing this season: you "
                    "withdraw from your division (your running games are resigned, your unplayed ones forfeited) "
                    "and are dropped at the season's end. Leaving twice changes nothing. Scope: `games:play`.",
        request=None, responses={200: LeagueDetailSerializer, 404: E404, 409: E409_LEAVE, **STD},
    )
    def post(self, request, league_id: int):
        call(service.leave, request.user, league_id)
        return Response(detail_payload(_get_league(league_id), request.user))
