"""GET/PATCH /accounts/me."""

from __future__ import annotations

import pytest

from .conftest import error, url

pytestmark = pytest.mark.django_db


def test_profile_fields(session_client, user):
    body = session_client.get(url("me")).json()
    assert set(body) == {"id", "username", "display_name", "email", "language", "time_zone", "is_bot", "date_joined"}
    assert body["id"] == user.pk
    assert body["email"] == "alice@example.org"


def test_patch_updates_the_editable_fields(session_client, user):
    response = session_client.patch(
        url("me"),
        {"display_name": "Alice W.", "email": "new@example.org", "language": "cs", "time_zone": "America/New_York"},
    )
    assert response.status_code == 200, response.content
    user.refresh_from_db()
    assert (user.display_name, user.email, user.language, user.time_zone) == (
        "Alice W.", "new@example.org", "cs", "America/New_York"
    )
    assert response.json()["language"] == "cs"


def test_patch_ignores_read_only_fields(session_client, user):
    response = session_client.patch(url("me"), {"username": "Mallory", "is_bot": True, "display_name": "A"})
    assert response.status_code == 200
    user.refresh_from_db()
    assert (user.username, user.is_bot, user.display_name) == ("Alice", False, "A")


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"language": "fr"}, "language", "Choose a language: en, de, cs."),
        ({"time_zone": "Europe/Atlantis"}, "time_zone",
         "Unknown time zone 'Europe/Atlantis': use an IANA name such as 'Europe/Prague' or 'UTC'."),
        ({"time_zone": ""}, "time_zone", "This field may not be blank."),
        ({"email": "not-an-email"}, "email", "Enter a valid email address."),
        ({"display_name": "x" * 41}, "display_name", "Ensure this field has no more than 40 characters."),
    ],
)
def test_patch_validation(session_client, user, data, field, message):
    response = session_client.patch(url("me"), data)
    assert response.status_code == 400
    err = error(response)
    assert err["fields"][field] == [message]
    assert err["message"] == f"{field}: {message}"
    user.refresh_from_db()
    assert user.language == "en" and user.time_zone == "UTC"


def test_display_name_can_be_cleared(session_client, user):
    user.display_name = "Al"
    user.save()
    assert session_client.patch(url("me"), {"display_name": ""}).status_code == 200
    user.refresh_from_db()
    assert user.display_name == ""
