"""Time control in the create-game API (days per move, bank with increment and cap, unlimited), the clock
in the game payload (GET and the move's answer), rematch keeping it, and the move's query budget with a
bank clock. Frozen time (time-machine)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import games.tasks
from games import service
from games.models import Game, GameClock
from tests.service.test_query_budget import MOVE_QUERIES

from .conftest import T0

pytestmark = pytest.mark.django_db

DAY = 86400
BANK = {"type": "bank", "initial_seconds": 3 * DAY, "increment_seconds": DAY, "cap_seconds": int(3.5 * DAY)}


def _iso(dt) -> str:
    return dt.isoformat().replace("+00:00", "Z")


@pytest.fixture
def http(api_client, commit):
    """``http(user, method, path, body)``: the API as ``user``, on-commit hooks (receivers) run."""

    def call(user, method: str, path: str, body: dict | None = None):
        api_client.force_authenticate(user)
        with commit():
            if method == "get":
                return api_client.get(path)
            return api_client.post(path, body or {}, format="json")

    return call


def _bank_game(http, alice, bob, **extra) -> dict:
    r = http(alice, "post", "/api/v1/games", {"kind": "claim", "opponents": [{"type": "user", "username": "bob"}],
                                              "time_control": BANK, "rated": True, **extra})
    assert r.status_code == 201, r.content
    joined = http(bob, "post", f"/api/v1/games/{r.json()['id']}/join")
    assert joined.status_code == 201, joined.content
    return joined.json()


def test_days_per_move_through_time_control(make_user, http, clock):
    alice, _ = make_user("alice"), make_user("bob")
    r = http(alice, "post", "/api/v1/games", {"kind": "claim", "opponents": [{"type": "user", "username": "bob"}],
                                              "time_control": {"type": "days", "days_per_move": 5}, "rated": True})
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["time_control"] == {"type": "correspondence", "days_per_move": 5, "initial_seconds": None,
                                    "increment_seconds": None, "cap_seconds": None, "description": "5 days per move"}
    assert Game.objects.get(pk=body["id"]).days_per_move == 5
    assert not GameClock.objects.filter(game_id=body["id"]).exists()


def test_days_clock_in_payload_shows_the_seat_to_act_running(make_user, http, clock):
    alice, bob = make_user("alice"), make_user("bob")
    r = http(alice, "post", "/api/v1/games", {"kind": "claim", "opponents": [{"type": "user", "username": "bob"}],
                                              "days_per_move": 3})
    body = http(bob, "post", f"/api/v1/games/{r.json()['id']}/join").json()
    deadline = _iso(T0 + timedelta(days=3))
    assert body["deadline"] == deadline and body["clock"]["deadline"] == deadline
    acting = body["to_act"]
    assert [s["running"] for s in body["clock"]["seats"]] == [i in acting for i in range(2)]
    assert [s["deadline"] for s in body["clock"]["seats"]] == [deadline if i in acting else None for i in range(2)]
    assert body["clock"]["paused"] is False and body["clock"]["pause_requests"] == []


def test_bank_clock_created_shown_and_kept_after_a_move(make_user, http, clock):
    alice, bob = make_user("alice"), make_user("bob")
    users = {0: alice, 1: bob}
    body = _bank_game(http, alice, bob)
    gid = body["id"]
    assert body["time_control"] == {"type": "bank", "days_per_move": None, "initial_seconds": 3 * DAY,
                                    "increment_seconds": DAY, "cap_seconds": int(3.5 * DAY),
                                    "description": "3 days + 1 day per move (at most 84 hours)"}
    cl = GameClock.objects.get(game_id=gid)
    assert (cl.control, cl.initial_seconds, cl.increment_seconds, cl.cap_seconds) == ("bank", 3 * DAY, DAY,
                                                                                      int(3.5 * DAY))
    (first,) = body["to_act"]
    other = 1 - first
    seats = body["clock"]["seats"]
    assert seats[first] == {"index": first, "running": True, "deadline": _iso(T0 + timedelta(days=3)),
                            "left_seconds": None, "vacation": None}
    assert seats[other] == {"index": other, "running": False, "deadline": None, "left_seconds": 3 * DAY,
                            "vacation": None}
    assert body["deadline"] == _iso(T0 + timedelta(days=3))
    assert Game.objects.get(pk=gid).deadline == T0 + timedelta(days=3)  # the receiver stored it

    clock.shift(timedelta(hours=6))
    mover = users[first]
    view = http(mover, "get", f"/api/v1/games/{gid}").json()
    answer = http(mover, "post", f"/api/v1/games/{gid}/moves",
                  {"version": view["version"], "move": view["legal_moves"][0]})
    assert answer.status_code == 201, answer.content
    moved = answer.json()
    now = T0 + timedelta(hours=6)
    # The mover: 3 d - 6 h + 1 d = 3.75 d, capped at 3.5 d. The next seat (if it is the other's turn) runs.
    expected_mover = {"index": first, "running": False, "deadline": None, "left_seconds": int(3.5 * DAY),
                      "vacation": None}
    assert moved["to_act"] == [other]  # Claim: the other seat answers the lead
    assert moved["clock"]["seats"][first] == expected_mover
    assert moved["clock"]["seats"][other] == {"index": other, "running": True, "left_seconds": None,
                                              "deadline": _iso(now + timedelta(days=3)), "vacation": None}
    assert moved["deadline"] == _iso(now + timedelta(days=3))
    # The answer (built before the receiver ran, from the snapshot + the move) equals a fresh read after it.
    again = http(mover, "get", f"/api/v1/games/{gid}").json()
    assert again["clock"] == moved["clock"] and again["deadline"] == moved["deadline"]
    cl.refresh_from_db()
    assert cl.synced_version == again["version"]
    assert _iso(Game.objects.get(pk=gid).deadline) == again["deadline"]
    # The clock endpoint agrees.
    c = http(mover, "get", f"/api/v1/games/{gid}/clock").json()
    assert c["control"] == "bank" and c["seats"] == again["clock"]["seats"]


def test_paused_bank_clock_shows_frozen_time(make_user, http, clock):
    alice, bob = make_user("alice"), make_user("bob")
    body = _bank_game(http, alice, bob)
    gid, (first,) = body["id"], body["to_act"]
    clock.shift(timedelta(hours=10))
    http(alice, "post", f"/api/v1/games/{gid}/clock/pause")
    paused = http(bob, "post", f"/api/v1/games/{gid}/clock/pause").json()
    assert paused["paused"] is True
    clock.shift(timedelta(days=2))
    view = http(alice, "get", f"/api/v1/games/{gid}").json()
    assert view["clock"]["paused"] is True and view["deadline"] is None
    assert view["clock"]["seats"][first] == {"index": first, "running": False, "deadline": None,
                                             "left_seconds": 3 * DAY - 10 * 3600, "vacation": None}


@pytest.mark.parametrize(("body", "field", "words"), [
    ({"time_control": {"type": "days", "days_per_move": 4}}, "time_control", "must be one of [1, 2, 3, 5, 7, 14]"),
    ({"time_control": {"type": "days"}}, "time_control", "must be one of"),
    ({"time_control": {"type": "hourglass"}}, "time_control", 'must be "days", "bank" or "unlimited"'),
    ({"time_control": {"type": "bank"}}, "time_control", "initial_seconds is required"),
    ({"time_control": {"type": "bank", "initial_seconds": 60}}, "time_control", "between 3600 and"),
    ({"time_control": {"type": "bank", "initial_seconds": 3 * DAY, "cap_seconds": DAY}}, "time_control",
     "cannot be below initial_seconds"),
    ({"time_control": {"type": "bank", "initial_seconds": 3 * DAY, "increment_seconds": -1}}, "time_control",
     "between 0 and"),
    ({"time_control": {"type": "bank", "initial_seconds": "3d"}}, "time_control", "whole number of seconds"),
    ({"time_control": {"type": "unlimited", "days_per_move": 3}}, "time_control", "does not take days_per_move"),
    ({"time_control": "3 days"}, "time_control", "must be an object"),
    ({"time_control": {"type": "days", "days_per_move": 3}, "days_per_move": 5}, "days_per_move", "not both"),
])
def test_bad_time_controls_are_refused_with_a_clear_400(make_user, http, body, field, words):
    alice = make_user("alice")
    r = http(alice, "post", "/api/v1/games", {"kind": "claim", **body})
    assert r.status_code == 400, r.content
    err = r.json()["error"]
    assert err["code"] == "invalid"
    assert words in " ".join(err["fields"][field]), err
    assert not Game.objects.exists()


@pytest.mark.parametrize("control", [{}, {"time_control": {"type": "unlimited"}}, {"days_per_move": None}])
def test_rated_unlimited_is_refused(make_user, http, control):
    alice, _ = make_user("alice"), make_user("bob")
    body = {"kind": "claim", "opponents": [{"type": "user", "username": "bob"}], "rated": True, **control}
    r = http(alice, "post", "/api/v1/games", body)
    assert r.status_code == 400, r.content
    err = r.json()["error"]
    assert err["code"] == "unlimited_rated" and "never rated" in err["message"]
    assert err["fields"] == {"rated": [err["message"]]}
    casual = http(alice, "post", "/api/v1/games", {**body, "rated": False})
    assert casual.status_code == 201
    assert casual.json()["time_control"]["type"] == "unlimited"
    assert casual.json()["clock"]["deadline"] is None


def test_rematch_keeps_the_bank_clock(make_user, http, clock):
    alice, bob = make_user("alice"), make_user("bob")
    gid = _bank_game(http, alice, bob)["id"]
    assert http(alice, "post", f"/api/v1/games/{gid}/resign").status_code == 200
    offer = http(bob, "post", f"/api/v1/games/{gid}/rematch")  # an offer to alice (a challenge): 202
    assert offer.status_code == 202, offer.content
    r = http(alice, "post", f"/api/v1/games/{gid}/rematch")  # alice accepts it: the new game
    assert r.status_code == 200, r.content
    new = r.json()
    assert new["rematch_of"] == gid and new["rated"] is True
    assert new["time_control"]["type"] == "bank" and new["time_control"]["cap_seconds"] == int(3.5 * DAY)
    cl = GameClock.objects.get(game_id=new["id"])
    assert (cl.initial_seconds, cl.increment_seconds, cl.cap_seconds) == (3 * DAY, DAY, int(3.5 * DAY))


def test_service_rematch_of_days_game_keeps_days(make_user, play):
    alice, bob = make_user("alice"), make_user("bob")
    game = play.resign(alice, play.game(alice, bob, days=14))
    new, created = service.rematch(bob, game.pk)
    assert created and new.days_per_move == 14 and new.rated


def test_a_move_with_a_bank_clock_stays_within_the_query_budget(make_user, http, clock,
                                                                django_assert_max_num_queries, monkeypatch):
    """The clock comes with the locked game row and the answer extends the bank snapshot in memory."""
    alice, bob = make_user("alice"), make_user("bob")
    body = _bank_game(http, alice, bob)
    gid = body["id"]
    mover = alice if body["to_act"] == [0] else bob
    view = http(mover, "get", f"/api/v1/games/{gid}").json()
    monkeypatch.setattr(games.tasks, "send_game_changed", lambda *args: None)  # the receivers run elsewhere
    with django_assert_max_num_queries(MOVE_QUERIES + 2 - 1):  # + SAVEPOINT/RELEASE, - the token (forced auth)
        r = http(mover, "post", f"/api/v1/games/{gid}/moves", {"version": view["version"],
                                                               "move": view["legal_moves"][0]})
    assert r.status_code == 201, r.content
    assert r.json()["clock"]["seats"][view["my_seat"]]["running"] is False


def test_seeks_with_a_bank_clock_pair_only_with_the_same_clock(make_user, http, clock):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    mine = http(alice, "post", "/api/v1/seeks", {"kind": "claim", "time_control": BANK, "rated": True})
    assert mine.status_code == 201, mine.content
    assert mine.json()["game_id"] is None and mine.json()["time_control"]["type"] == "bank"
    days = http(bob, "post", "/api/v1/seeks", {"kind": "claim", "days_per_move": 3, "rated": True})
    assert days.json()["game_id"] is None, "a days-per-move seek never pairs with a bank seek"
    other_bank = {**BANK, "cap_seconds": 4 * DAY}
    near = http(bob, "post", "/api/v1/seeks", {"kind": "claim", "time_control": other_bank, "rated": True})
    assert near.status_code == 201 and near.json()["game_id"] is None, "another cap is another time control"
    paired = http(carol, "post", "/api/v1/seeks", {"kind": "claim", "time_control": BANK, "rated": True}).json()
    assert paired["game_id"] is not None
    cl = GameClock.objects.get(game_id=paired["game_id"])
    assert (cl.control, cl.initial_seconds, cl.increment_seconds, cl.cap_seconds) == ("bank", 3 * DAY, DAY,
                                                                                      int(3.5 * DAY))
    game = Game.objects.get(pk=paired["game_id"])
    assert game.rated and game.days_per_move is None and set(game.seats.values_list("user__username", flat=True)) == {
        "alice", "carol"}


def test_seek_refuses_rated_unlimited_and_bad_clocks(make_user, http):
    alice = make_user("alice")
    r = http(alice, "post", "/api/v1/seeks", {"kind": "claim", "time_control": {"type": "unlimited"}, "rated": True})
    assert r.status_code == 400 and "never rated" in " ".join(r.json()["error"]["fields"]["rated"])
    r = http(alice, "post", "/api/v1/seeks", {"kind": "claim", "time_control": {"type": "bank"}})
    assert r.status_code == 400
    assert "initial_seconds is required" in " ".join(r.json()["error"]["fields"]["time_control"])


def test_inbox_list_items_carry_the_time_control_description_and_deadline(make_user, http, clock):
    """The inbox rows (GET /games) say the time control in words and the deadline, without the per-seat clock,
    and listing more bank games costs no more queries (the clock comes with the game row)."""
    alice, bob = make_user("alice"), make_user("bob")
    bank = _bank_game(http, alice, bob)
    days = http(alice, "post", "/api/v1/games", {"kind": "claim", "opponents": [{"type": "user", "username": "bob"}],
                                                 "time_control": {"type": "days", "days_per_move": 5}}).json()
    http(bob, "post", f"/api/v1/games/{days['id']}/join")

    with CaptureQueriesContext(connection) as few:
        r = http(alice, "get", "/api/v1/games?status=active")
    assert r.status_code == 200, r.content
    rows = {row["id"]: row for row in r.json()["results"]}
    assert set(rows) == {bank["id"], days["id"]}
    assert rows[bank["id"]]["time_control"] == {"type": "bank", "days_per_move": None, "initial_seconds": 3 * DAY,
                                                "increment_seconds": DAY, "cap_seconds": int(3.5 * DAY),
                                                "description": "3 days + 1 day per move (at most 84 hours)"}
    assert rows[bank["id"]]["deadline"] == _iso(T0 + timedelta(days=3))
    assert rows[days["id"]]["time_control"]["description"] == "5 days per move"
    assert rows[days["id"]]["deadline"] == _iso(T0 + timedelta(days=5))
    assert "clock" not in rows[bank["id"]]

    for _ in range(3):
        _bank_game(http, alice, bob)
    with CaptureQueriesContext(connection) as more:
        r = http(alice, "get", "/api/v1/games?status=active")
    assert len(r.json()["results"]) == 5
    assert {row["time_control"]["description"] for row in r.json()["results"]} == {
        "3 days + 1 day per move (at most 84 hours)", "5 days per move"}
    assert len(more.captured_queries) == len(few.captured_queries)
