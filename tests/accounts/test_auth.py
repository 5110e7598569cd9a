"""How requests authenticate: 401 vs 403, bearer tokens, scopes, CSRF for sessions."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.services import revoke_token

from .conftest import error, token_client, url

pytestmark = pytest.mark.django_db


def test_anonymous_request_gets_401_with_bearer_challenge(api_client):
    response = api_client.get(url("me"))
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bearer"
    err = error(response)
    assert err["code"] == "not_authenticated"
    assert "Authorization: Bearer" in err["message"]


@pytest.mark.parametrize(
    ("header", "fragment"),
    [
        ("Bearer nonsense", "Malformed token"),
        ("Bearer clm_short_x", "Malformed token"),
        ("Bearer clm_0123abcd_wrongsecret", "Invalid token."),
        ("Bearer", "must be 'Bearer <token>'"),
        ("Bearer a b", "must be 'Bearer <token>'"),
    ],
)
def test_bad_tokens_get_401_with_a_message(header, fragment):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    response = client.get(url("me"))
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bearer"
    assert fragment in error(response)["message"]


def test_wrong_secret_for_an_existing_prefix_is_rejected(user, make_token):
    _, plain = make_token(user)
    response = token_client(plain[:-2] + "xx").get(url("me"))
    assert response.status_code == 401
    assert error(response)["message"] == "Invalid token."


def test_revoked_token_gets_401(user, make_token):
    token, plain = make_token(user)

    revoke_token(token)
    response = token_client(plain).get(url("me"))
    assert response.status_code == 401
    assert error(response)["message"] == "This token has been revoked; create a new one."


def test_token_of_a_disabled_account_gets_401(user, make_token):
    _, plain = make_token(user)
    user.is_active = False
    user.save()
    response = token_client(plain).get(url("me"))
    assert response.status_code == 401
    assert error(response)["message"] == "This account is disabled."


def test_token_with_account_read_reads_the_profile_and_is_marked_used(user, make_token):
    token, plain = make_token(user, ["account:read"])
    assert token.last_used_at is None
    response = token_client(plain).get(url("me"))
    assert response.status_code == 200
    assert response.json()["username"] == "Alice"
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_missing_scope_gets_403_naming_it(user, make_token):
    _, plain = make_token(user, ["games:read", "games:play"])
    response = token_client(plain).get(url("me"))
    assert response.status_code == 403
    err = error(response)
    assert err["code"] == "insufficient_scope"
    assert err["message"] == "This token lacks the scope(s): account:read."


def test_token_cannot_change_the_profile(user, make_token):
    _, plain = make_token(user, ["account:read"])
    response = token_client(plain).patch(url("me"), {"display_name": "Hacker"})
    assert response.status_code == 403
    assert error(response)["code"] == "session_required"
    user.refresh_from_db()
    assert user.display_name == ""


def test_session_unsafe_request_without_csrf_token_is_refused(user):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.patch(url("me"), {"display_name": "Al"})
    assert response.status_code == 403
    assert "CSRF" in error(response)["message"]
    token = client.get(url("csrf")).json()["csrf_token"]
    response = client.patch(url("me"), {"display_name": "Al"}, HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200
    assert response.json()["display_name"] == "Al"


def test_token_requests_need_no_csrf(user, make_token):
    _, plain = make_token(user)
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    assert client.post(url("logout")).status_code == 204


def test_a_bearer_token_wins_over_a_session_cookie(make_user, make_token, user):
    bob = make_user("Bob")
    _, plain = make_token(bob)
    client = APIClient()
    client.force_login(user)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    assert client.get(url("me")).json()["username"] == "Bob"
