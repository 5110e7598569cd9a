"""Whole games through the HTTP API: two humans, a human against the AI; history, record, replay."""

from __future__ import annotations

import pytest

from games.models import Game, GameEvent, Move
from games.rules.registry import get_rules
from games.service import create_game, replay_log

from .conftest import play_human_vs_human

pytestmark = pytest.mark.django_db


def test_human_vs_human_full_game_through_the_api(alice, bob, stranger):
    created = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}], days_per_move=3)
    gid = created["id"]
    assert created["status"] == "open" and created["my_seat"] == 0 and created["view"] is None
    assert created["seats"][1]["username"] == "bob" and created["seats"][1]["joined"] is False

    # bob sees the invitation in his inbox and joins
    inbox = bob.get("/api/v1/games").json()
    assert [g["id"] for g in inbox["results"]] == [gid]
    joined = bob.post(f"/api/v1/games/{gid}/join")
    assert joined.status_code == 201
    body = joined.json()
    assert body["status"] == "active" and body["my_seat"] == 1
    assert body["deadline"] is not None and body["time_control"] == {
        "type": "correspondence", "days_per_move": 3, "initial_seconds": None, "increment_seconds": None,
        "cap_seconds": None, "description": "3 days per move"}
    assert len(body["view"]["hand"]) == 13
    # joining again is harmless
    assert bob.post(f"/api/v1/games/{gid}/join").status_code == 200

    final = play_human_vs_human(alice, bob, gid)
    assert final["status"] == "finished" and final["ended_reason"] == "normal"
    game = Game.objects.get(pk=gid)
    rules = get_rules("claim")
    assert final["result"] == rules.result(rules.from_json(game.state))
    outcomes = sorted(s["outcome"] for s in final["seats"])
    assert outcomes in (["loss", "win"], ["draw", "draw"])
    assert game.deadline is None and game.move_count == 52
    assert replay_log(gid).ok

    # after the end: public record (with seed), history with raw moves, replay; also for a stranger
    rec = stranger.get(f"/api/v1/games/{gid}/record")
    assert rec.status_code == 200
    rec = rec.json()
    assert rec["seed"] == game.seed and len(rec["moves"]) == 52
    assert rec["record"]["format"] == "claim.record/1" and rec["record"]["moves"] == [
        {"seat": m["seat"], "move": m["move"]} for m in rec["moves"]]
    hist = stranger.get(f"/api/v1/games/{gid}/history", {"limit": 500}).json()
    assert hist["count"] == game.version
    assert [h["version"] for h in hist["results"]] == list(range(1, game.version + 1))
    assert all(h["move"] is not None for h in hist["results"] if h["type"] == "move")
    spectator = stranger.view(gid)
    assert spectator["my_seat"] is None and spectator["view"]["revealed"]["hands"]
    replay_0 = stranger.get(f"/api/v1/games/{gid}/replay", {"step": 0}).json()
    assert replay_0["step"] == 0 and replay_0["steps"] == 52 and replay_0["move"] is None
    assert [len(v["hand"]) for v in replay_0["seat_views"]] == [13, 13]
    replay_10 = stranger.get(f"/api/v1/games/{gid}/replay", {"step": 10}).json()
    assert replay_10["move"] == {"number": 10, **{k: rec["moves"][9][k] for k in ("seat", "move")}}
    last = stranger.get(f"/api/v1/games/{gid}/replay").json()
    assert last["step"] == 52 and last["spectator_view"]["over"] is True
    assert stranger.get(f"/api/v1/games/{gid}/replay", {"step": 53}).status_code == 400


def test_game_against_the_ai_to_the_end(alice):
    created = alice.create(kind="claim2", opponents=[{"type": "ai", "level": 2}])
    gid = created["id"]
    assert created["status"] == "active"
    assert created["seats"][1]["type"] == "ai" and created["seats"][1]["ai_name"] == "Knight"
    # the AI has already played if it had to act first: it is always alice's turn when she looks
    for i in range(200):
        view = alice.view(gid)
        if view["status"] != "active":
            break
        assert view["my_turn"] is True and view["to_act"] == [0]
        r = alice.move(gid, view["version"], view["legal_moves"][-1], client_id=f"m{i}")
        assert r.status_code == 201, r.content
        after = r.json()
        assert after["status"] == "finished" or after["version"] == view["version"] + 1
    else:
        raise AssertionError("the game did not end")
    assert view["status"] == "finished" and view["result"] is not None
    game = Game.objects.get(pk=gid)
    assert replay_log(gid).ok
    ai_moves = Move.objects.filter(game=game, seat=1).count()
    assert ai_moves > 20 and Move.objects.filter(game=game, seat=1, client_id__isnull=False).count() == 0
    # versions: one per change, no gaps
    versions = list(GameEvent.objects.filter(game=game).values_list("version", flat=True))
    assert versions == list(range(1, game.version + 1))


def test_history_hides_raw_moves_of_other_seats_until_the_end(alice, bob):
    gid = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])["id"]
    bob.post(f"/api/v1/games/{gid}/join")
    view = alice.view(gid)
    (seat,) = view["to_act"]
    mover, other = (alice, bob) if seat == 0 else (bob, alice)
    mv = mover.view(gid)
    assert mover.move(gid, mv["version"], mv["legal_moves"][0]).status_code == 201
    mine = mover.get(f"/api/v1/games/{gid}/history", {"from_version": mv["version"] + 1}).json()["results"]
    theirs = other.get(f"/api/v1/games/{gid}/history", {"from_version": mv["version"] + 1}).json()["results"]
    assert mine[0]["move"] == mv["legal_moves"][0] and mine[0]["events"][0]["type"] == "play"
    assert theirs[0]["move"] is None and theirs[0]["events"] == mine[0]["events"]
    assert mine[0]["version"] == mv["version"] + 1 and len(mine) == 1
    # from_version is inclusive and paging works
    page = other.get(f"/api/v1/games/{gid}/history", {"from_version": 0, "limit": 1}).json()
    assert page["count"] == 3 and len(page["results"]) == 1 and page["next"]


def test_ai_vs_ai_game_runs_to_the_end_in_tasks(make_user, django_capture_on_commit_callbacks):
    owner = make_user("owner")
    with django_capture_on_commit_callbacks(execute=True):
        game = create_game(owner, "claim-mix", {"factions": ["gnome", "giant", "dragon", "troll", "seer"]},
                           opponents=[{"type": "ai", "level": 1}, {"type": "ai", "level": 2}], seat=None)
    game.refresh_from_db()
    assert game.status == "finished", game.status
    assert game.version == game.move_count + 1
    assert replay_log(game.pk).ok
