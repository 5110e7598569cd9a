"""Fixtures of the spectating REST tests (``GET /games/{id}/watch``, ``GET /watch``, ``watchable`` at creation):
the spectating tests' players and AI games (tests/spectate/conftest.py), two humans at one table, anonymous
clients."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Game
from tests.service.conftest import Api, make_api  # noqa: F401 — fixtures used here
from tests.spectate.conftest import _eager, play_a_few, player  # noqa: F401 — fixtures used here

WATCH_FIELDS = {"id", "kind", "title", "status", "version", "move_count", "rated", "watchable", "seats", "to_act",
                "view", "clock", "result", "ended_reason", "spectators", "started_at", "updated_at", "links"}
SEAT_FIELDS = {"index", "user", "ai_level", "ai_name", "to_act", "outcome"}


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


def watch(client, game_id: int, **headers):
    """``GET /games/{id}/watch`` with ``client`` (an :class:`APIClient` or an :class:`Api`)."""
    if isinstance(client, Api):
        return client._run(client.client.get, f"/api/v1/games/{game_id}/watch", **headers)
    return client.get(f"/api/v1/games/{game_id}/watch", **headers)


@pytest.fixture
def table(player):  # noqa: F811
    """``table(kind="claim", watchable=True)``: ``(game, alice, bob)``, an active two-seat game of two humans
    made and joined through the API."""

    def make(kind: str = "claim", watchable: bool = True, names: tuple[str, str] = ("alice", "bob")):
        a, b = player(names[0]), player(names[1])
        created = a.create(kind=kind, opponents=[{"type": "user", "username": b.user.username}], watchable=watchable)
        r = b.post(f"/api/v1/games/{created['id']}/join", {})
        assert r.status_code == 201, r.content
        return Game.objects.get(pk=created["id"]), a, b

    return make


@pytest.fixture
def against_ai(player):  # noqa: F811
    """``against_ai(name, kind="claim", watchable=True, moves=1)``: ``(game, api)``, ``name`` against the AI
    (level 1), a few moves played."""

    def make(name: str, kind: str = "claim", watchable: bool = True, moves: int = 1):
        api = player(name)
        created = api.create(kind=kind, opponents=[{"type": "ai", "level": 1}], watchable=watchable)
        play_a_few(api, created["id"], moves)
        return Game.objects.get(pk=created["id"]), api

    return make
