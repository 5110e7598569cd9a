"""``/api/v1/tournaments`` (issue 36): every refusal is a 4xx with a code and a message a person can act on, the
list is keyset-paged, the detail carries the standings, the crosstable and your entry."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Relation
from games.ratings.models import Rating
from games.tournaments import service
from games.tournaments.models import Tournament, TournamentGame

from .conftest import DAYS

pytestmark = pytest.mark.django_db

SWISS = {"name": "Winter Swiss", "kind": "claim", "format": "swiss", "rounds": 3, "max_players": 4,
         "time_control": DAYS}


@pytest.fixture
def org(make_api):
    return make_api("org")


@pytest.fixture
def four(make_api):
    return [make_api(f"a{i}") for i in range(4)]


def _error(answer, status: int, code: str) -> dict:
    assert answer.status_code == status, answer.content
    error = answer.json()["error"]
    assert error["code"] == code and error["message"], error
    return error


def _create(api, **terms):
    answer = api.post("/api/v1/tournaments", {**SWISS, **terms})
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_create_read_join_start_and_games(org, four):
    t = _create(org, rated=True)
    assert t["status"] == "open" and t["player_count"] == 0 and t["my_entry"] is None and t["standings"] == []
    assert t["time_control"]["days_per_move"] == 3 and t["created_by"]["username"] == "org"
    assert t["tiebreak_names"] == ["buchholz", "sonneborn_berger", "wins"]
    for i, api in enumerate(four):
        answer = api.post(f"/api/v1/tournaments/{t['id']}/join")
        assert answer.status_code == 200, answer.content
        body = answer.json()
        assert body["my_entry"]["player"]["username"] == f"a{i}"
    again = four[0].post(f"/api/v1/tournaments/{t['id']}/join")  # entering twice changes nothing
    assert again.status_code == 200
    detail = four[0].get(f"/api/v1/tournaments/{t['id']}").json()
    assert detail["status"] == "running" and detail["current_round"] == 1 and detail["player_count"] == 4
    assert [p["seed"] for p in detail["players"]] == [1, 2, 3, 4]
    assert len(detail["standings"]) == 4 and detail["my_entry"]["seed"] is not None
    games = four[0].get(f"/api/v1/tournaments/{t['id']}/games").json()
    assert games["round"] == 1 and len(games["results"]) == 2
    assert all(g["status"] == "active" and len(g["players"]) == 2 for g in games["results"])
    assert four[0].get(f"/api/v1/tournaments/{t['id']}/games", {"round": 2}).json()["results"] == []
    # A player resigns: the standings move, the crosstable shows the game.
    game = games["results"][0]
    loser = next(a for a in four if a.user.username == game["players"][1]["username"])
    assert loser.post(f"/api/v1/games/{game['game_id']}/resign").status_code == 200
    detail = four[0].get(f"/api/v1/tournaments/{t['id']}").json()
    assert detail["standings"][0]["score"] == 1.0 and detail["standings"][0]["player"] == game["players"][0]
    assert {"player": game["players"][0]["username"], "opponent": game["players"][1]["username"],
            "points": [1.0]} in detail["crosstable"]


def test_create_refusals(org, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "tournaments_create": "1000/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    cases = [
        ({"name": ""}, "name"), ({"name": "x" * 81}, "name"), ({"kind": "chess"}, "kind"),
        ({"format": "knockout"}, "format"), ({"format": "tables"}, "format"),  # Claim is a 2-player game
        ({"rounds": None}, "rounds"), ({"rounds": 4}, "rounds"),  # 4 players: at most 3 rounds
        ({"format": "round_robin"}, "rounds"),  # a round robin takes no rounds
        ({"time_control": {"type": "unlimited"}}, "time_control"), ({"time_control": None}, "time_control"),
        ({"time_control": {"type": "days", "days_per_move": 4}}, "time_control"),
        ({"max_players": 1}, "max_players"), ({"max_players": 300}, "max_players"),
        ({"format": "round_robin", "rounds": None, "max_players": 21}, "max_players"),
        ({"min_players": 5}, "min_players"), ({"rating_min": 1800, "rating_max": 1500}, "rating_min"),
        ({"rating_max": -1}, "rating_max"),
        ({"starts_at": (timezone.now() - timedelta(hours=1)).isoformat()}, "starts_at"),
        ({"starts_at": (timezone.now() + timedelta(days=91)).isoformat()}, "starts_at"),
        ({"starts_at": "soon"}, "starts_at"),
        ({"max_game_days": 3}, "max_game_days"),
        ({"time_control": {"type": "days", "days_per_move": 14}, "max_game_days": 20}, "max_game_days"),
        ({"rated": "yes"}, "rated"), ({"bots_allowed": 1}, "bots_allowed"), ({"colour": "red"}, "colour"),
        ({"kind": "claim-mix", "options": {"factions": ["nope"]}}, "options"), ({"options": [1]}, "options"),
    ]
    for terms, field in cases:
        answer = org.post("/api/v1/tournaments", {**SWISS, **terms})
        assert answer.status_code == 400, (terms, answer.content)
        error = answer.json()["error"]
        assert field in error.get("fields", {}), (terms, error)
    assert org.post("/api/v1/tournaments", [1, 2]).status_code == 400
    assert not Tournament.objects.exists()


def test_tables_need_a_kind_for_three_or_four(org):
    t = _create(org, kind="inheritors", format="tables", rounds=2, max_players=8)
    assert t["format"] == "tables" and t["tiebreak_names"] == ["first_places", "opponents_points"]
    _error(org.post("/api/v1/tournaments", {**SWISS, "format": "tables", "max_players": 2}), 400, "invalid")


def test_three_not_finished_per_creator_then_409(org):
    for _ in range(3):
        _create(org)
    _error(org.post("/api/v1/tournaments", SWISS), 409, "too_many_tournaments")
    first = Tournament.objects.order_by("pk").first()
    assert org.post(f"/api/v1/tournaments/{first.pk}/cancel").status_code == 200
    _create(org)  # a cancelled one no longer counts


def test_create_is_throttled(org, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "tournaments_create": "2/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    _create(org)
    _create(org)
    answer = org.post("/api/v1/tournaments", SWISS)
    assert answer.status_code == 429, answer.content
    assert org.get("/api/v1/tournaments").status_code == 200  # reading is not creating


def test_unauthenticated_and_scopes(org, make_api):
    t = _create(org)
    anonymous = APIClient()
    assert anonymous.get("/api/v1/tournaments").status_code == 401
    assert anonymous.post("/api/v1/tournaments", SWISS, format="json").status_code == 401
    assert anonymous.post(f"/api/v1/tournaments/{t['id']}/join", {}, format="json").status_code == 401
    reader = make_api("reader", scopes=["games:read"])
    assert reader.get(f"/api/v1/tournaments/{t['id']}").status_code == 200
    _error(reader.post(f"/api/v1/tournaments/{t['id']}/join"), 403, "insufficient_scope")


def test_join_refusals(org, make_api, four):
    _error(four[0].post("/api/v1/tournaments/999999/join"), 404, "not_found")
    _error(four[0].get("/api/v1/tournaments/999999"), 404, "not_found")
    assert four[0].get("/api/v1/tournaments/0").status_code == 404
    t = _create(org, max_players=4, rating_min=1400, rating_max=1600,
                starts_at=(timezone.now() + timedelta(days=1)).isoformat())
    path = f"/api/v1/tournaments/{t['id']}/join"
    bot = make_api("robot", is_bot=True)
    _error(bot.post(path), 403, "bots_not_allowed")
    weak = make_api("weak")
    Rating.objects.create(user=weak.user, pool="claim", system="glicko2", rating=1210.0, deviation=60.0)
    error = _error(weak.post(path), 403, "rating_out_of_range")
    assert "1210" in error["message"] and "1400 to 1600" in error["message"]
    assert four[0].post(path).status_code == 200
    blocker = make_api("blocker")
    Relation.objects.create(user=four[0].user, other=blocker.user, kind=Relation.BLOCK)
    error = _error(blocker.post(path), 403, "blocked")
    assert "a0" not in error["message"]  # names nobody
    for api in four[1:]:
        assert api.post(path).status_code == 200
    _error(make_api("late").post(path), 409, "full")
    assert Tournament.objects.get(pk=t["id"]).status == "open"  # a start time: full does not start it
    with org._capture(execute=True):
        service.start(t["id"])
    _error(make_api("later").post(path), 409, "not_open")


def test_leave_before_and_withdraw_after_the_start(org, four, make_api):
    t = _create(org, max_players=4)
    base = f"/api/v1/tournaments/{t['id']}"
    _error(four[0].post(f"{base}/leave"), 409, "not_entered")
    assert four[0].post(f"{base}/join").json()["player_count"] == 1
    left = four[0].post(f"{base}/leave").json()
    assert left["player_count"] == 0 and left["my_entry"] is None
    for api in four:
        assert api.post(f"{base}/join").status_code == 200
    assert four[0].get(base).json()["status"] == "running"
    out = four[0].post(f"{base}/leave").json()  # withdraws: the running game is resigned
    assert out["my_entry"]["withdrawn_at"] is not None
    mine = TournamentGame.objects.get(tournament_id=t["id"], players__contains=[four[0].user.pk])
    assert mine.finished and mine.places[mine.players.index(four[0].user.pk)] == 2
    assert four[0].post(f"{base}/leave").status_code == 200  # twice: nothing more
    _error(four[0].post(f"{base}/join"), 409, "withdrawn")
    _error(make_api("latecomer").post(f"{base}/join"), 409, "not_open")
    Tournament.objects.filter(pk=t["id"]).update(status="finished")
    _error(four[1].post(f"{base}/leave"), 409, "not_running")


def test_cancel_refusals(org, four):
    t = _create(org, max_players=4)
    base = f"/api/v1/tournaments/{t['id']}"
    _error(four[0].post(f"{base}/cancel"), 403, "not_creator")
    for api in four:
        api.post(f"{base}/join")
    _error(org.post(f"{base}/cancel"), 409, "not_open")


def test_list_keyset_pages_and_filters(org, make_api):
    other = make_api("other")
    ids = [_create(org)["id"] for _ in range(3)] + [_create(other)["id"] for _ in range(2)]
    Tournament.objects.filter(pk=ids[1]).update(featured=True)
    Tournament.objects.filter(pk=ids[0]).update(status="finished")
    page = org.get("/api/v1/tournaments", {"limit": 2}).json()
    assert [r["id"] for r in page["results"]] == ids[::-1][:2] and page["next"] == ids[3]
    page = org.get("/api/v1/tournaments", {"limit": 2, "cursor": page["next"]}).json()
    assert [r["id"] for r in page["results"]] == [ids[2], ids[1]]
    page = org.get("/api/v1/tournaments", {"limit": 2, "cursor": page["next"]}).json()
    assert [r["id"] for r in page["results"]] == [ids[0]] and page["next"] is None
    assert [r["id"] for r in org.get("/api/v1/tournaments", {"status": "finished"}).json()["results"]] == [ids[0]]
    assert [r["id"] for r in org.get("/api/v1/tournaments", {"featured": "true"}).json()["results"]] == [ids[1]]
    for params, field in (({"status": "done"}, "status"), ({"limit": 0}, "limit"), ({"limit": 101}, "limit"),
                          ({"limit": "x"}, "limit"), ({"cursor": "abc"}, "cursor"), ({"cursor": 0}, "cursor"),
                          ({"featured": "yes"}, "featured")):
        answer = org.get("/api/v1/tournaments", params)
        assert answer.status_code == 400, (params, answer.content)
        assert field in answer.json()["error"]["fields"], answer.json()


def test_games_refusals(org):
    t = _create(org)
    for bad in ("x", "0", "21", "-1"):
        answer = org.get(f"/api/v1/tournaments/{t['id']}/games", {"round": bad})
        assert answer.status_code == 400 and "round" in answer.json()["error"]["fields"], answer.content
    _error(org.get("/api/v1/tournaments/999999/games"), 404, "not_found")
    assert org.get(f"/api/v1/tournaments/{t['id']}/games").json() == {"round": None, "results": []}


def test_the_operator_features_in_the_admin(admin_client, org):
    t = _create(org)
    answer = admin_client.get("/admin/tournaments/tournament/")
    assert answer.status_code == 200 and b"Winter Swiss" in answer.content
    answer = admin_client.post("/admin/tournaments/tournament/", {"action": "feature", "_selected_action": [t["id"]]})
    assert answer.status_code == 302
    assert Tournament.objects.get(pk=t["id"]).featured
