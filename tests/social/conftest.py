"""Fixtures for the friends, follows, blocks, mutes and profiles tests (issue 35; games/social): API clients with
the ``social`` scope that run on-commit hooks as a real commit would, running watchable games, generous rates."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import ApiToken, User
from games.models import Game
from games.service import create_game
from tests.service.conftest import Api

SOCIAL = ["games:read", "games:play", "social"]


class SocialApi(Api):
    """:class:`tests.service.conftest.Api` with ``PUT`` / ``DELETE`` and the relation shortcuts."""

    def put(self, path: str, data: Any = None):
        return self._run(self.client.put, path, data, format="json")

    def delete(self, path: str):
        return self._run(self.client.delete, path)

    def follow(self, name: str, kind: str = "follow", on: bool = True):
        path = f"/api/v1/users/{name}/{kind}"
        return self.put(path) if on else self.delete(path)


@pytest.fixture(autouse=True)
def _eager(eager_tasks):
    """Tasks inline (tests/conftest.py)."""


@pytest.fixture(autouse=True)
def _generous(rates):
    rates(social="10000/min")


@pytest.fixture
def member(make_user, django_capture_on_commit_callbacks):
    """``member(name, scopes=SOCIAL, **user fields)``: a new user and its token client (``scopes=None``: a session
    client, logged in)."""

    def make(name: str, scopes: list[str] | None = SOCIAL, user: User | None = None, **fields: Any) -> SocialApi:
        user = user or make_user(name, **fields)
        if scopes is None:
            api = SocialApi(user, None, django_capture_on_commit_callbacks)
            api.client.force_login(user)
            return api
        _, plain = ApiToken.issue(user, "tests", scopes)
        return SocialApi(user, plain, django_capture_on_commit_callbacks)

    return make


@pytest.fixture
def alice(member) -> SocialApi:
    return member("alice")


@pytest.fixture
def bob(member) -> SocialApi:
    return member("bob")


@pytest.fixture
def carol(member) -> SocialApi:
    return member("carol")


def running(user: User, *, watchable: bool = True, opponent: User | None = None) -> Game:
    """A running game of ``user`` (against the AI, or ``opponent`` seated at once), watchable unless told."""
    opponents = [{"type": "user", "username": opponent.username}] if opponent else [{"type": "ai", "level": 1}]
    game = create_game(user, "claim", opponents=opponents, seated=opponent is not None)
    Game.objects.filter(pk=game.pk).update(watchable=watchable)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game


def err(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()["error"]
    assert body["code"] == code and body["message"], body
    return body
