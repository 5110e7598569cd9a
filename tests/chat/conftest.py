"""Fixtures for the chat tests: the game service's API clients (tests/service/conftest.py), games in the
states the chat cares about, and generous chat rates unless a test sets its own."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.service.conftest import Api, make_api  # noqa: F401 — fixtures used here

ALL = ["games:read", "games:play", "chat:read", "chat:write"]


@pytest.fixture(autouse=True)
def _eager(eager_tasks):
    """Tasks inline (tests/conftest.py)."""


@pytest.fixture(autouse=True)
def _generous(rates):
    rates(chat="1000/min", chat_burst="1000/min", reports="1000/min")


@pytest.fixture
def chatter(make_api):  # noqa: F811
    def make(name: str, **kw) -> Api:
        kw.setdefault("scopes", ALL)
        return make_api(name, **kw)

    return make


@pytest.fixture
def table(chatter):
    """``(game_id, alice, bob)``: an active two-seat Claim game of two humans, not watchable unless the test uses
    the ``watch`` fixture (the request says the model's default, which that fixture sets)."""

    def make(kind: str = "claim"):
        a, b = chatter("alice"), chatter("bob")
        game = a.create(kind=kind, opponents=[{"type": "user", "username": "bob"}],
                        watchable=Game._meta.get_field("watchable").default)
        r = b.post(f"/api/v1/games/{game['id']}/join", {})
        assert r.status_code == 201, r.content
        return game["id"], a, b

    return make


def say(api: Api, game_id: int, **body):
    return api.post(f"/api/v1/games/{game_id}/chat", body)


def page(api: Api, game_id: int, **params):
    return api.get(f"/api/v1/games/{game_id}/chat", params)


def finish(game_id: int, api: Api) -> None:
    r = api.post(f"/api/v1/games/{game_id}/resign", {})
    assert r.status_code == 200, r.content


@pytest.fixture
def watch(monkeypatch):
    """SPECTATORS' ROOM TESTS: every game created in the test is watchable (``Game.watchable``)."""
    monkeypatch.setattr(Game._meta.get_field("watchable"), "default", True)
