"""POST /accounts/login, /accounts/logout, GET /accounts/csrf."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from .conftest import PASSWORD, error, url

pytestmark = pytest.mark.django_db

WRONG = "Wrong username or password."


def login(client, username="Alice", password=PASSWORD):
    return client.post(url("login"), {"username": username, "password": password})


def lower_rate(settings, scope: str, rate: str) -> None:
    rf = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {**rf, "DEFAULT_THROTTLE_RATES": {**rf["DEFAULT_THROTTLE_RATES"], scope: rate}}


@pytest.mark.parametrize("typed", ["Alice", "alice", "ALICE"])
def test_login_is_case_insensitive_and_starts_a_session(api_client, user, typed):
    response = login(api_client, typed)
    assert response.status_code == 200, response.content
    assert response.json()["username"] == "Alice"
    assert api_client.session["_auth_user_id"] == str(user.pk)
    assert api_client.get(url("me")).status_code == 200
    user.refresh_from_db()
    assert user.last_login is not None


def test_wrong_password_and_unknown_user_look_the_same(api_client, user):
    wrong_password = login(api_client, "Alice", "not-the-password")
    unknown_user = login(api_client, "Nobody", PASSWORD)
    assert wrong_password.status_code == unknown_user.status_code == 400
    assert wrong_password.json() == unknown_user.json()
    assert error(wrong_password)["message"] == WRONG
    assert api_client.get(url("me")).status_code == 401


def test_disabled_account_cannot_log_in(api_client, make_user):
    make_user("Carol", is_active=False)
    response = login(api_client, "Carol")
    assert response.status_code == 400
    assert error(response)["message"] == WRONG


def test_missing_fields(api_client):
    response = api_client.post(url("login"), {"username": "Alice"})
    assert response.status_code == 400
    assert "password" in error(response)["fields"]


def test_login_is_throttled_per_address_and_username(api_client, user, make_user, settings):
    lower_rate(settings, "login", "3/min")
    make_user("Bob")
    for _ in range(3):
        assert login(api_client, "alice", "nope").status_code == 400
    response = login(api_client, "Alice", PASSWORD)  # the right password is refused too now
    assert response.status_code == 429
    retry_after = int(response["Retry-After"])
    assert 0 < retry_after <= 60
    err = error(response)
    assert err["code"] == "throttled"
    assert err["message"].startswith("Too many login attempts. Try again in ")
    assert err["retry_after"] == retry_after
    # Another username from the same address, and the same username from elsewhere, still work.
    assert login(APIClient(), "Bob").status_code == 200
    assert login(APIClient(REMOTE_ADDR="10.9.8.7"), "Alice").status_code == 200


def test_a_forged_forwarded_for_header_does_not_reset_the_login_limit(api_client, user, settings):
    lower_rate(settings, "login", "2/min")
    for i in range(2):
        assert login(APIClient(HTTP_X_FORWARDED_FOR=f"1.2.3.{i}"), "Alice", "nope").status_code == 400
    assert login(APIClient(HTTP_X_FORWARDED_FOR="1.2.3.99"), "Alice").status_code == 429


def test_logout_ends_the_session(session_client):
    response = session_client.post(url("logout"))
    assert response.status_code == 204
    assert session_client.get(url("me")).status_code == 401


def test_logout_when_not_logged_in_is_harmless(api_client):
    assert api_client.post(url("logout")).status_code == 204


def test_csrf_endpoint_sets_the_cookie(api_client):
    response = api_client.get(url("csrf"))
    assert response.status_code == 200
    token = response.json()["csrf_token"]
    assert token
    assert "csrftoken" in response.cookies


def test_browser_login_needs_the_csrf_token(user):
    client = APIClient(enforce_csrf_checks=True)
    response = login(client)
    assert response.status_code == 403
    err = error(response)
    assert err["code"] == "permission_denied"
    assert "CSRF" in err["message"]
    token = client.get(url("csrf")).json()["csrf_token"]
    response = client.post(url("login"), {"username": "alice", "password": PASSWORD}, HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200
    # Login rotates the token: the old one no longer works for unsafe requests, the new cookie does.
    assert client.post(url("logout"), HTTP_X_CSRFTOKEN=token).status_code == 403
    new_token = client.cookies["csrftoken"].value
    assert client.post(url("logout"), HTTP_X_CSRFTOKEN=new_token).status_code == 204


@pytest.mark.django_db
def test_issue22_admin_login_is_throttled(client, settings):
    cache.clear()
    answers = [client.post("/admin/login/", {"username": "admin", "password": f"wrong-{i}"}).status_code
               for i in range(30)]
    assert answers[0] == 200 and 429 in answers, answers  # 200: the form again, with its error
    assert answers.index(429) <= 10
    r = client.post("/admin/login/", {"username": "admin", "password": "x"})
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
