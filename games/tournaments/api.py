"""``/api/v1/tournaments``: list (keyset pages), create, read (standings, crosstable, your entry), join, leave
(withdraw once running), cancel, and a round's games (docs/api.md, "Tournaments"; docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from claim import refusals
from claim.strict_fields import (
    ClosedSerializer,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
)
from claim.throttling import UserRateThrottle, UserWriteThrottle
from games.api import keyset, schema
from games.api.serializers import GAME_STATUSES, KindField, OptionsField, TimeControlField, TimeControlSerializer
from games.api.views import GameView, call
from games.rules.registry import GAMES

from . import service
from .models import TOURNAMENT_FORMATS, TOURNAMENT_STATUSES, Entry, LeagueDivision, Tournament, TournamentGame

TAGS = ["tournaments"]
PAGE, MOST = 20, 100


# ----------------------------------------------------------------------------------------------- requests

class TournamentCreateSerializer(ClosedSerializer):
    name = StrictCharField(max_length=80, help_text="At most 80 characters.")
    kind = KindField(help_text='The game kind of every game, e.g. "claim" (2 players) or "inheritors" (tables).')
    format = StrictChoiceField(choices=TOURNAMENT_FORMATS,
                               help_text="`round_robin` and `swiss`: 2-player games; `tables`: 3-4 player tables.")
    options = OptionsField(required=False, default=dict, help_text="Engine options of every game, as for POST /games.")
    rounds = StrictIntegerField(required=False, allow_null=True, default=None, min_value=1,
                                max_value=service.MAX_ROUNDS,
                                help_text="Swiss and tables: rounds to play (a Swiss at most players - 1); a round "
                                          "robin takes none.")
    time_control = TimeControlField(help_text="Days per move or a bank, as for POST /games (not unlimited).")
    rated = StrictBooleanField(required=False, default=False, help_text="Rated in the kind's pools.")
    max_players = StrictIntegerField(min_value=2, max_value=max(service.MAX_PLAYERS.values()),
                                     help_text="Round robin 2-20, Swiss 2-256, tables 3-128.")
    min_players = StrictIntegerField(required=False, allow_null=True, default=None, min_value=2,
                                     max_value=max(service.MAX_PLAYERS.values()),
                                     help_text="Fewer entrants at the start time: cancelled (default 2, tables 3).")
    rating_min = StrictIntegerField(required=False, allow_null=True, default=None, min_value=0,
                                    max_value=service.MAX_RATING)
    rating_max = StrictIntegerField(required=False, allow_null=True, default=None, min_value=0,
                                    max_value=service.MAX_RATING)
    min_reliability = StrictIntegerField(required=False, default=0, min_value=0, max_value=service.MAX_RELIABILITY,
                                         help_text="Entrants' reliability (0-100) at least this; 0: no condition.")
    bots_allowed = StrictBooleanField(required=False, default=False)
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None,
                                          help_text="When it starts (at most 90 days ahead); null: when full.")
    max_game_days = StrictIntegerField(required=False, default=service.DEFAULT_GAME_DAYS,
                                       min_value=service.MIN_GAME_DAYS, max_value=service.MAX_GAME_DAYS,
                                       help_text="A game still running after this many days is adjudicated.")


# ----------------------------------------------------------------------------------------------- answers

class PlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField()
    is_bot = serializers.BooleanField()


class TournamentLinksSerializer(serializers.Serializer):
    self = serializers.CharField()
    join = serializers.CharField()
    leave = serializers.CharField()
    games = serializers.CharField()


class TournamentLeagueSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    season = serializers.IntegerField(help_text="The season's number.")
    division = serializers.IntegerField(help_text="1 = the top division.")
    link = serializers.CharField(help_text="The league (GET).")


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField()
    title = serializers.CharField(help_text="The kind's title.")
    format = serializers.ChoiceField(choices=TOURNAMENT_FORMATS)
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES)
    options = serializers.DictField()
    rounds = serializers.IntegerField(allow_null=True, help_text="Rounds to play (a round robin: its rounds).")
    current_round = serializers.IntegerField(help_text="0 before the start; a round robin plays all at once.")
    time_control = TimeControlSerializer()
    rated = serializers.BooleanField()
    max_players = serializers.IntegerField()
    min_players = serializers.IntegerField()
    player_count = serializers.IntegerField(help_text="Entrants (those who withdrew included).")
    rating_min = serializers.IntegerField(allow_null=True)
    rating_max = serializers.IntegerField(allow_null=True)
    min_reliability = serializers.IntegerField(help_text="Entrants' reliability at least this (0: no condition).")
    bots_allowed = serializers.BooleanField()
    starts_at = serializers.DateTimeField(allow_null=True, help_text="Null: starts when full.")
    max_game_days = serializers.IntegerField()
    featured = serializers.BooleanField()
    created_by = PlayerSerializer()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    links = TournamentLinksSerializer()
    league = TournamentLeagueSerializer(allow_null=True, help_text="The league whose season's division this "
                                        "round robin is (its `name` is made from the league's name, season and "
                                        "division); null: a tournament of its own.")


class EntrySerializer(serializers.Serializer):
    player = PlayerSerializer()
    joined_at = serializers.DateTimeField()
    withdrawn_at = serializers.DateTimeField(allow_null=True, help_text="Out: withdrew or lost two games on time.")
    timeouts = serializers.IntegerField(help_text="Games lost on time.")
    seed = serializers.IntegerField(allow_null=True, help_text="Seed order from 1, set at the start.")
    rating = serializers.IntegerField(allow_null=True, help_text="Rating at the start.")


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = PlayerSerializer()
    score = serializers.FloatField(help_text="Points (Swiss, round robin) or placement points (tables).")
    tiebreaks = serializers.ListField(child=serializers.FloatField(), help_text="In the order of `tiebreak_names`.")
    games = serializers.IntegerField(help_text="Games counted (forfeits included).")
    wins = serializers.IntegerField(help_text="Wins (tables: first places).")
    out = serializers.BooleanField()


class CrossSerializer(serializers.Serializer):
    player = serializers.CharField(help_text="Username.")
    opponent = serializers.CharField(help_text="Username.")
    points = serializers.ListField(child=serializers.FloatField(), help_text="The player's points per game.")


class ByeSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    player = serializers.CharField(help_text="Username.")


class TournamentDetailSerializer(TournamentSerializer):
    players = EntrySerializer(many=True, help_text="In seed order once started, else in entry order.")
    standings = StandingSerializer(many=True, help_text="Empty before the start.")
    tiebreak_names = serializers.ListField(child=serializers.CharField())
    crosstable = CrossSerializer(many=True, help_text="2-player formats: every counted game per pair of players.")
    byes = ByeSerializer(many=True)
    my_entry = EntrySerializer(allow_null=True, help_text="Yours, or null.")


class TournamentPageSerializer(serializers.Serializer):
    results = TournamentSerializer(many=True)
    next = serializers.IntegerField(allow_null=True, help_text="The cursor of the next page; null: the last page.")


class TournamentGameSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    board = serializers.IntegerField()
    game_id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GAME_STATUSES, help_text="The game's status.")
    players = PlayerSerializer(many=True, help_text="By seat.")
    places = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                   help_text="By seat, 1 = best, once it ended.")
    finished = serializers.BooleanField(help_text="Counted in the standings.")
    adjudicated = serializers.BooleanField()


class TournamentGamesSerializer(serializers.Serializer):
    round = serializers.IntegerField(allow_null=True, help_text="The round listed; null: every round.")
    results = TournamentGameSerializer(many=True)


# ----------------------------------------------------------------------------------------------- payloads

def _iso(dt: Any) -> str | None:
    return dt.isoformat().replace("+00:00", "Z") if dt is not None else None


def _person(user: Any) -> dict[str, Any]:
    return {"username": user.username, "name": user.public_name, "is_bot": user.is_bot}


def tournament_payload(t: Tournament, league: dict[str, Any] | None) -> dict[str, Any]:
    """A tournament as listed; ``league``: :func:`leagues_of`'s entry for it."""
    base = f"/api/v1/tournaments/{t.pk}"
    return {
        "id": t.pk, "name": t.name, "kind": t.kind, "title": GAMES[t.kind].info.title if t.kind in GAMES else t.kind,
        "format": t.format, "status": t.status, "options": t.options, "rounds": t.rounds,
        "current_round": t.current_round, "time_control": service.time_control_of(t).payload(), "rated": t.rated,
        "max_players": t.max_players, "min_players": t.min_players, "player_count": t.player_count,
        "rating_min": t.rating_min, "rating_max": t.rating_max, "min_reliability": t.min_reliability,
        "bots_allowed": t.bots_allowed,
        "starts_at": _iso(t.starts_at), "max_game_days": t.max_game_days, "featured": t.featured,
        "created_by": _person(t.created_by), "created_at": _iso(t.created_at), "started_at": _iso(t.started_at),
        "finished_at": _iso(t.finished_at),
        "links": {"self": base, "join": f"{base}/join", "leave": f"{base}/leave", "games": f"{base}/games"},
        "league": league,
    }


def _entry(e: Entry) -> dict[str, Any]:
    return {"player": _person(e.user), "joined_at": _iso(e.joined_at), "withdrawn_at": _iso(e.withdrawn_at),
            "timeouts": e.timeouts, "seed": None if e.seed is None else e.seed + 1, "rating": e.rating}


def detail_payload(t: Tournament, viewer: Any) -> dict[str, Any]:
    """The tournament with its entrants, the cached standings and crosstable, the byes and the viewer's entry:
    a bounded read (one tournament's entries, at most ``max_players``, and byes)."""
    entries = list(Entry.objects.filter(tournament=t).select_related("user").order_by("seed", "joined_at", "pk"))
    names = {e.user_id: e.user for e in entries}
    mine = next((e for e in entries if e.user_id == getattr(viewer, "pk", None)), None)
    byes = list(t.byes.order_by("round", "user_id").values_list("round", "user_id"))
    return {
        **tournament_payload(t, leagues_of([t.pk]).get(t.pk)),
        "players": [_entry(e) for e in entries],
        "standings": [{"rank": s["rank"], "player": _person(names[s["user_id"]]), "score": s["score"],
                       "tiebreaks": s["tiebreaks"], "games": s["games"], "wins": s["wins"], "out": s["out"]}
                      for s in t.standings if s["user_id"] in names],
        "tiebreak_names": service.TIEBREAKS[Tournament.Format(t.format)],
        "crosstable": [{"player": names[c["user_id"]].username, "opponent": names[c["opponent_id"]].username,
                        "points": c["points"]} for c in t.crosstable
                       if c["user_id"] in names and c["opponent_id"] in names],
        "byes": [{"round": r, "player": names[u].username} for r, u in byes if u in names],
        "my_entry": _entry(mine) if mine is not None else None,
    }


def leagues_of(tournament_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The league, season and division (from 1, the top) of each of ``tournament_ids`` that is a league's round
    robin: one query by the divisions' unique ``tournament`` index (a page's ids at most)."""
    found = LeagueDivision.objects.filter(tournament_id__in=tournament_ids).select_related("season__league")
    leagues = {}
    for d in found:
        if d.tournament_id is not None:
            name, season, division = d.place()
            leagues[d.tournament_id] = {"id": d.season.league_id, "name": name, "season": season, "division": division,
                                        "link": f"/api/v1/leagues/{d.season.league_id}"}
    return leagues


# ----------------------------------------------------------------------------------------------- errors

E404 = schema.error("No such tournament.", "not_found", "No such tournament.")
E400 = schema.errors("Invalid terms: the field is named under `fields`.",
                     ("invalid", "rounds must be between 1 and 7 for 8 players."),
                     ("invalid_options", "claim-mix needs the option \"factions\": ..."))
E409_CREATE = schema.error("Too many tournaments of yours not finished.", "too_many_tournaments",
                           "You have 3 tournaments open or running, the most allowed: wait until one finishes.")
E403_JOIN = schema.errors("Missing token scope, an entry condition, or a block.",
                          ("insufficient_scope", "This token lacks the scope: games:play (or bot:play for a bot "
                                                 "account)."),
                          ("bots_not_allowed", "This tournament takes no bots."),
                          ("rating_out_of_range", "Your rating in claim is 1432; this tournament takes players "
                                                  "rated 1500 to 1800."),
                          ("reliability_too_low", "Your reliability is 72; this tournament takes players with a "
                                                  "reliability of at least 90."),
                          ("blocked", "You cannot join this tournament: a block stands between you and one of its "
                                      "players."))
E409_JOIN = schema.errors("Entries are closed or the tournament is full.",
                          ("not_open", "This tournament has started: entries are closed."),
                          ("full", "This tournament is full (16 players)."),
                          ("withdrawn", "You are out of this tournament (withdrawn, or two games lost on time): "
                                        "you cannot enter it again."))
E409_LEAVE = schema.errors("Not entered, or nothing left to leave.",
                           ("not_entered", "You are not in this tournament."),
                           ("not_running", "This tournament is over: there is nothing to leave."))
E409_CANCEL = schema.error("It has started.", "not_open", "Only a tournament that has not started can be cancelled.")
E403_CANCEL = schema.errors("Missing token scope, or not your tournament.",
                            ("insufficient_scope", "This token lacks the scope: games:play."),
                            ("not_creator", "Only the player who created this tournament can cancel it."))
STD = {401: schema.E401, 403: schema.E403, 429: schema.E429}
EXAMPLE_CREATE = {"name": "Winter Swiss", "kind": "claim", "format": "swiss", "rounds": 5, "max_players": 32,
                  "time_control": {"type": "days", "days_per_move": 3}, "rated": True, "rating_max": 1800,
                  "starts_at": "2026-12-20T18:00:00Z"}


class CreateTournamentThrottle(UserWriteThrottle):
    """Creating tournaments: ``tournaments_create`` rate, 10/hour unless configured."""

    scope = "tournaments_create"
    default = "10/hour"


def _get_tournament(tournament_id: int) -> Tournament:
    return call(service.get, tournament_id)


class TournamentsView(GameView):
    throttle_classes = [UserRateThrottle, CreateTournamentThrottle]

    @extend_schema(
        tags=TAGS, operation_id="tournaments_list", summary="Tournaments, newest first (paged)",
        description="Newest first; `status` filters (`open`: entries open), `featured=true` lists those an "
                    "operator featured. Keyset pages: send `next` back as `cursor`. Scope: `games:read`.",
        parameters=[OpenApiParameter("status", str, enum=TOURNAMENT_STATUSES, description="Only this status."),
                    OpenApiParameter("featured", bool, description="Only the featured ones."),
                    OpenApiParameter("cursor", keyset.CURSOR_SCHEMA, description="`next` of the previous page."),
                    OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": MOST},
                                     description=f"Tournaments per page ({PAGE}; ≤ {MOST}).")],
        responses={200: TournamentPageSerializer, 400: schema.E400, **STD},
    )
    def get(self, request):
        after = keyset.cursor_param(request.query_params.get("cursor"))
        limit = keyset.limit_param(request.query_params.get("limit"), PAGE, MOST)
        wanted = request.query_params.get("status") or None
        if wanted is not None and wanted not in TOURNAMENT_STATUSES:
            raise ValidationError({"status": [refusals.not_one_of("status", TOURNAMENT_STATUSES)]})
        featured = request.query_params.get("featured")
        if featured not in (None, "", "true", "false"):
            raise ValidationError({"featured": [refusals.not_a_boolean("featured")]})
        qs = Tournament.objects.select_related("created_by")
        if wanted is not None:
            qs = qs.filter(status=wanted)  # the index (status, -id)
        if featured == "true":
            qs = qs.filter(featured=True)
        if after is not None:
            qs = qs.filter(pk__lt=after)
        rows = list(qs.order_by("-id")[:limit + 1])
        page = rows[:limit]
        leagues = leagues_of([t.pk for t in page])
        return Response({"results": [tournament_payload(t, leagues.get(t.pk)) for t in page],
                         "next": page[-1].pk if len(rows) > limit else None})

    @extend_schema(
        tags=TAGS, operation_id="tournaments_create", summary="Create a tournament",
        description="Any player may create one (at most 3 open or running at once: 409); creating it does not "
                    "enter you. It starts at `starts_at` (cancelled with fewer than `min_players`), or when full "
                    "if `starts_at` is null. Rate limit: `tournaments_create` (10/hour). Scope: `games:play`.",
        request=TournamentCreateSerializer,
        examples=[OpenApiExample("A rated Swiss", request_only=True, value=EXAMPLE_CREATE)],
        responses={201: TournamentDetailSerializer, 400: E400, 409: E409_CREATE, **STD},
    )
    def post(self, request):
        ser = TournamentCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        t = call(service.create, request.user, **ser.validated_data)
        return Response(detail_payload(_get_tournament(t.pk), request.user), status=status.HTTP_201_CREATED)


class TournamentDetailView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="tournaments_retrieve", summary="One tournament: entrants, standings, crosstable",
        description="The standings are recomputed with every result (docs/tournaments.md: scores, tie-breaks, "
                    "forfeits); `my_entry` is yours. Scope: `games:read`.",
        responses={200: TournamentDetailSerializer, 404: E404, **STD},
    )
    def get(self, request, tournament_id: int):
        return Response(detail_payload(_get_tournament(tournament_id), request.user))


class TournamentJoinView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="tournaments_join", summary="Enter a tournament (before its start)",
        description="Checked: entries open, not full, bots allowed, your rating in the kind's pool within the "
                    "range, your reliability at least `min_reliability`, no block between you and an entrant. "
                    "Entering twice changes nothing; once out (withdrawn) you cannot enter again. The entry that "
                    "fills a tournament without a start time starts it. Scope: `games:play`.",
        request=None, responses={200: TournamentDetailSerializer, 403: E403_JOIN, 404: E404, 409: E409_JOIN,
                                 401: schema.E401, 429: schema.E429},
    )
    def post(self, request, tournament_id: int):
        call(service.join, request.user, tournament_id)
        return Response(detail_payload(_get_tournament(tournament_id), request.user))


class TournamentLeaveView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="tournaments_leave", summary="Leave (before the start) or withdraw (once it runs)",
        description="Before the start your entry is removed. Once it runs you withdraw: your running games are "
                    "resigned, your unplayed ones forfeited, and you are not paired again. Scope: `games:play`.",
        request=None, responses={200: TournamentDetailSerializer, 404: E404, 409: E409_LEAVE, **STD},
    )
    def post(self, request, tournament_id: int):
        call(service.leave, request.user, tournament_id)
        return Response(detail_payload(_get_tournament(tournament_id), request.user))


class TournamentCancelView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="tournaments_cancel", summary="Cancel your tournament before it starts",
        description="The creator (or an operator) only. Scope: `games:play`.",
        request=None, responses={200: TournamentDetailSerializer, 403: E403_CANCEL, 404: E404, 409: E409_CANCEL,
                                 401: schema.E401, 429: schema.E429},
    )
    def post(self, request, tournament_id: int):
        call(service.cancel, request.user, tournament_id)
        return Response(detail_payload(_get_tournament(tournament_id), request.user))


class TournamentGamesView(GameView):
    @extend_schema(
        tags=TAGS, operation_id="tournaments_games", summary="A round's games",
        description="The games of `round` (default: the current round; a round robin: every game), by board, "
                    "each with its players by seat and, once ended, their places. The games themselves are "
                    "watchable (`GET /games/{id}/watch`). Scope: `games:read`.",
        parameters=[OpenApiParameter("round", {"type": "integer", "minimum": 1, "maximum": service.MAX_ROUNDS},
                                     description="The round (from 1).")],
        responses={200: TournamentGamesSerializer, 400: schema.E400, 404: E404, **STD},
    )
    def get(self, request, tournament_id: int):
        t = _get_tournament(tournament_id)
        raw = request.query_params.get("round")
        number: int | None = None
        if raw not in (None, ""):
            try:
                number = int(raw)
            except ValueError:
                raise ValidationError({"round": [refusals.not_an_integer("round")]}) from None
            if not 1 <= number <= service.MAX_ROUNDS:
                raise ValidationError({"round": [refusals.not_between("round", 1, service.MAX_ROUNDS)]})
        elif t.format != Tournament.Format.ROUND_ROBIN:
            number = t.current_round or None
        qs = TournamentGame.objects.filter(tournament=t).select_related("game")
        if number is not None:
            qs = qs.filter(round=number)
        rows = list(qs.order_by("round", "board")[:500])
        names = {e.user_id: e.user for e in Entry.objects.filter(tournament=t).select_related("user")}
        results = [{"round": g.round, "board": g.board, "game_id": g.game_id, "status": g.game.status,
                    "players": [_person(names[p]) for p in g.players if p in names], "places": g.places,
                    "finished": g.finished, "adjudicated": g.adjudicated} for g in rows]
        if t.status == Tournament.Status.OPEN:
            number = None
        return Response({"round": number, "results": results})
