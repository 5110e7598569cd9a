"""POST /accounts/register."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts import serializers
from accounts.models import User

from .conftest import PASSWORD, error, url

pytestmark = pytest.mark.django_db


def register(client, **data):
    data.setdefault("username", "Bob")
    data.setdefault("password", PASSWORD)
    return client.post(url("register"), data)


def test_register_creates_account_logs_in_and_returns_profile(api_client):
    response = register(api_client, email="bob@example.org", display_name="Bobby", language="de",
                        time_zone="Europe/Prague")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["username"] == "Bob"
    assert body["display_name"] == "Bobby"
    assert body["email"] == "bob@example.org"
    assert body["language"] == "de"
    assert body["time_zone"] == "Europe/Prague"
    assert body["is_bot"] is False
    assert "password" not in body
    user = User.objects.get(username="Bob")
    assert user.check_password(PASSWORD)
    assert user.password != PASSWORD
    # The same client now has a session.
    me = api_client.get(url("me"))
    assert me.status_code == 200
    assert me.json()["username"] == "Bob"


def test_register_defaults(api_client):
    body = register(api_client).json()
    assert (body["email"], body["display_name"], body["language"], body["time_zone"]) == ("", "", "en", "UTC")


@pytest.mark.parametrize("taken", ["bob", "BOB", "Bob"])
def test_duplicate_username_is_refused_case_insensitively(api_client, make_user, taken):
    make_user("Bob")
    response = register(api_client, username=taken)
    assert response.status_code == 400
    err = error(response)
    assert err["code"] == "invalid"
    assert err["fields"]["username"] == ["This username is taken."]
    assert User.objects.filter(username__iexact="bob").count() == 1


def test_race_on_the_same_name_still_gives_the_field_message(api_client, make_user, monkeypatch):
    """The unique index catches a concurrent sign-up that passed the existence check."""
    make_user("Bob")
    monkeypatch.setattr(serializers.RegisterSerializer, "validate_username", lambda self, value: value)
    response = register(api_client, username="BOB")
    assert response.status_code == 400
    assert error(response)["fields"]["username"] == ["This username is taken."]


@pytest.mark.parametrize(
    ("password", "fragment"),
    [
        ("short1", "too short"),
        ("password123", "too common"),
        ("8461937205", "entirely numeric"),
        ("bob-the-builder", "too similar"),
    ],
)
def test_weak_passwords_are_refused_with_the_validator_message(api_client, password, fragment):
    response = register(api_client, username="bob-the-builder", password=password)
    assert response.status_code == 400
    err = error(response)
    assert any(fragment in m for m in err["fields"]["password"]), err
    assert not User.objects.exists()


@pytest.mark.parametrize("username", ["a", "x" * 31, "bad name", "_lead", "emoji🙂", "a@b"])
def test_invalid_usernames(api_client, username):
    response = register(api_client, username=username)
    assert response.status_code == 400
    assert "username" in error(response)["fields"]


def test_bad_language_and_time_zone(api_client):
    response = register(api_client, language="fr", time_zone="Mars/Olympus")
    assert response.status_code == 400
    fields = error(response)["fields"]
    assert fields["language"] == ["Choose a language: en, de, cs."]
    assert "Unknown time zone 'Mars/Olympus'" in fields["time_zone"][0]


def test_missing_fields(api_client):
    response = api_client.post(url("register"), {})
    assert response.status_code == 400
    assert set(error(response)["fields"]) == {"username", "password"}


def test_register_needs_csrf_for_browsers():
    client = APIClient(enforce_csrf_checks=True)
    response = register(client)
    assert response.status_code == 403
    assert "CSRF" in error(response)["message"]
    token = client.get(url("csrf")).json()["csrf_token"]
    response = client.post(url("register"), {"username": "Bob", "password": PASSWORD}, HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 201, response.content


def test_register_is_throttled_per_address(api_client, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "register": "2/hour"},
    }
    assert register(api_client, username="u1").status_code == 201
    assert register(APIClient(), username="u2").status_code == 201
    response = register(APIClient(), username="u3")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert error(response)["message"].startswith("Too many sign-ups from this address.")
    other = APIClient(REMOTE_ADDR="10.1.2.3")
    assert register(other, username="u4").status_code == 201
