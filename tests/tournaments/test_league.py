"""Leagues (issue 36, docs/tournaments.md "League") and the minimum reliability of tournaments and leagues: the API
and its refusals, the season cycle driven by the beat task (each division a round-robin tournament; promotion and
relegation by :func:`games.tournaments.core.league.next_season`), leavers and newcomers, the operator's admin, and
a 100-player league over two seasons played through the services in virtual time."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from accounts.models import Relation
from games import service as games
from games.clock.reliability import reliability
from games.clock.service import expire_deadline
from games.models import Game, Seat
from games.notify import texts
from games.notify.models import Notification
from games.ratings.models import Rating
from games.tournaments import league, service
from games.tournaments.core.league import divide, next_season
from games.tournaments.models import (
    Entry,
    League,
    LeagueDivision,
    LeagueMember,
    LeagueSeason,
    Tournament,
    TournamentGame,
)
from games.tournaments.tasks import tick_task
from tests.factories import make_user
from tests.service.test_schema_matches_answers import Components

from .conftest import DAYS
from .test_concurrency import _together

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _terms(**over: Any) -> dict[str, Any]:
    return {"name": "Claim ladder", "kind": "claim", "time_control": DAYS, "division_size": 4, "season_days": 14,
            "movers": 1, "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(), **over}


def _error(answer, status: int, code: str) -> dict:
    assert answer.status_code == status, answer.content
    error = answer.json()["error"]
    assert error["code"] == code and error["message"], error
    return error


def _create(api, **over):
    answer = api.post("/api/v1/leagues", _terms(**over))
    assert answer.status_code == 201, answer.content
    return answer.json()


def _tick(play) -> dict[str, int]:
    with play.commit():
        return tick_task()  # the beat task itself, inline


def _lose_on_time(user: Any, opponent: Any) -> None:
    """``user`` loses a casual game on time (the clock's real timeout path): their reliability drops."""
    game = games.create_game(user, "claim", {}, 2, opponents=[{"type": "user", "username": opponent.username}],
                             seat=0, time_control=DAYS, seated=True, tournament=True)  # (no vacation)
    by_seat = {0: user, 1: opponent}
    for _ in range(10):
        to_act = set(Seat.objects.filter(game_id=game.pk, to_act=True).values_list("index", flat=True))
        if 0 in to_act:
            break
        view = games.view_for(by_seat[min(to_act)], game.pk)
        games.make_move(by_seat[min(to_act)], game.pk, view["version"], view["legal_moves"][0])
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    game.refresh_from_db()
    assert expire_deadline(game.pk, game.version) == "timeout"


@pytest.fixture(scope="module")
def components() -> Components:
    return Components()


@pytest.fixture
def org(make_api):
    return make_api("org")


# ----------------------------------------------------------------------------------------------- the API

def test_create_read_list_join_leave(org, make_api, components):
    body = _terms(min_reliability=50, rating_max=2000)
    components.check("LeagueCreateRequest", body, "the create request")
    created = org.post("/api/v1/leagues", body)
    assert created.status_code == 201, created.content
    lg = created.json()
    components.check("LeagueDetail", lg, "a new league")
    assert lg["status"] == "open" and lg["member_count"] == 0 and lg["season"] is None and lg["my_membership"] is None
    assert lg["division_size"] == 4 and lg["movers"] == 1 and lg["min_reliability"] == 50 and lg["rated"]
    assert lg["time_control"]["days_per_move"] == 3 and lg["created_by"]["username"] == "org"
    a = make_api("a")
    joined = a.post(f"/api/v1/leagues/{lg['id']}/join").json()
    components.check("LeagueDetail", joined, "a join")
    assert joined["member_count"] == 1 and joined["my_membership"]["division"] is None
    assert [p["username"] for p in joined["waiting"]] == ["a"]
    left = a.post(f"/api/v1/leagues/{lg['id']}/leave").json()  # waiting: gone at once
    assert left["member_count"] == 0 and left["my_membership"] is None and left["waiting"] == []
    page = org.get("/api/v1/leagues").json()
    components.check("LeaguePage", page, "the list")
    assert [r["id"] for r in page["results"]] == [lg["id"]] and page["next"] is None
    assert org.get("/api/v1/leagues", {"status": "open"}).json()["results"][0]["id"] == lg["id"]
    assert org.get("/api/v1/leagues", {"status": "closed"}).json()["results"] == []
    for params, field in (({"status": "done"}, "status"), ({"limit": 0}, "limit"), ({"cursor": "x"}, "cursor")):
        answer = org.get("/api/v1/leagues", params)
        assert answer.status_code == 400 and field in answer.json()["error"]["fields"], answer.content
    _error(org.get("/api/v1/leagues/999999"), 404, "not_found")
    _error(a.post("/api/v1/leagues/999999/join"), 404, "not_found")
    components.check("GameError", org.post("/api/v1/leagues", {**body, "movers": 3}).json(), "a refusal")


def test_create_refusals_and_the_per_player_limit(org, make_api, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "leagues_create": "1000/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    cases = [
        ({"name": ""}, "name"), ({"name": "x" * 61}, "name"), ({"kind": "chess"}, "kind"),
        ({"time_control": {"type": "unlimited"}}, "time_control"), ({"time_control": None}, "time_control"),
        ({"division_size": 3}, "division_size"), ({"division_size": 13}, "division_size"),
        ({"season_days": 6}, "season_days"), ({"season_days": 91}, "season_days"),
        ({"movers": 0}, "movers"), ({"movers": 3}, "movers"),  # divisions of 4: at most 2
        ({"max_members": 3}, "max_members"), ({"max_members": 1001}, "max_members"),
        ({"division_size": 10, "max_members": 8}, "max_members"),
        ({"rating_min": 1800, "rating_max": 1500}, "rating_min"), ({"rating_max": -1}, "rating_max"),
        ({"min_reliability": 101}, "min_reliability"), ({"min_reliability": -1}, "min_reliability"),
        ({"starts_at": None}, "starts_at"), ({"starts_at": "soon"}, "starts_at"),
        ({"starts_at": (timezone.now() - timedelta(hours=1)).isoformat()}, "starts_at"),
        ({"starts_at": (timezone.now() + timedelta(days=91)).isoformat()}, "starts_at"),
        ({"time_control": {"type": "days", "days_per_move": 14}, "season_days": 20}, "season_days"),
        ({"rated": "yes"}, "rated"), ({"colour": "red"}, "colour"), ({"options": [1]}, "options"),
        ({"kind": "claim-mix", "options": {"factions": ["nope"]}}, "options"),
    ]
    for over, field in cases:
        answer = org.post("/api/v1/leagues", _terms(**over))
        assert answer.status_code == 400, (over, answer.content)
        assert field in answer.json()["error"].get("fields", {}), (over, answer.json())
    body = _terms()
    del body["starts_at"]
    assert "starts_at" in org.post("/api/v1/leagues", body).json()["error"]["fields"]
    assert not League.objects.exists()
    _create(org)
    _create(org)
    _error(org.post("/api/v1/leagues", _terms()), 409, "too_many_leagues")
    League.objects.filter(created_by=org.user).update(status="closed")
    _create(org)  # a closed league no longer counts
    staff = make_api("operator", is_staff=True)
    for _ in range(3):
        _create(staff)  # operators: no limit


def test_join_refusals(org, make_api):
    lg = _create(org, division_size=4, max_members=4, rating_min=1400, rating_max=1600, min_reliability=60)
    path = f"/api/v1/leagues/{lg['id']}/join"
    _error(make_api("robot", is_bot=True).post(path), 403, "bots_not_allowed")
    weak = make_api("weak")
    Rating.objects.create(user=weak.user, pool="claim", system="glicko2", rating=1210.0, deviation=60.0)
    error = _error(weak.post(path), 403, "rating_out_of_range")
    assert "1210" in error["message"] and "1400 to 1600" in error["message"]
    flaky = make_api("flaky")
    _lose_on_time(flaky.user, make_user("someone"))
    assert reliability(flaky.user) == 0
    error = _error(flaky.post(path), 403, "reliability_too_low")
    assert "is 0" in error["message"] and "at least 60" in error["message"], error
    members = [make_api(f"m{i}") for i in range(4)]
    assert members[0].post(path).status_code == 200
    _error(members[0].post(path), 409, "already_member")  # twice
    blocker = make_api("blocker")
    Relation.objects.create(user=members[0].user, other=blocker.user, kind=Relation.BLOCK)
    error = _error(blocker.post(path), 403, "blocked")
    assert "m0" not in error["message"]
    for api in members[1:]:
        assert api.post(path).status_code == 200
    _error(make_api("late").post(path), 409, "full")
    _error(make_api("stranger").post(f"/api/v1/leagues/{lg['id']}/leave"), 409, "not_member")
    League.objects.filter(pk=lg["id"]).update(closing=True)
    _error(make_api("x").post(path), 409, "not_open")  # closing
    League.objects.filter(pk=lg["id"]).update(closing=False, status="closed")
    _error(make_api("y").post(path), 409, "not_open")
    reader = make_api("reader", scopes=["games:read"])
    _error(reader.post(path), 403, "insufficient_scope")
    assert reader.get(f"/api/v1/leagues/{lg['id']}").status_code == 200


def test_bots_join_when_allowed_and_reliable_players_pass(org, make_api):
    lg = _create(org, bots_allowed=True, min_reliability=100)
    assert make_api("robot", is_bot=True).post(f"/api/v1/leagues/{lg['id']}/join").status_code == 200
    assert make_api("fresh").post(f"/api/v1/leagues/{lg['id']}/join").status_code == 200  # no games: 100


def test_tournament_min_reliability(org, make_api):
    body = {"name": "Reliable cup", "kind": "claim", "format": "swiss", "rounds": 1, "max_players": 4,
            "time_control": DAYS, "min_reliability": 90}
    created = org.post("/api/v1/tournaments", body)
    assert created.status_code == 201, created.content
    t = created.json()
    assert t["min_reliability"] == 90
    flaky = make_api("flaky")
    _lose_on_time(flaky.user, make_user("someone"))
    error = _error(flaky.post(f"/api/v1/tournaments/{t['id']}/join"), 403, "reliability_too_low")
    assert "Your reliability is 0" in error["message"] and "at least 90" in error["message"], error
    assert make_api("steady").post(f"/api/v1/tournaments/{t['id']}/join").status_code == 200
    for bad in (101, -1, "90", True):
        answer = org.post("/api/v1/tournaments", {**body, "min_reliability": bad})
        assert answer.status_code == 400 and "min_reliability" in answer.json()["error"]["fields"], (bad, answer)
    assert org.post("/api/v1/tournaments", {k: v for k, v in body.items() if k != "min_reliability"}).json()[
        "min_reliability"] == 0


# ----------------------------------------------------------------------------------------------- seasons

def _season(lg_id: int, number: int) -> LeagueSeason:
    return LeagueSeason.objects.get(league_id=lg_id, number=number)


def _divisions(season: LeagueSeason) -> list[LeagueDivision]:
    return list(LeagueDivision.objects.filter(season=season).select_related("tournament").order_by("number"))


def _finishing(season: LeagueSeason) -> list[list[int]]:
    """Each division's final order, read from its tournament's standings."""
    return [[row["user_id"] for row in d.tournament.standings] for d in _divisions(season)]


def test_a_season_cycle_with_a_leaver_and_a_newcomer(play, make_api):
    with time_machine.travel(T0, tick=False) as clock:
        org = play.users(1, "org")[0]
        players = play.users(6)
        by_id = {u.pk: u for u in players}
        with play.commit():
            lg = league.create(org, name="Six", kind="claim", time_control=DAYS, division_size=4, season_days=14,
                               movers=1, starts_at=T0 + timedelta(hours=1))
        for u in players:
            with play.commit():
                league.join(u, lg.pk)
        assert _tick(play)["seasons"] == 0  # not yet
        clock.shift(timedelta(hours=1, minutes=1))
        assert _tick(play)["seasons"] == 1
        lg.refresh_from_db()
        assert lg.status == "running" and lg.current_season == 1
        s1 = _season(lg.pk, 1)
        assert s1.ends_at == T0 + timedelta(hours=1, minutes=1) + timedelta(days=14)
        divs = _divisions(s1)
        assert [d.players for d in divs] == divide([u.pk for u in players], 4, 2)  # equal ratings: entry order
        assert all(d.tournament.status == "running" and d.tournament.format == "round_robin" for d in divs)
        assert [TournamentGame.objects.filter(tournament=d.tournament).count() for d in divs] == [6, 1]
        assert all(d.tournament.rated and d.tournament.created_by_id == org.pk for d in divs)
        assert _tick(play)["seasons"] == 0  # idempotent: nothing more to do
        with play.commit():
            league.advance(lg.pk)
        assert LeagueSeason.objects.filter(league=lg).count() == 1
        newcomer = make_user("newcomer")
        with play.commit():
            league.join(newcomer, lg.pk)
        leaver = divs[0].players[2]
        with play.commit():
            league.leave(by_id[leaver], lg.pk)
        mine = LeagueMember.objects.get(league=lg, user_id=leaver)
        assert mine.left_at is not None and mine.division == 0
        assert Entry.objects.get(tournament=divs[0].tournament, user_id=leaver).withdrawn_at is not None
        assert all(tg.finished for tg in TournamentGame.objects.filter(tournament=divs[0].tournament,
                                                                       players__contains=[leaver]))
        with play.commit():
            league.leave(by_id[leaver], lg.pk)  # twice: nothing more
        rng = random.Random(6)
        for tg in TournamentGame.objects.filter(tournament__league_division__season=s1, finished=False):
            play.finish(tg, rng.choice(["first", "second", "draw"]))
        assert all(d.tournament.status == "finished" for d in _divisions(s1))
        clock.shift(timedelta(minutes=5))
        assert _tick(play)["seasons"] == 2  # season 1 closed, season 2 started (before its end time)
        s1.refresh_from_db()
        assert s1.finished_at is not None
        finished = _finishing(s1)
        expected = next_season(finished, 4, 1, {leaver}, [newcomer.pk], 2)
        s2 = _season(lg.pk, 2)
        assert [d.players for d in _divisions(s2)] == expected
        lg.refresh_from_db()
        assert lg.current_season == 2 and lg.member_count == 6
        assert not LeagueMember.objects.filter(league=lg, user_id=leaver).exists()
        # The top of division 2 went up; the bottom of division 1 went down, unless it was the leaver (dropped: the
        # others of division 1 stay).
        assert finished[1][0] in expected[0]
        if finished[0][-1] == leaver:
            assert set(finished[0][:-1]) <= set(expected[0])
        else:
            assert finished[0][-1] in expected[1]
        detail = play_api_detail(make_api, lg.pk)
        moves = {m["player"]["username"]: m for m in detail["previous_season"]["moves"]}
        assert moves["newcomer"]["movement"] == "entered" and moves["newcomer"]["division"] is None
        assert moves[by_id[leaver].username]["movement"] == "dropped"
        promoted = by_id[finished[1][0]].username
        assert moves[promoted] == {**moves[promoted], "division": 2, "rank": 1, "to": 1, "movement": "promoted"}
        assert {m["movement"] for m in moves.values()} >= {"promoted", "stayed", "entered", "dropped"}
        assert [d["division"] for d in detail["season"]["divisions"]] == [1, 2]
        assert detail["season"]["divisions"][0]["links"]["tournament"] == (
            f"/api/v1/tournaments/{_divisions(s2)[0].tournament_id}")
        # A division's tournament names its league, season and division (the page links back); a tournament of
        # its own names none.
        reader = make_api("reader")
        lower = reader.get(f"/api/v1/tournaments/{_divisions(s2)[1].tournament_id}").json()
        Components().check("TournamentDetail", lower, "a league division's tournament")
        assert lower["league"] == {"id": lg.pk, "name": "Six", "season": 2, "division": 2,
                                   "link": f"/api/v1/leagues/{lg.pk}"}
        # A league tournament is not the creator's: it does not count against their tournaments.
        with play.commit():
            cups = [service.create(org, name=f"Cup {i}", kind="claim", format="swiss", rounds=1, max_players=4,
                                   time_control=DAYS) for i in range(3)]
        assert reader.get(f"/api/v1/tournaments/{cups[0].pk}").json()["league"] is None
        # The list says it too (one query for the page's divisions), for the divisions and for nothing else.
        listed = reader.get("/api/v1/tournaments", {"limit": 50}).json()
        Components().check("TournamentPage", listed, "tournaments with league divisions")
        by_tournament = {r["id"]: r["league"] for r in listed["results"]}
        assert by_tournament[_divisions(s2)[1].tournament_id] == lower["league"]
        assert by_tournament[_divisions(s2)[0].tournament_id]["division"] == 1
        assert by_tournament[cups[0].pk] is None
        # Its notifications name it from the league, the season and the division, in each reader's language.
        lower_id = _divisions(s2)[1].tournament_id
        note = Notification.objects.filter(event="tournament_game", data__tournament_id=lower_id).first()
        assert note is not None
        assert "\u201cSix \u00b7 season 2 \u00b7 division 2\u201d" in note.title
        assert "\u201eSix \u00b7 Saison 2 \u00b7 Liga 2\u201c" in texts.render("de", note.render)[0]
        assert "\u201eSix \u00b7 sez\u00f3na 2 \u00b7 divize 2\u201c" in texts.render("cs", note.render)[0]


def play_api_detail(make_api, league_id: int) -> dict[str, Any]:
    viewer = make_api("viewer")
    answer = viewer.get(f"/api/v1/leagues/{league_id}")
    assert answer.status_code == 200, answer.content
    Components().check("LeagueDetail", answer.json(), "a running league's detail")
    return answer.json()


def test_too_few_members_wait_and_an_operator_closes(play, admin_client):
    with time_machine.travel(T0, tick=False) as clock:
        org = play.users(1, "org")[0]
        lonely = play.users(1, "lonely")[0]
        with play.commit():
            lg = league.create(org, name="Quiet", kind="claim", time_control=DAYS, division_size=4, season_days=14,
                               movers=1, starts_at=T0 + timedelta(hours=1))
            league.join(lonely, lg.pk)
        clock.shift(timedelta(hours=2))
        assert _tick(play)["seasons"] == 0
        with play.commit():
            league.advance(lg.pk)
        lg.refresh_from_db()
        assert lg.status == "open" and lg.current_season == 0  # one member: waits
        second = play.users(1, "second")[0]
        with play.commit():
            league.join(second, lg.pk)
        assert _tick(play)["seasons"] == 1
        lg.refresh_from_db()
        assert lg.status == "running"
        answer = admin_client.post("/admin/tournaments/league/", {"action": "close_leagues",
                                                                  "_selected_action": [lg.pk]})
        assert answer.status_code == 302
        (tg,) = TournamentGame.objects.filter(tournament__league_division__season__league=lg)
        play.finish(tg, "first")
        assert _tick(play)["seasons"] == 2  # the season closed, then the league (no next season)
        lg.refresh_from_db()
        assert lg.status == "closed" and lg.current_season == 1


def test_the_operator_creates_a_league_in_the_admin(admin_client, admin_user):
    starts = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%d %H:%M:%S")
    form = {"name": "Admin ladder", "kind": "claim", "options": "{}", "rated": "on", "division_size": 10,
            "season_days": 28, "movers": 2, "max_members": 100, "min_reliability": 70, "starts_at_0":
            starts[:10], "starts_at_1": starts[11:], "time_control": '{"type": "days", "days_per_move": 3}',
            "members-TOTAL_FORMS": 0, "members-INITIAL_FORMS": 0}
    answer = admin_client.post("/admin/tournaments/league/add/", {**form, "movers": 6})
    assert answer.status_code == 200 and b"movers" in answer.content and not League.objects.exists()
    answer = admin_client.post("/admin/tournaments/league/add/", form)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    lg = League.objects.get()
    assert lg.created_by == admin_user and lg.min_reliability == 70 and lg.days_per_move == 3
    assert admin_client.get(f"/admin/tournaments/league/{lg.pk}/change/").status_code == 200
    assert admin_client.get("/admin/tournaments/leagueseason/").status_code == 200


# ----------------------------------------------------------------------------------------------- 100 players

def test_a_100_player_league_over_two_seasons(play):
    """Ten divisions of ten play a round robin each (450 games a season). Season 1: random results, two players
    leave, one loses two games on time (out), a tenth of the games still run at the season's end (adjudicated by
    the beat), four newcomers join. Season 2 starts from the beat by itself with the divisions of
    ``next_season``; an operator closes the league; season 2 ends early, when its last game ends, and its moves are
    ``next_season``'s; no season 3."""
    rng = random.Random(100)
    with time_machine.travel(T0, tick=False) as clock:
        org = play.users(1, "org")[0]
        players = play.users(100)
        by_id = {u.pk: u for u in players}
        with play.commit():
            lg = league.create(org, name="Hundred", kind="claim", time_control=DAYS, division_size=10,
                               season_days=28, movers=2, rated=False, max_members=200,
                               starts_at=T0 + timedelta(hours=1))
        for u in players:
            league.join(u, lg.pk)
        clock.shift(timedelta(hours=1))
        assert _tick(play)["seasons"] == 1
        s1 = _season(lg.pk, 1)
        divs = _divisions(s1)
        assert [d.players for d in divs] == divide([u.pk for u in players], 10, 5)
        assert len(divs) == 10 and all(TournamentGame.objects.filter(tournament=d.tournament).count() == 45
                                       for d in divs)
        leavers = [divs[0].players[4], divs[9].players[1]]
        late = divs[5].players[3]
        newcomers = play.users(4, "new")
        for u in newcomers:
            league.join(u, lg.pk)
        for uid in leavers:
            with play.commit():
                league.leave(by_id[uid], lg.pk)
        late_games = list(TournamentGame.objects.filter(tournament=divs[5].tournament, players__contains=[late])
                          .order_by("pk")[:2])
        for tg in late_games:
            play.time_out(tg, late)
        assert Entry.objects.get(tournament=divs[5].tournament, user_id=late).withdrawn_at is not None
        running = list(TournamentGame.objects.filter(tournament__league_division__season=s1, finished=False)
                       .order_by("pk"))
        rng.shuffle(running)
        keep = set(tg.pk for tg in running[:45])  # still running at the season's end
        for tg in running:
            if tg.pk not in keep:
                play.finish(tg, rng.choice(["first", "second", "second", "first", "draw"]))
        clock.shift(timedelta(days=27))
        assert _tick(play)["seasons"] == 0  # games run, the season is not over
        clock.move_to(s1.ends_at + timedelta(minutes=1))
        assert _tick(play)["seasons"] == 2  # adjudicated, closed, season 2 started
        assert TournamentGame.objects.filter(pk__in=keep, adjudicated=True).count() == len(keep)
        finished = _finishing(s1)
        out = {late, *leavers}
        expected = next_season(finished, 10, 2, out, [u.pk for u in newcomers], 5)
        s2 = _season(lg.pk, 2)
        assert [d.players for d in _divisions(s2)] == expected
        assert sum(map(len, expected)) == 100 - 3 + 4
        assert all(u.pk in expected[-1] for u in newcomers)
        assert not out & {p for d in expected for p in d}
        for d in range(1, 10):  # the top two of every division but the first went up (the leavers aside)
            assert all(p in expected[d - 1] for p in finished[d][:2] if p not in out)
        for d in range(0, 9):
            assert all(p in expected[d + 1] or p in expected[d] for p in finished[d][-2:] if p not in out)
        lg.refresh_from_db()
        assert lg.member_count == 101 and lg.current_season == 2
        assert LeagueMember.objects.filter(league=lg, division__isnull=False).count() == 101
        # Season 2: an operator closes the league (no season 3); every game ends and the season closes at the next
        # beat, before its end time, its moves those of next_season.
        League.objects.filter(pk=lg.pk).update(closing=True)
        for tg in TournamentGame.objects.filter(tournament__league_division__season=s2).order_by("pk"):
            play.finish(tg, rng.choice(["first", "second", "draw"]))
        clock.shift(timedelta(days=3))
        assert _tick(play)["seasons"] == 2  # the season closed, then the league
        s2.refresh_from_db()
        assert s2.finished_at == timezone.now() < s2.ends_at
        finished = _finishing(s2)
        expected = next_season(finished, 10, 2, (), (), 5)
        to = {p: d for d, players in enumerate(expected) for p in players}
        assert [(m["user_id"], m["division"], m["to"]) for m in s2.moves] == [
            (p, d, to[p]) for d, players in enumerate(finished) for p in players]
        assert dict(LeagueMember.objects.filter(league=lg).values_list("user_id", "position")) == {
            p: i for i, p in enumerate(p for d in expected for p in d)}
        lg.refresh_from_db()
        assert lg.status == "closed" and not LeagueSeason.objects.filter(league=lg, number=3).exists()


# ----------------------------------------------------------------------------------------------- two beats at once

@pytest.mark.django_db(transaction=True)
def test_two_beats_at_once_start_and_close_a_season_once():
    """Real commits, two threads running the beat together: the league's row lock makes the second wait and find
    the work done. Season 1 starts once (one tournament per division); it closes once and season 2 starts once."""
    org = make_user("org")
    players = [make_user(f"c{i}") for i in range(6)]
    lg = league.create(org, name="Race", kind="claim", time_control=DAYS, division_size=4, season_days=14, movers=1,
                       starts_at=timezone.now() + timedelta(hours=1))
    for u in players:
        league.join(u, lg.pk)
    League.objects.filter(pk=lg.pk).update(starts_at=timezone.now() - timedelta(minutes=1))
    errors = _together(league.tick, league.tick)
    assert not errors, errors
    assert LeagueSeason.objects.filter(league=lg).count() == 1
    assert Tournament.objects.count() == 2 and LeagueDivision.objects.filter(tournament__isnull=True).count() == 0
    assert TournamentGame.objects.count() == 6 + 1
    by_id = {u.pk: u for u in players}
    for tg in TournamentGame.objects.all():
        games.resign(by_id[tg.players[1]], tg.game_id)
    assert Tournament.objects.filter(status="finished").count() == 2
    errors = _together(league.tick, league.tick)
    assert not errors, errors
    assert list(LeagueSeason.objects.filter(league=lg).order_by("number").values_list("number", flat=True)) == [1, 2]
    assert LeagueSeason.objects.get(league=lg, number=1).finished_at is not None
    assert Tournament.objects.count() == 4
    lg.refresh_from_db()
    assert lg.current_season == 2 and lg.member_count == 6


def test_memberships_are_in_the_data_export(org):
    from accounts.privacy import Section  # noqa: PLC0415
    from accounts.signals import personal_data_requested  # noqa: PLC0415

    member = make_user("member")
    first = league.create(org.user, **{**_terms(name="First"), "starts_at": timezone.now() + timedelta(hours=1)})
    second = league.create(org.user, **{**_terms(name="Second"), "starts_at": timezone.now() + timedelta(hours=1)})
    league.join(member, first.pk)
    league.join(member, second.pk)
    sections = {s.name: s for _r, found in personal_data_requested.send(sender=None, user=member)
                for s in (found or []) if isinstance(s, Section)}
    rows = sections["league_memberships"].page(member, None, 10)
    assert [(r["id"], r["league"], r["division"]) for r in rows] == [(second.pk, "Second", None),
                                                                     (first.pk, "First", None)]
    assert [r["id"] for r in sections["league_memberships"].page(member, second.pk, 10)] == [first.pk]
