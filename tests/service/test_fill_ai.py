"""The creator of an open game fills its empty seats with the AI (``POST /games/{id}/fill``, issue 33 item 5)."""

from __future__ import annotations

import pytest

from games.models import GameEvent

pytestmark = pytest.mark.django_db


def _open_three(alice, bob) -> dict:
    """A 3-seat Claim game by alice: bob invited to seat 1, seat 2 open (a code)."""
    return alice.create(kind="inheritors", seats=3, opponents=[{"type": "user", "username": bob.user.username},
                                                          {"type": "open"}])


def test_the_creator_fills_the_empty_seat_and_the_game_starts_when_none_is_left(alice, bob):
    game = _open_three(alice, bob)
    assert bob.post(f"/api/v1/games/{game['id']}/join").status_code == 201
    r = alice.post(f"/api/v1/games/{game['id']}/fill", {"seats": [{"index": 2, "level": 3}]})
    assert r.status_code == 200, r.content
    view = r.json()
    assert view["status"] == "active"
    ai = view["seats"][2]
    assert (ai["type"], ai["ai_level"], ai["joined"]) == ("ai", 3, True)
    assert bob.view(game["id"])["status"] == "active", "the friend's view has started too"
    entry = GameEvent.objects.get(game_id=game["id"], type="ai_filled")
    assert entry.events[0] == {"type": "ai_filled", "seat": 2, "ai_level": 3}
    assert any(e["type"] == "started" for e in entry.events)
    history = alice.get(f"/api/v1/games/{game['id']}/history").json()["results"]
    assert [h["type"] for h in history][:3] == ["created", "joined", "ai_filled"]  # then the AI's moves, if first


def test_seats_left_out_stay_open_for_people(alice, make_api):
    game = alice.create(kind="inheritors", seats=4, opponents=[{"type": "open"}] * 3)
    r = alice.post(f"/api/v1/games/{game['id']}/fill", {"seats": [{"index": 1, "level": 1}]})
    assert r.status_code == 200, r.content
    assert r.json()["status"] == "open"
    assert [s["type"] for s in r.json()["seats"]] == ["user", "ai", "open", "open"]
    carol = make_api("carol")
    assert carol.post("/api/v1/games/join", {"code": game["invite_code"]}).status_code == 201


def test_only_the_creator_may_fill(alice, bob, stranger):
    game = _open_three(alice, bob)
    bob.post(f"/api/v1/games/{game['id']}/join")
    r = bob.post(f"/api/v1/games/{game['id']}/fill", {"seats": [{"index": 2, "level": 1}]})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_creator"
    r = stranger.post(f"/api/v1/games/{game['id']}/fill", {"seats": [{"index": 2, "level": 1}]})
    assert r.status_code == 404, "a stranger learns nothing of a private game"


@pytest.mark.parametrize(("body", "field_or_code"), [
    ({"seats": []}, "seats"),
    ({"seats": [{"index": 2, "level": 9}]}, "seats"),
    ({"seats": [{"index": 2, "level": "1"}]}, "seats"),
    ({"seats": [{"index": 2, "level": 1}, {"index": 2, "level": 2}]}, "seats"),
    ({"seats": [{"index": 2, "level": 1, "x": 1}]}, "seats"),
    ({"seat": 2}, "seat"),
])
def test_malformed_bodies_are_400_naming_the_field(alice, bob, body, field_or_code):
    game = _open_three(alice, bob)
    r = alice.post(f"/api/v1/games/{game['id']}/fill", body)
    assert r.status_code == 400, r.content
    assert field_or_code in r.json()["error"]["fields"]


def test_a_seat_the_game_lacks_is_400(alice, bob):
    game = _open_three(alice, bob)
    r = alice.post(f"/api/v1/games/{game['id']}/fill", {"seats": [{"index": 3, "level": 1}]})
    assert r.status_code == 400
    assert "seats 0 to 2" in r.json()["error"]["message"]


@pytest.mark.parametrize("index", [0, 1])
def test_held_seats_are_refused(alice, bob, index):
    """Seat 0 is alice's, seat 1 bob's invitation (not yet joined): neither is empty."""
    game = _open_three(alice, bob)
    r = alice.post(f"/api/v1/games/{game['id']}/fill", {"seats": [{"index": index, "level": 1}]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
    assert alice.view(game["id"])["seats"][index]["type"] == "user"


def test_a_rated_game_takes_no_ai(alice, bob):
    game = alice.create(kind="inheritors", seats=3, rated=True, days_per_move=3,
                        opponents=[{"type": "user", "username": bob.user.username}, {"type": "open"}])
    r = alice.post(f"/api/v1/games/{game['id']}/fill", {"seats": [{"index": 2, "level": 1}]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "rated_no_ai"


def test_a_started_game_cannot_be_filled(alice):
    game = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])
    r = alice.post(f"/api/v1/games/{game['id']}/fill", {"seats": [{"index": 1, "level": 1}]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_open"


def test_filling_needs_the_play_scope(alice, bob, make_api):
    game = _open_three(alice, bob)
    reader = make_api("reader", scopes=["games:read"], user=alice.user)
    r = reader.post(f"/api/v1/games/{game['id']}/fill", {"seats": [{"index": 2, "level": 1}]})
    assert r.status_code == 403 and r.json()["error"]["code"] == "insufficient_scope"
