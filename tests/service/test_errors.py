"""Every error path of the game endpoints, in the one error shape ``{"error": {"code", "message", ...}}``."""

from __future__ import annotations

import pytest
from rest_framework.throttling import ScopedRateThrottle

from accounts.models import ApiToken
from games.models import Game, Move
from games.rules.base import IllegalMove
from games.rules.registry import get_rules

from .conftest import Api, play_human_vs_human

pytestmark = pytest.mark.django_db


def started(alice: Api, bob: Api, kind: str = "claim") -> tuple[int, Api, Api, dict]:
    """A started human game; returns (id, player to act, the other, the mover's view)."""
    gid = alice.create(kind=kind, opponents=[{"type": "user", "username": bob.user.username}])["id"]
    assert bob.post(f"/api/v1/games/{gid}/join").status_code == 201
    view = alice.view(gid)
    mover, other = (alice, bob) if view["to_act"] == [0] else (bob, alice)
    return gid, mover, other, mover.view(gid)


def err(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    assert body["error"]["message"]
    return body["error"]


def test_stale_version_409_carries_the_current_view(alice, bob):
    gid, mover, other, view = started(alice, bob)
    assert mover.move(gid, view["version"], view["legal_moves"][0]).status_code == 201
    # the other player moves against the version before that move
    other_view = other.view(gid)
    e = err(other.move(gid, view["version"], other_view["legal_moves"][0]), 409, "stale_version")
    assert e["view"] == other.view(gid) and e["view"]["version"] == view["version"] + 1
    assert e["view"]["my_seat"] == other_view["my_seat"]
    assert str(view["version"]) in e["message"]


def test_not_your_turn_409(alice, bob):
    gid, _mover, other, view = started(alice, bob)
    e = err(other.move(gid, view["version"], {"play": "goblin-0"}), 409, "not_your_turn")
    assert "not your turn" in e["message"]
    assert "view" not in e


def test_illegal_move_400_with_the_engines_message(alice, bob):
    gid, mover, _other, view = started(alice, bob)
    rules = get_rules("claim")
    state = rules.from_json(Game.objects.get(pk=gid).state)
    hand = set(view["view"]["hand"])
    not_held = next(c for c in ("knight-9", "knight-8", "dwarf-9", "undead-9", "dwarf-8", "undead-8")
                    if c not in hand)
    with pytest.raises(IllegalMove) as engine:
        rules.apply(state, view["my_seat"], {"play": not_held})
    e = err(mover.move(gid, view["version"], {"play": not_held}), 400, "illegal_move")
    assert e["message"] == str(engine.value) and "don't hold" in e["message"]
    assert e["legal_moves"] == view["legal_moves"]
    # nonsense inside a well-formed body: the engine's words, never a 500
    for bad in ({"play": "joker-1"}, {"play": ["knight-7"]}, {"play": {"x": 1}}, {"dance": True},
                {"play": "knight-7", "also": 1}, {"seer": "top"}):
        e = err(mover.move(gid, view["version"], bad), 400, "illegal_move")
    assert Move.objects.filter(game_id=gid).count() == 0


def test_must_follow_message_comes_from_the_engine(alice, bob):
    gid, mover, other, view = started(alice, bob)
    rules = get_rules("claim")
    # play until the follower holds a card they may not play
    for _ in range(40):
        assert mover.move(gid, view["version"], view["legal_moves"][0]).status_code == 201
        view = other.view(gid)
        if view["my_turn"] or view["status"] != "active":  # the trick's winner leads the next one (C4.5)
            mover, other = other, mover
        else:
            view = mover.view(gid)
        if view["status"] != "active":
            pytest.skip("no must-follow situation in this deal")
        illegal = sorted(set(view["view"]["hand"]) - {m["play"] for m in view["legal_moves"]})
        if illegal and view["view"]["current_trick"]:
            break
    else:
        pytest.skip("no must-follow situation in this deal")
    state = rules.from_json(Game.objects.get(pk=gid).state)
    with pytest.raises(IllegalMove) as engine:
        rules.apply(state, view["my_seat"], {"play": illegal[0]})
    e = err(mover.move(gid, view["version"], {"play": illegal[0]}), 400, "illegal_move")
    assert e["message"] == str(engine.value) and e["message"].startswith("you must follow")


def test_malformed_bodies_400_with_field_messages(alice, bob):
    gid, mover, _other, view = started(alice, bob)
    path = f"/api/v1/games/{gid}/moves"
    e = err(mover.post(path, {}), 400, "invalid")
    assert set(e["fields"]) == {"version", "move"}
    e = err(mover.post(path, {"version": "abc", "move": {"play": "x"}}), 400, "invalid")
    assert "version" in e["fields"]
    e = err(mover.post(path, {"version": -1, "move": {"play": "x"}}), 400, "invalid")
    assert "version" in e["fields"]
    e = err(mover.post(path, {"version": True, "move": {"play": "x"}}), 400, "invalid")
    for bad_move in ("knight-7", ["knight-7"], 7, None, {}):
        e = err(mover.post(path, {"version": view["version"], "move": bad_move}), 400, "invalid")
        assert "move" in e["fields"], bad_move
    e = err(mover.post(path, {"version": view["version"], "move": {"play": "x" * 3000}}), 400, "invalid")
    e = err(mover.post(path, {"version": view["version"], "move": {"play": "k"}, "client_id": "x" * 65}),
            400, "invalid")
    assert "client_id" in e["fields"]
    # broken JSON and a JSON array body
    err(mover.post(path, "{not json", content_type="application/json"), 400, "parse_error")
    e = err(mover.post(path, "[1, 2]", content_type="application/json"), 400, "invalid")
    assert Move.objects.filter(game_id=gid).count() == 0


def test_not_seated_403_and_private_games_404(alice, bob, stranger):
    gid, _mover, _other, view = started(alice, bob)
    # a stranger learns nothing about an active game: 404 everywhere
    for path in (f"/api/v1/games/{gid}", f"/api/v1/games/{gid}/history", f"/api/v1/games/{gid}/record",
                 f"/api/v1/games/{gid}/replay"):
        err(stranger.get(path), 404, "not_found")
    for action in ("moves", "resign", "abort", "rematch", "join"):
        body = {"version": view["version"], "move": view["legal_moves"][0]} if action == "moves" else {}
        err(stranger.post(f"/api/v1/games/{gid}/{action}", body), 404, "not_found")
    # once the game is finished it is public, but a stranger is not seated in it: 403
    play_human_vs_human(alice, bob, gid)
    game = Game.objects.get(pk=gid)
    e = err(stranger.move(gid, game.version, {"play": "goblin-0"}), 403, "not_seated")
    assert "not seated" in e["message"]
    err(stranger.post(f"/api/v1/games/{gid}/resign"), 403, "not_seated")
    # the players themselves get 409: the game is over
    err(alice.move(gid, game.version, {"play": "goblin-0"}), 409, "not_active")


def test_invited_but_not_joined_403(alice, bob):
    gid = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])["id"]
    assert bob.view(gid)["status"] == "open"  # an invitee may look
    err(bob.move(gid, 1, {"play": "goblin-0"}), 403, "not_joined")
    err(alice.move(gid, 1, {"play": "goblin-0"}), 409, "not_active")


def test_unknown_game_404_everywhere(alice):
    for path in ("/api/v1/games/999999", "/api/v1/games/999999/history", "/api/v1/games/999999/record",
                 "/api/v1/games/999999/replay"):
        err(alice.get(path), 404, "not_found")
    for action in ("moves", "resign", "abort", "rematch", "join"):
        body = {"version": 1, "move": {"play": "goblin-0"}} if action == "moves" else {}
        err(alice.post(f"/api/v1/games/999999/{action}", body), 404, "not_found")
    err(alice.post("/api/v1/games/join", {"code": "no-such-code"}), 404, "not_found")


def test_record_and_replay_before_the_end_409(alice, bob):
    gid, _mover, _other, _view = started(alice, bob)
    e = err(alice.get(f"/api/v1/games/{gid}/record"), 409, "not_finished")
    assert e["message"] == "The record is published when the game ends."
    err(alice.get(f"/api/v1/games/{gid}/replay", {"step": 1}), 409, "not_finished")
    # an aborted game that was dealt has a record, its result says so (issue 26: self-contained records)
    assert alice.post(f"/api/v1/games/{gid}/abort").status_code == 200
    assert bob.post(f"/api/v1/games/{gid}/abort").json()["status"] == "aborted"
    record = alice.get(f"/api/v1/games/{gid}/record").json()
    assert record["record"]["result"] == {"winner": None, "winners": [], "reason": "aborted"}
    assert record["record"]["ended_reason"] == "aborted"
    # one aborted while still open (never dealt) has none
    open_gid = alice.create(kind="claim", opponents=[{"type": "open"}])["id"]
    assert alice.post(f"/api/v1/games/{open_gid}/abort").json()["status"] == "aborted"
    err(alice.get(f"/api/v1/games/{open_gid}/record"), 409, "no_record")


def test_query_parameters_are_validated(alice):
    gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
    err(alice.get(f"/api/v1/games/{gid}/history", {"from_version": "x"}), 400, "invalid")
    err(alice.get(f"/api/v1/games/{gid}/history", {"from_version": "-2"}), 400, "invalid")
    err(alice.get("/api/v1/games", {"status": "running"}), 400, "invalid")


@pytest.mark.parametrize(("body", "field", "code", "needle"), [
    ({"kind": "chess"}, "kind", "invalid", "unknown game kind"),
    ({}, "kind", "invalid", "required"),
    ({"kind": "claim-mix"}, "options", "invalid_options", "claim-mix needs the option"),
    ({"kind": "claim-mix", "options": {"factions": ["knight", "goblin", "gnome", "giant", "seer"]}}, "options",
     "invalid_options", "exactly one pair"),
    ({"kind": "claim", "options": {"colour": "red"}}, "options", "invalid_options", "unknown option"),
    ({"kind": "claim", "options": [1]}, "options", "invalid", "JSON object"),
    ({"kind": "claim", "seats": 3, "opponents": [{"type": "open"}, {"type": "open"}]}, "options",
     "invalid_options", "2 players"),
    ({"kind": "claim", "opponents": [{"type": "open"}, {"type": "open"}]}, "opponents", "invalid", "1 opponent"),
    ({"kind": "claim", "opponents": [{"type": "user", "username": "nobody"}]}, "opponents", "invalid",
     "no player named"),
    ({"kind": "claim", "opponents": [{"type": "user", "username": "alice"}]}, "opponents", "invalid", "yourself"),
    ({"kind": "claim", "opponents": [{"type": "user"}]}, "opponents", "invalid", "username"),
    ({"kind": "claim", "opponents": [{"type": "ai", "level": 7}]}, "opponents", "invalid", "valid choice"),
    ({"kind": "claim", "opponents": [{"type": "robot"}]}, "opponents", "invalid", "valid choice"),
    ({"kind": "claim", "opponents": [{"type": "ai"}], "rated": True}, "rated", "invalid", "never rated"),
    ({"kind": "claim", "days_per_move": 4}, "days_per_move", "invalid", "valid choice"),
    ({"kind": "claim", "seat": 2}, "seat", "invalid", "seat must be"),
])
def test_create_errors_400(alice, body, field, code, needle):
    e = err(alice.post("/api/v1/games", body), 400, code)
    assert field in e["fields"], e
    assert needle in e["message"] or needle in str(e["fields"]), e
    assert Game.objects.count() == 0


def test_missing_scope_403(make_api, alice):
    reader = make_api("reader", scopes=["games:read"])
    e = err(reader.post("/api/v1/games", {"kind": "claim"}), 403, "insufficient_scope")
    assert "games:play" in e["message"]
    gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
    view = alice.view(gid)
    only_play = make_api("player", scopes=["games:play"], user=alice.user)
    e = err(only_play.get(f"/api/v1/games/{gid}"), 403, "insufficient_scope")
    assert "games:read" in e["message"]
    only_read = make_api("reader2", scopes=["games:read"], user=alice.user)
    err(only_read.move(gid, view["version"], view["legal_moves"][0]), 403, "insufficient_scope")
    assert only_read.get(f"/api/v1/games/{gid}").status_code == 200
    account = make_api("acct", scopes=["account:read"], user=alice.user)
    err(account.get("/api/v1/games"), 403, "insufficient_scope")


def test_bot_play_scope_only_for_bot_accounts(make_api):
    human = make_api("human", scopes=["bot:play"])
    e = err(human.post("/api/v1/games", {"kind": "claim", "opponents": [{"type": "ai"}]}), 403, "insufficient_scope")
    assert "only valid for bot accounts" in e["message"]
    err(human.get("/api/v1/games"), 403, "insufficient_scope")
    bot = make_api("robo", scopes=["bot:play"], is_bot=True)
    created = bot.create(kind="claim", opponents=[{"type": "ai", "level": 1}])
    view = bot.view(created["id"])
    assert bot.move(created["id"], view["version"], view["legal_moves"][0]).status_code == 201
    assert bot.get("/api/v1/games").status_code == 200


def test_unauthenticated_401(api_client):
    r = api_client.get("/api/v1/games")
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_authenticated"
    r = api_client.post("/api/v1/games/1/moves", {"version": 1, "move": {"play": "x"}}, format="json")
    assert r.status_code == 401
    r = api_client.get("/api/v1/games", HTTP_AUTHORIZATION="Bearer clm_deadbeef_nope")
    assert r.status_code == 401


def test_moves_are_throttled_with_retry_after(alice, monkeypatch):
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "moves", "3/min")
    gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
    statuses = [alice.move(gid, 0, {"play": "goblin-0"}).status_code for _ in range(4)]
    assert statuses == [409, 409, 409, 429]
    r = alice.move(gid, 0, {"play": "goblin-0"})
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert r.json()["error"]["code"] == "throttled" and r.json()["error"]["retry_after"] > 0
    # other endpoints are not limited by the moves scope
    assert alice.get(f"/api/v1/games/{gid}").status_code == 200


def test_revoked_token_cannot_play(alice):
    ApiToken.objects.filter(user=alice.user).update(revoked_at="2026-11-01T00:00:00Z")
    assert alice.post("/api/v1/games", {"kind": "claim"}).status_code == 401


def test_create_with_wrong_types_is_400_never_500(alice):
    for body in ({"kind": "claim", "opponents": "ai"}, {"kind": "claim", "opponents": [1]},
                 {"kind": "claim", "opponents": [{"type": "ai", "level": "high"}]}, {"kind": "claim", "seats": "x"},
                 {"kind": "claim", "seats": 0}, {"kind": "claim", "options": "none"}, {"kind": ["claim"]},
                 {"kind": "claim", "rated": "maybe"}, {"kind": "claim", "days_per_move": "soon"},
                 {"kind": "claim", "seat": -1}, {"kind": 5}):
        r = alice.post("/api/v1/games", body)
        assert r.status_code == 400, (body, r.content)
        assert r.json()["error"]["code"] in ("invalid", "invalid_options"), body
    r = alice.post("/api/v1/games", "kind=claim&opponents=x", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415 and r.json()["error"]["code"] == "unsupported_media_type"
    r = alice.post("/api/v1/games/join", {"code": ["a"]})
    assert r.status_code == 400
    assert Game.objects.count() == 0
