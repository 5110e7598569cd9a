"""POST /accounts/bot/upgrade."""

from __future__ import annotations

import pytest

from accounts import services

from .conftest import error, token_client, url

pytestmark = pytest.mark.django_db


def test_upgrade_flags_the_account(session_client, user):
    response = session_client.post(url("bot/upgrade"))
    assert response.status_code == 200
    assert response.json()["is_bot"] is True
    user.refresh_from_db()
    assert user.is_bot
    assert session_client.post(url("bot/upgrade")).status_code == 200  # already a bot: no change


def test_fresh_account_has_no_game_records(user):
    assert services.has_game_records(user) is False


def test_an_account_that_has_played_cannot_become_a_bot(session_client, user, monkeypatch):
    monkeypatch.setattr(services, "has_game_records", lambda u: True)
    response = session_client.post(url("bot/upgrade"))
    assert response.status_code == 409
    err = error(response)
    assert err["code"] == "conflict"
    assert "already played" in err["message"]
    user.refresh_from_db()
    assert not user.is_bot


def test_upgrade_needs_a_session(api_client, user, make_token):
    assert api_client.post(url("bot/upgrade")).status_code == 401
    _, plain = make_token(user, ["account:read", "games:play"])
    response = token_client(plain).post(url("bot/upgrade"))
    assert response.status_code == 403
    assert error(response)["code"] == "session_required"
