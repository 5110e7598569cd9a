"""GET/PATCH /accounts/me."""

from __future__ import annotations

import pytest

from .conftest import error, url

pytestmark = pytest.mark.django_db


def test_profile_fields(session_client, user):
    body = session_client.get(url("me")).json()
    assert set(body) == {"id", "username", "display_name", "email", "language", "time_zone", "is_bot", "date_joined",
                         "hide_presence"}
    assert body["id"] == user.pk and body["hide_presence"] is False
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


@pytest.mark.parametrize(("name", "words"), [
    ("Bob", "another player's username"), ("BOB", "another player's username"),
    ("\uff42\uff4f\uff42", "another player's username"),
    ("AI (King)", 'start with "AI ("'), ("ai(knight)", 'start with "AI ("'), ("A I (King)", 'start with "AI ("'),
    ("\u0410I (King)", "cannot mix"), ("\u0391I (Knight)", "cannot mix"), ("\u0410lice", "cannot mix"),
    ("b\u03bfb", "cannot mix"),  # Latin b, Greek omicron
    (123, "Must be a string"), (1.5, "Must be a string"),
    ("Alice\u202e", "U+202E"), ("Al\u200bice", "U+200B"), ("x\u2066y", "U+2066"), ("a\u0000", "forbidden"),
])
def test_issue22_display_name_cannot_impersonate_or_hide_characters(session_client, user, make_user, name, words):
    make_user("bob")
    r = session_client.patch(url("me"), {"display_name": name}, format="json")
    assert r.status_code == 400, (name, r.content)
    message = r.json()["error"]["message"]
    assert words in message or "NUL" in message, message


@pytest.mark.parametrize("name", ["Алёна", "Ζωή", "Zdeňka Nováková", "山田 花子", "Émile O'Brien-Łukasz", "R2-D2"])
def test_a_display_name_in_one_script_is_fine(session_client, user, name):
    r = session_client.patch(url("me"), {"display_name": name}, format="json")
    assert r.status_code == 200 and r.json()["display_name"] == name, r.content


def test_an_unknown_profile_field_is_refused_and_a_read_only_one_ignored(session_client, user):
    r = session_client.patch(url("me"), {"is_staff": True, "display_name": "Al"}, format="json")
    assert r.status_code == 400 and "Unknown field 'is_staff'" in r.json()["error"]["fields"]["is_staff"][0]
    user.refresh_from_db()
    assert not user.is_staff and user.display_name != "Al"
    r = session_client.patch(url("me"), {"username": "someone-else", "display_name": "Al"}, format="json")
    assert r.status_code == 200 and r.json()["username"] == user.username and r.json()["display_name"] == "Al"


def test_issue22_own_username_as_display_name_is_fine(session_client, user):
    r = session_client.patch(url("me"), {"display_name": user.username.upper()}, format="json")
    assert r.status_code == 200 and r.json()["display_name"] == user.username.upper()


def test_issue22_register_refuses_a_copied_username_as_display_name(api_client, make_user):
    make_user("bob")
    csrf = api_client.get(url("csrf")).json()["csrf_token"]
    r = api_client.post(url("register"), {"username": "mallory", "password": "Correct-horse-42", "display_name": "bob"},
                        format="json", HTTP_X_CSRFTOKEN=csrf)
    assert r.status_code == 400 and "another player's username" in r.json()["error"]["message"]
