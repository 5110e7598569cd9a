"""GET/POST /accounts/tokens, DELETE /accounts/tokens/{id}, GET /accounts/scopes."""

from __future__ import annotations

import hashlib

import pytest
from rest_framework.test import APIClient

from accounts import services
from accounts.models import SCOPES, ApiToken

from .conftest import error, token_client, url

pytestmark = pytest.mark.django_db


def create(client, name="my script", scopes=("games:read", "account:read")):
    return client.post(url("tokens"), {"name": name, "scopes": list(scopes)})


def test_create_shows_the_secret_once_and_stores_only_a_digest(session_client, user):
    response = create(session_client)
    assert response.status_code == 201, response.content
    body = response.json()
    plain = body["token"]
    assert plain.startswith(f"clm_{body['prefix']}_")
    assert body["scopes"] == ["account:read", "games:read"]
    assert body["name"] == "my script"
    assert body["revoked_at"] is None and body["last_used_at"] is None
    row = ApiToken.objects.get(pk=body["id"])
    assert row.user == user
    assert row.digest == hashlib.sha256(plain.encode()).hexdigest()
    assert plain not in (row.digest, row.prefix, row.name)
    # It works.
    assert token_client(plain).get(url("me")).json()["username"] == "Alice"


def test_list_never_contains_the_secret_or_digest(session_client, user):
    plain = create(session_client).json()["token"]
    create(session_client, name="second", scopes=["games:play"])
    response = session_client.get(url("tokens"))
    assert response.status_code == 200
    items = response.json()
    assert [t["name"] for t in items] == ["second", "my script"]
    for item in items:
        assert set(item) == {"id", "name", "scopes", "prefix", "created_at", "last_used_at", "revoked_at"}
    text = response.content.decode()
    assert plain not in text
    assert plain.split("_", 2)[2] not in text
    for row in ApiToken.objects.all():
        assert row.digest not in text


def test_list_shows_only_your_tokens(session_client, make_user, make_token):
    make_token(make_user("Bob"), name="bobs")
    create(session_client)
    assert [t["name"] for t in session_client.get(url("tokens")).json()] == ["my script"]


def test_unknown_scope_is_named(session_client):
    response = create(session_client, scopes=["games:read", "admin:all", "zzz"])
    assert response.status_code == 400
    message = error(response)["fields"]["scopes"][0]
    assert message.startswith("Unknown scope(s): admin:all, zzz. Choose from: ")
    assert all(s in message for s in SCOPES)
    assert not ApiToken.objects.exists()


@pytest.mark.parametrize(
    ("data", "field"),
    [({"name": "x", "scopes": []}, "scopes"), ({"name": "", "scopes": ["games:read"]}, "name"),
     ({"scopes": ["games:read"]}, "name"), ({"name": "x" * 61, "scopes": ["games:read"]}, "name")],
)
def test_create_validation(session_client, data, field):
    response = session_client.post(url("tokens"), data)
    assert response.status_code == 400
    assert field in error(response)["fields"]


def test_duplicate_scopes_are_folded(session_client):
    assert create(session_client, scopes=["games:read", "games:read"]).json()["scopes"] == ["games:read"]


def test_bot_play_needs_a_bot_account(session_client, user):
    response = create(session_client, scopes=["bot:play"])
    assert response.status_code == 403  # docs/accounts.md: a well-formed request the account may not make
    assert error(response)["code"] == "bot_account_required"
    message = error(response)["message"]
    assert "only for bot accounts" in message and "/api/v1/accounts/bot/upgrade" in message
    user.is_bot = True
    user.save()
    assert create(session_client, scopes=["bot:play", "games:read"]).status_code == 201


def test_active_token_limit(session_client, monkeypatch):
    monkeypatch.setattr(services, "MAX_ACTIVE_TOKENS", 2)
    ids = [create(session_client).json()["id"] for _ in range(2)]
    response = create(session_client)
    assert response.status_code == 400
    assert "revoke one" in error(response)["message"]
    assert session_client.delete(url(f"tokens/{ids[0]}")).status_code == 204
    assert create(session_client).status_code == 201


def test_revoke(session_client):
    body = create(session_client).json()
    response = session_client.delete(url(f"tokens/{body['id']}"))
    assert response.status_code == 204
    revoked = token_client(body["token"]).get(url("me"))
    assert revoked.status_code == 401
    assert "revoked" in error(revoked)["message"]
    listed = session_client.get(url("tokens")).json()
    assert listed[0]["revoked_at"] is not None
    # Idempotent.
    assert session_client.delete(url(f"tokens/{body['id']}")).status_code == 204


def test_cannot_revoke_someone_elses_token(session_client, make_user, make_token):
    bobs, _ = make_token(make_user("Bob"))
    response = session_client.delete(url(f"tokens/{bobs.pk}"))
    assert response.status_code == 404
    assert error(response) == {"code": "not_found", "message": "No such token."}
    bobs.refresh_from_db()
    assert bobs.revoked_at is None
    assert session_client.delete(url("tokens/999999")).status_code == 404


def test_a_token_cannot_manage_tokens(user, make_token):
    token, plain = make_token(user, list(SCOPES.keys() - {"bot:play"}))
    client = token_client(plain)
    for response in (client.get(url("tokens")), create(client), client.delete(url(f"tokens/{token.pk}"))):
        assert response.status_code == 403
        err = error(response)
        assert err["code"] == "session_required"
        assert "session login" in err["message"]
    token.refresh_from_db()
    assert token.revoked_at is None
    assert ApiToken.objects.count() == 1


def test_token_management_needs_login(api_client):
    assert api_client.get(url("tokens")).status_code == 401
    assert create(api_client).status_code == 401
    assert api_client.delete(url("tokens/1")).status_code == 401


def test_scopes_are_listed_publicly():
    response = APIClient().get(url("scopes"))
    assert response.status_code == 200
    assert {s["scope"]: s["description"] for s in response.json()} == SCOPES
