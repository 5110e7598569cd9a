"""Seats show the rating each player had when the game started (snapshotted, no query per move)."""

from __future__ import annotations

import pytest

from games.ratings.models import Rating


@pytest.mark.django_db
def test_started_game_shows_each_seats_rating_in_its_pool(alice, bob):
    Rating.objects.create(user=bob.user, pool="claim2", system=Rating.System.GLICKO2, rating=1712.4,
                          deviation=60.0, volatility=0.06, games=30)
    game = alice.create(kind="claim2", opponents=[{"type": "user", "username": bob.user.username}])
    assert all(s["rating"] is None for s in game["seats"]), "no rating before the game starts"
    started = bob.post(f"/api/v1/games/{game['id']}/join").json()
    ratings = {s["username"]: s["rating"] for s in started["seats"]}
    assert ratings[bob.user.username]["rating"] == 1712
    assert ratings[bob.user.username]["pool"] == "claim2"
    assert ratings[bob.user.username]["provisional"] is False
    assert ratings[alice.user.username]["provisional"] is True, "a new player is provisional"
    def strip(seats):
        return [{k: v for k, v in s.items() if k != "you"} for s in seats]

    assert strip(alice.view(game["id"])["seats"]) == strip(started["seats"]), "every viewer sees the same ratings"


@pytest.mark.django_db
def test_ai_seat_shows_its_levels_rating(alice):
    game = alice.create(kind="claim", opponents=[{"type": "ai", "level": 2}])
    ai = next(s for s in game["seats"] if s["type"] == "ai")
    assert ai["rating"]["pool"] == "claim"
    assert isinstance(ai["rating"]["rating"], int)
