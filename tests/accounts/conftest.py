"""Fixtures for the accounts API: users, logged-in clients, tokens."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

PASSWORD = "correct-horse-battery-9"
BASE = "/api/v1/accounts/"


def url(name: str) -> str:
    return BASE + name


@pytest.fixture(autouse=True)
def _eager_tasks(settings):
    """Reset e-mails are sent by a background task: run it inline so tests read mail.outbox."""
    settings.TASK_MODE = "eager"


@pytest.fixture
def make_user(db):
    from accounts.models import User

    def make(username: str = "Alice", password: str = PASSWORD, **extra):
        extra.setdefault("email", f"{username.lower()}@example.org")
        return User.objects.create_user(username=username, password=password, **extra)

    return make


@pytest.fixture
def user(make_user):
    return make_user()


@pytest.fixture
def session_client(user):
    """Logged in through the API, as the PWA does."""
    client = APIClient()
    response = client.post(url("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 200, response.content
    return client


@pytest.fixture
def make_token():
    from accounts.models import ApiToken

    def make(user, scopes=("account:read",), name="test"):
        return ApiToken.issue(user, name, list(scopes))

    return make


def token_client(plain: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    return client


def error(response) -> dict:
    body = response.json()
    assert set(body) == {"error"}, body
    return body["error"]
