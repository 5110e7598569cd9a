"""Fixtures for the block tests (issue 35): the game service's API clients (tests/service/conftest.py), a third
and fourth player, and ``block(a, b)``: ``a`` blocks ``b`` through accounts.relations, its ``relation_changed``
receivers run as on a real commit (``stand(a, b)``: the same relation written without them, as if the receivers
had not run yet)."""

from __future__ import annotations

import pytest

from accounts import relations
from accounts.models import Relation
from games.challenges import events
from tests.service.conftest import Api, alice, bob, make_api, stranger  # noqa: F401 — fixtures used here


@pytest.fixture(autouse=True)
def _eager(eager_tasks):
    """Tasks inline (tests/conftest.py)."""


@pytest.fixture
def carol(make_api) -> Api:  # noqa: F811
    return make_api("carol")


@pytest.fixture
def dave(make_api) -> Api:  # noqa: F811
    return make_api("dave")


@pytest.fixture
def block(django_capture_on_commit_callbacks):
    """``block(a, b)``: ``a`` (an Api) blocks ``b``, and the receivers of the block run after its commit."""

    def make(a: Api, b: Api) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            assert relations.add(a.user.pk, "block", b.user.pk)

    return make


def stand(a: Api, b: Api) -> None:
    """``a`` blocks ``b`` with no receiver run: what a request sees between the block's commit and its receivers."""
    Relation.objects.create(user=a.user, kind=Relation.BLOCK, other=b.user)


@pytest.fixture
def frames(monkeypatch):
    """Every typed challenge frame sent to a user's group: ``[(user id, frame)]``."""
    sent: list[tuple[int, dict]] = []
    real = events.send_frames

    def spy(items, what):
        sent.extend(items)
        real(items, what)

    monkeypatch.setattr(events, "send_frames", spy)
    return sent


def err(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()["error"]
    assert body["code"] == code and body["message"]
    return body


def no_names(message: str, *apis: Api) -> None:
    """The refusal says nothing of who blocked whom: no username of the blocked pair, no "blocked you"."""
    low = message.lower()
    assert "blocked you" not in low and "you blocked" not in low and "has blocked" not in low, message
    for api in apis:
        assert api.user.username not in low, message
