"""A rated game's seats show what the game did to each rating (``seat.rating.after`` / ``change``, issue 33 item 7):
the end screen says "+12 → 1512" from the game view alone."""

from __future__ import annotations

import pytest

from games.ratings.models import RatingHistory

pytestmark = pytest.mark.django_db


def test_a_rated_game_shows_each_seats_change_once_rated(alice, bob):
    game = alice.create(kind="claim2", rated=True, days_per_move=3,
                        opponents=[{"type": "user", "username": bob.user.username}])
    bob.post(f"/api/v1/games/{game['id']}/join")
    before = {s["username"]: s["rating"] for s in alice.view(game["id"])["seats"]}
    assert all("change" not in r for r in before.values()), "no change before the end"
    assert alice.post(f"/api/v1/games/{game['id']}/resign").status_code == 200  # rated on commit (eager)
    history = {h.rating.user.username: h for h in RatingHistory.objects.filter(game_id=game["id"])}
    assert set(history) == {"alice", "bob"}
    for viewer in (alice, bob):
        seats = {s["username"]: s["rating"] for s in viewer.view(game["id"])["seats"]}
        for name, h in history.items():
            assert seats[name]["after"] == round(h.after)
            assert seats[name]["change"] == round(h.after) - round(h.before)
            assert seats[name]["rating"] == before[name]["rating"], "the start snapshot is kept"
    seats = {s["username"]: s["rating"] for s in bob.view(game["id"])["seats"]}
    assert seats["bob"]["change"] > 0 > seats["alice"]["change"], "the winner gains, the loser loses"
    inbox = bob.get("/api/v1/games", {"status": "finished"}).json()["results"][0]
    assert {s["username"]: s["rating"]["change"] for s in inbox["seats"]} == {
        n: s["change"] for n, s in seats.items()}, "the inbox row carries it too"


def test_an_unrated_game_shows_no_change_for_people(alice, bob):
    game = alice.create(kind="claim2", opponents=[{"type": "user", "username": bob.user.username}])
    bob.post(f"/api/v1/games/{game['id']}/join")
    alice.post(f"/api/v1/games/{game['id']}/resign")
    assert all("change" not in s["rating"] for s in alice.view(game["id"])["seats"])
