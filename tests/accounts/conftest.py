"""Fixtures for the accounts API: users, logged-in clients, tokens."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import ApiToken
from tests.factories import PASSWORD

BASE = "/api/v1/accounts/"


def url(name: str) -> str:
    return BASE + name


@pytest.fixture(autouse=True)
def _eager(eager_tasks):
    """Reset e-mails are sent by a background task: run it inline so tests read mail.outbox."""


@pytest.fixture
def session_client(user):
    """Logged in through the API, as the PWA does."""
    client = APIClient()
    response = client.post(url("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 200, response.content
    return client


@pytest.fixture
def make_token():
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
