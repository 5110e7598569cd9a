"""Challenges over the HTTP API (issue 26; rulings in games/challenges/service.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.challenges import service
from games.challenges.models import Challenge
from games.challenges.service import expire_due

pytestmark = pytest.mark.django_db


def err(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()["error"]
    assert body["code"] == code and body["message"]
    return body


def challenge(api, **body) -> dict:
    r = api.post("/api/v1/challenges", {"kind": "claim", **body})
    assert r.status_code == 201, r.content
    return r.json()


def test_a_challenge_to_a_user_is_listed_both_ways_and_accepted_into_a_started_game(alice, bob):
    c = challenge(alice, to="bob", rated=True, seat=1)
    assert c["status"] == "pending" and c["to"]["username"] == "bob" and c["open"] is False
    assert len(c["id"]) == 10 and c["time_control"]["days_per_move"] == 3
    assert [x["id"] for x in bob.get("/api/v1/challenges").json()["incoming"]] == [c["id"]]
    assert [x["id"] for x in alice.get("/api/v1/challenges").json()["outgoing"]] == [c["id"]]
    r = bob.post(f"/api/v1/challenges/{c['id']}/accept")
    assert r.status_code == 200, r.content
    done = r.json()
    assert done["status"] == "accepted" and done["game_id"]
    view = bob.view(done["game_id"])
    assert view["status"] == "active" and view["rated"] and view["my_seat"] == 0
    assert alice.view(done["game_id"])["my_seat"] == 1  # the challenger's chosen seat
    assert bob.get("/api/v1/challenges").json() == {"incoming": [], "outgoing": []}
    err(bob.post(f"/api/v1/challenges/{c['id']}/accept"), 409, "challenge_not_pending")


def test_decline_with_a_reason_the_challenger_reads(alice, bob):
    c = challenge(alice, to="bob")
    err(bob.post(f"/api/v1/challenges/{c['id']}/decline", {"reason": "whatever"}), 400, "invalid")
    err(alice.post(f"/api/v1/challenges/{c['id']}/decline"), 409, "own_challenge")
    r = bob.post(f"/api/v1/challenges/{c['id']}/decline", {"reason": "time_control"})
    assert r.status_code == 200
    seen = alice.get(f"/api/v1/challenges/{c['id']}").json()
    assert seen["status"] == "declined" and seen["decline_reason"] == "time_control"
    assert "time control" in seen["decline_message"]


def test_only_the_challenger_cancels(alice, bob):
    c = challenge(alice, to="bob")
    err(bob.post(f"/api/v1/challenges/{c['id']}/cancel"), 409, "not_challenger")
    assert alice.post(f"/api/v1/challenges/{c['id']}/cancel").json()["status"] == "cancelled"
    err(bob.post(f"/api/v1/challenges/{c['id']}/accept"), 409, "challenge_not_pending")


def test_an_open_challenge_is_taken_by_whoever_has_its_id(alice, bob, stranger):
    c = challenge(alice, kind="claim2")
    assert c["open"] is True and c["to"] is None
    assert stranger.get(f"/api/v1/challenges/{c['id']}").status_code == 200
    err(alice.post(f"/api/v1/challenges/{c['id']}/accept"), 409, "own_challenge")
    err(stranger.post(f"/api/v1/challenges/{c['id']}/decline"), 409, "open_challenge")
    done = stranger.post(f"/api/v1/challenges/{c['id']}/accept").json()
    assert done["to"]["username"] == "mallory" and done["open"] is True
    assert stranger.view(done["game_id"])["kind"] == "claim2"
    err(bob.post(f"/api/v1/challenges/{c['id']}/accept"), 409, "challenge_not_pending")


def test_a_challenge_to_someone_else_is_invisible(alice, bob, stranger):
    c = challenge(alice, to="bob")
    err(stranger.get(f"/api/v1/challenges/{c['id']}"), 404, "not_found")
    err(stranger.post(f"/api/v1/challenges/{c['id']}/accept"), 404, "not_found")
    err(stranger.get("/api/v1/challenges/nope"), 404, "not_found")


def test_expiry(alice, bob):
    c = challenge(alice, to="bob", expires_in=60)
    Challenge.objects.filter(pk=c["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert bob.get("/api/v1/challenges").json()["incoming"] == []
    err(bob.post(f"/api/v1/challenges/{c['id']}/accept"), 409, "challenge_expired")
    assert Challenge.objects.get(pk=c["id"]).status == "expired"  # the refusal marked it, and it stays marked
    other = challenge(alice, to="bob")
    Challenge.objects.filter(pk=other["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert expire_due() == 1
    assert alice.get(f"/api/v1/challenges/{other['id']}").json()["status"] == "expired"


@pytest.mark.parametrize("control", [{"type": "unlimited"}, {"type": "days", "days_per_move": 7},
                                     {"type": "bank", "initial_seconds": 259200, "increment_seconds": 86400}])
def test_time_control_alone_sets_the_clock(alice, bob, control):
    """days_per_move's default (3) applies only without time_control (the PWA sends time_control alone)."""
    tc = challenge(alice, to="bob", time_control=control)["time_control"]
    assert tc["type"] == {"days": "correspondence"}.get(control["type"], control["type"])
    assert tc.get("days_per_move") == control.get("days_per_move")
    err(alice.post("/api/v1/challenges", {"kind": "claim", "to": "bob", "time_control": {"type": "unlimited"},
                                          "days_per_move": 3}), 400, "invalid")


def test_bad_terms_get_the_answers_of_game_creation(alice, bob):
    err(alice.post("/api/v1/challenges", {"kind": "chess", "to": "bob"}), 400, "invalid")
    err(alice.post("/api/v1/challenges", {"kind": "claim-mix", "to": "bob"}), 400, "invalid_options")
    err(alice.post("/api/v1/challenges", {"kind": "claim", "to": "bob", "days_per_move": None, "rated": True}),
        400, "unlimited_rated")
    err(alice.post("/api/v1/challenges", {"kind": "claim", "to": "alice"}), 400, "invalid")
    e = err(alice.post("/api/v1/challenges", {"kind": "claim", "to": "nobody"}), 400, "invalid")
    assert e["fields"] == {"to": ["No player is called 'nobody'."]}
    err(alice.post("/api/v1/challenges", {"kind": "claim", "expires_in": 5}), 400, "invalid")
    err(alice.post("/api/v1/challenges", {"kind": "claim", "seat": 2}), 400, "invalid")
    err(alice.post("/api/v1/challenges", {"kind": "claim", "options": [1]}), 400, "invalid")


def test_pending_challenges_are_capped(alice, bob, monkeypatch):
    monkeypatch.setattr(service, "MAX_PENDING", 2)
    challenge(alice, to="bob")
    challenge(alice)
    err(alice.post("/api/v1/challenges", {"kind": "claim", "to": "bob"}), 409, "too_many_challenges")


def test_scopes(make_api, alice):
    reader = make_api("reader", scopes=["games:read"], user=alice.user)
    err(reader.post("/api/v1/challenges", {"kind": "claim"}), 403, "insufficient_scope")
    assert reader.get("/api/v1/challenges").status_code == 200
    bot = make_api("robo", scopes=["bot:play"], is_bot=True)
    c = challenge(alice, to="robo")
    assert bot.post(f"/api/v1/challenges/{c['id']}/accept").json()["status"] == "accepted"
