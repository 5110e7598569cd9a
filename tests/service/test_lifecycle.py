"""Joining, aborting, resigning, rematches, retries, the inbox, commit hooks and AI-task idempotency."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import signals
from games.models import Game, Move, Seat
from games.realtime import publish
from games.rules.registry import get_rules
from games.service import create_game, game_view_payload, make_move, play_ai_turn, replay_log, resume_ai_turns

from .conftest import play_human_vs_human

pytestmark = pytest.mark.django_db


def test_repeated_client_id_returns_the_first_answer(alice):
    # A deal where alice leads the first trick, so the AI must answer her move (when the AI led, alice's
    # move could win the trick and she would lead again: the version would rightly not move on).
    for _ in range(50):
        gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
        view = alice.view(gid)
        if view["move_count"] == 0:
            break
    first = alice.move(gid, view["version"], view["legal_moves"][0], client_id="retry-me")
    assert first.status_code == 201
    moves_after = Move.objects.filter(game_id=gid).count()
    # the same id again (a retry after a lost answer): the first body, nothing applied, even with
    # a stale version or a different move
    again = alice.move(gid, view["version"], view["legal_moves"][-1], client_id="retry-me")
    assert again.status_code == 200 and again.json() == first.json()
    assert Move.objects.filter(game_id=gid).count() == moves_after
    # the view moved on meanwhile (the AI answered); the retry still gets the first answer
    assert alice.view(gid)["version"] > first.json()["version"] or alice.view(gid)["status"] != "active"


def test_join_by_code_and_full_game(alice, bob, stranger):
    created = alice.create(kind="claim")  # default: one open seat
    gid, code = created["id"], created["invite_code"]
    assert created["status"] == "open" and code and created["seats"][1]["type"] == "open"
    assert bob.get(f"/api/v1/games/{gid}").status_code == 404  # not seated, not public
    assert bob.post(f"/api/v1/games/{gid}/join").status_code == 404  # needs the code
    assert bob.post(f"/api/v1/games/{gid}/join", {"code": "wrong"}).status_code == 404
    r = bob.post("/api/v1/games/join", {"code": code})
    assert r.status_code == 201 and r.json()["status"] == "active" and r.json()["invite_code"] is None
    assert bob.post("/api/v1/games/join", {"code": code}).status_code == 200  # already seated
    r = stranger.post("/api/v1/games/join", {"code": code})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_open"


def test_join_by_id_with_code_and_game_full(alice, bob, stranger, make_user):
    gid = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])["id"]
    code = alice.view(gid)["invite_code"]
    r = stranger.post(f"/api/v1/games/{gid}/join", {"code": code})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_full"
    assert bob.post(f"/api/v1/games/{gid}/join").status_code == 201


def test_abort_before_the_first_move(alice, bob):
    gid = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])["id"]
    bob.post(f"/api/v1/games/{gid}/join")
    offered = alice.post(f"/api/v1/games/{gid}/abort").json()
    assert offered["status"] == "active" and offered["seats"][0]["abort_offered"] is True
    assert alice.post(f"/api/v1/games/{gid}/abort").json()["version"] == offered["version"]  # idempotent
    done = bob.post(f"/api/v1/games/{gid}/abort").json()
    assert done["status"] == "aborted" and done["ended_reason"] == "aborted" and done["to_act"] == []
    assert not Seat.objects.filter(game_id=gid, to_act=True).exists()
    r = alice.post(f"/api/v1/games/{gid}/abort")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_active"


def test_abort_not_allowed_after_the_first_move_then_resign(alice, bob):
    gid = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])["id"]
    bob.post(f"/api/v1/games/{gid}/join")
    view = alice.view(gid)
    mover = alice if view["to_act"] == [0] else bob
    mv = mover.view(gid)
    assert mv["can_abort"] is True
    mover.move(gid, mv["version"], mv["legal_moves"][0])
    r = alice.post(f"/api/v1/games/{gid}/abort")
    assert r.status_code == 409 and r.json()["error"]["code"] == "abort_not_allowed"
    resigned = bob.post(f"/api/v1/games/{gid}/resign").json()
    assert resigned["status"] == "finished" and resigned["ended_reason"] == "resigned"
    assert resigned["result"]["winner"] == 0 and resigned["result"]["resigned"] == 1
    assert [s["outcome"] for s in resigned["seats"]] == ["win", "loss"]
    assert resigned["last_events"]["events"][0] == {"type": "resigned", "seat": 1}
    assert alice.post(f"/api/v1/games/{gid}/resign").status_code == 409
    # record is public now
    assert alice.get(f"/api/v1/games/{gid}/record").status_code == 200
    assert replay_log(gid).ok


def test_open_game_cancelled_by_creator_or_declined_by_invitee(alice, bob):
    g1 = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])["id"]
    assert bob.post(f"/api/v1/games/{g1}/abort").json()["status"] == "aborted"  # decline
    g2 = alice.create(kind="claim")["id"]
    assert alice.post(f"/api/v1/games/{g2}/abort").json()["status"] == "aborted"  # cancel


def test_abort_against_the_ai_is_immediate_even_if_the_ai_led(alice):
    for _ in range(6):  # the AI leads in about half of the deals: its move does not close the window
        gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
        view = alice.view(gid)
        assert view["can_abort"] is True
        done = alice.post(f"/api/v1/games/{gid}/abort").json()
        assert done["status"] == "aborted" and done["can_abort"] is False


def test_abort_window_closes_with_the_first_human_move(alice):
    gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
    view = alice.view(gid)
    alice.move(gid, view["version"], view["legal_moves"][0])
    assert alice.view(gid)["can_abort"] is False
    r = alice.post(f"/api/v1/games/{gid}/abort")
    assert r.status_code == 409 and r.json()["error"]["code"] == "abort_not_allowed"


def test_rematch(alice, bob):
    """Two seats against a human: the first request offers it (202), the other player's accepts it (200)."""
    gid = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}], days_per_move=7)["id"]
    bob.post(f"/api/v1/games/{gid}/join")
    assert alice.post(f"/api/v1/games/{gid}/rematch").status_code == 409
    play_human_vs_human(alice, bob, gid)
    r = bob.post(f"/api/v1/games/{gid}/rematch")
    assert r.status_code == 202, r.content
    assert r.json()["id"] == gid and r.json()["rematch_offer"]["status"] == "pending"
    assert alice.view(gid)["rematch"] is None and alice.view(gid)["rematch_offer"]["by"] == 1
    r = alice.post(f"/api/v1/games/{gid}/rematch")
    assert r.status_code == 200
    new = r.json()
    assert new["status"] == "active" and new["rematch_of"] == gid and new["my_seat"] == 0
    assert new["time_control"]["days_per_move"] == 7
    assert alice.view(gid)["rematch"] == new["id"]
    assert bob.post(f"/api/v1/games/{gid}/rematch").json()["id"] == new["id"]


def test_rematch_against_the_ai_starts_at_once(alice):
    gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
    assert alice.post(f"/api/v1/games/{gid}/resign").status_code == 200
    new = alice.post(f"/api/v1/games/{gid}/rematch").json()
    assert new["status"] == "active" and new["seats"][1]["ai_level"] == 1


def test_inbox_order_my_turn_first_then_deadline_then_updated(alice, bob, make_user):
    now = timezone.now()

    def game(to_act_alice: bool, deadline_days: float | None, updated_minutes_ago: int, status="active") -> int:
        g = create_game(alice.user, "claim", opponents=[{"type": "user", "username": "bob"}])
        Game.objects.filter(pk=g.pk).update(
            status=status, deadline=None if deadline_days is None else now + timedelta(days=deadline_days),
            updated_at=now - timedelta(minutes=updated_minutes_ago))
        Seat.objects.filter(game=g, index=0).update(to_act=to_act_alice)
        Seat.objects.filter(game=g, index=1).update(to_act=not to_act_alice, joined_at=now)
        if status == "finished":  # as set_result does: the seats' copy of the end (seat_user_finished)
            Game.objects.filter(pk=g.pk).update(finished_at=now)
            Seat.objects.filter(game=g).update(finished_at=now)
        return g.pk

    mine_late = game(True, 3, 50)
    mine_soon = game(True, 1, 60)
    mine_unlimited = game(True, None, 1)
    theirs_soon = game(False, 0.5, 5)
    theirs_unlimited_old = game(False, None, 100)
    theirs_unlimited_new = game(False, None, 2)
    finished = game(False, None, 0, status="finished")
    open_game = alice.create(kind="claim")["id"]  # updated just now, no deadline
    body = alice.get("/api/v1/games", {"status": "active"}).json()
    assert [g["id"] for g in body["results"]] == [
        mine_soon, mine_late, mine_unlimited, theirs_soon, theirs_unlimited_new, theirs_unlimited_old]
    assert [g["my_turn"] for g in body["results"]] == [True] * 3 + [False] * 3
    assert body["count"] == 6
    current = [g["id"] for g in alice.get("/api/v1/games").json()["results"]]
    assert current[:4] == [mine_soon, mine_late, mine_unlimited, theirs_soon] and open_game in current
    assert finished not in current
    assert [g["id"] for g in alice.get("/api/v1/games", {"status": "finished"}).json()["results"]] == [finished]
    assert len(alice.get("/api/v1/games", {"status": "all"}).json()["results"]) == 8
    inheritors = alice.create(kind="inheritors")["id"]
    assert [g["id"] for g in alice.get("/api/v1/games", {"kind": "inheritors"}).json()["results"]] == [inheritors]
    assert inheritors not in [g["id"] for g in alice.get("/api/v1/games", {"kind": "claim"}).json()["results"]]
    page = alice.get("/api/v1/games", {"status": "active", "limit": 2, "offset": 2}).json()
    assert [g["id"] for g in page["results"]] == [mine_unlimited, theirs_soon]
    # bob's inbox mirrors it; a third user has nothing
    assert bob.get("/api/v1/games", {"status": "active"}).json()["results"][0]["id"] == theirs_soon
    assert make_user("carol") and Game.objects.filter(seats__user__username="carol").count() == 0


def test_publish_and_ai_task_run_on_commit(alice, monkeypatch):
    published: list[int] = []
    monkeypatch.setattr(publish, "publish_game_update", lambda game_id, **prepared: published.append(game_id))
    created = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])
    gid = created["id"]
    assert published == [gid] * Game.objects.get(pk=gid).version  # one push per version: creation, AI moves
    view = alice.view(gid)
    alice.move(gid, view["version"], view["legal_moves"][0])
    assert published == [gid] * Game.objects.get(pk=gid).version


def test_the_service_commits_without_subscribers(alice, monkeypatch):
    """The service knows its subscribers only through the signals: with none connected a game is still
    created and played (nothing is published, no AI turn starts)."""
    monkeypatch.setattr(signals.game_committed, "receivers", [])
    monkeypatch.setattr(signals.ai_turn_due, "receivers", [])
    monkeypatch.setattr(signals.game_committed, "sender_receivers_cache", {})
    monkeypatch.setattr(signals.ai_turn_due, "sender_receivers_cache", {})
    created = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])
    game = Game.objects.get(pk=created["id"])
    assert game.version == 1 and game.status == Game.Status.ACTIVE  # the AI's turn was not started


def test_ai_task_is_idempotent_by_version(alice, django_capture_on_commit_callbacks):
    user = alice.user
    g = create_game(user, "claim", opponents=[{"type": "ai", "level": 1}], seat=0)  # hooks not run: AI pending
    g.refresh_from_db()
    ai_first = Seat.objects.get(game=g, index=1).to_act
    if not ai_first:
        view = game_view_payload(g, user)

        make_move(user, g.pk, view["version"], view["legal_moves"][0])
        g.refresh_from_db()
    version = g.version
    assert play_ai_turn(g.pk, version) is True
    assert play_ai_turn(g.pk, version) is False  # redelivered: the version moved on
    assert play_ai_turn(g.pk, version + 5) is False
    assert play_ai_turn(999999, 1) is False
    g.refresh_from_db()
    assert g.version == version + 1
    # not the AI's turn at the current version: nothing
    if not Seat.objects.get(game=g, index=1).to_act:
        assert play_ai_turn(g.pk, g.version) is False


def test_ai_moves_are_deterministic_for_a_seed(make_user):
    """Same seed, same log: the AI's choice depends only on (seed, version, seat) and its view."""
    rules = get_rules("claim")
    logs = []
    for name in ("p1", "p2"):
        owner = make_user(name)
        g = create_game(owner, "claim", opponents=[{"type": "ai", "level": 1}, {"type": "ai", "level": 1}], seat=None)
        state = rules.setup(g.options, 2, 12345)
        Game.objects.filter(pk=g.pk).update(seed=12345, state=rules.to_json(state))
        for seat in Seat.objects.filter(game=g):
            seat.to_act = seat.index in rules.to_act(state)
            seat.save()
        for _ in range(10):
            g.refresh_from_db()
            assert play_ai_turn(g.pk, g.version) is True
        logs.append(list(Move.objects.filter(game=g).order_by("number").values_list("seat", "move")))
        assert replay_log(g.pk).ok
    assert logs[0] == logs[1] and len(logs[0]) == 10


def test_payload_shape_for_a_seated_player(alice):
    body = alice.create(kind="claim", opponents=[{"type": "ai", "level": 3}], days_per_move=1)
    expected = {"id", "kind", "title", "options", "status", "version", "move_count", "seats", "my_seat",
                "creator_seat", "to_act", "my_turn", "legal_moves", "deadline", "time_control", "clock", "rated",
                "watchable", "view", "last_events", "result", "ended_reason", "can_abort", "invite_code", "rematch_of",
                "rematch", "rematch_offer", "created_at", "updated_at", "links"}
    assert set(body) == expected
    assert body["title"] == "Claim" and body["options"]["factions"] == ["goblin", "knight", "undead", "dwarf",
                                                                         "doppelganger"]
    assert body["seats"][0]["you"] is True and body["seats"][1]["you"] is False
    assert body["seats"][1]["ai_name"] == "King" and body["seats"][1]["rating"]["pool"] == "claim"
    gid = body["id"]
    assert body["links"] == {"self": f"/api/v1/games/{gid}", "moves": f"/api/v1/games/{gid}/moves",
                             "history": f"/api/v1/games/{gid}/history", "record": f"/api/v1/games/{gid}/record",
                             "replay": f"/api/v1/games/{gid}/replay"}
    assert body["view"]["seat"] == 0 and "seed" not in body
    assert body["legal_moves"] == body["view"]["legal_moves"]


def test_resume_ai_turns_restarts_a_stalled_game(alice, django_capture_on_commit_callbacks):
    g = create_game(alice.user, "claim", opponents=[{"type": "ai", "level": 1}])  # hooks dropped: "crash"
    g.refresh_from_db()
    if not Seat.objects.get(game=g, index=1).to_act:
        view = game_view_payload(g, alice.user)

        make_move(alice.user, g.pk, view["version"], view["legal_moves"][0])  # hooks dropped again
        g.refresh_from_db()
    stalled_version = g.version
    assert resume_ai_turns(idle_seconds=60) == []  # not idle long enough
    Game.objects.filter(pk=g.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    with django_capture_on_commit_callbacks(execute=True):
        assert resume_ai_turns(idle_seconds=60) == [(g.pk, stalled_version)]
    g.refresh_from_db()
    assert g.version > stalled_version and not Seat.objects.get(game=g, index=1).to_act
