"""Password change and the reset flow (e-mail read from the locmem outbox)."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from rest_framework.test import APIClient

from accounts.mail import send_password_reset_mail

from .conftest import PASSWORD, error, token_client, url

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-fresh-long-passphrase-7"
INVALID_LINK = "This reset link is invalid or has expired."


def login(client, username="Alice", password=PASSWORD):
    return client.post(url("login"), {"username": username, "password": password})


def confirm(client, uid, token, new_password):
    return client.post(url("password/reset/confirm"), {"uid": uid, "token": token, "new_password": new_password})


# --- change ---------------------------------------------------------------------------------------

def test_change_password_keeps_this_session_and_ends_others(session_client, user):
    other_device = APIClient()
    assert login(other_device).status_code == 200
    response = session_client.post(url("password/change"), {"old_password": PASSWORD, "new_password": NEW_PASSWORD})
    assert response.status_code == 204, response.content
    assert session_client.get(url("me")).status_code == 200
    assert other_device.get(url("me")).status_code == 401
    assert login(APIClient(), password=PASSWORD).status_code == 400
    assert login(APIClient(), password=NEW_PASSWORD).status_code == 200


def test_wrong_old_password_is_a_field_error(session_client, user):
    response = session_client.post(url("password/change"), {"old_password": "nope", "new_password": NEW_PASSWORD})
    assert response.status_code == 400
    assert error(response)["fields"] == {"old_password": ["Your old password is not correct."]}
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_weak_new_password_is_refused(session_client, user):
    response = session_client.post(url("password/change"), {"old_password": PASSWORD, "new_password": "alice"})
    assert response.status_code == 400
    messages = error(response)["fields"]["new_password"]
    assert any("too short" in m for m in messages)
    assert any("too similar" in m for m in messages)


def test_change_needs_a_session(api_client, user, make_token):
    assert api_client.post(url("password/change"), {}).status_code == 401
    _, plain = make_token(user, ["account:read", "games:play"])
    response = token_client(plain).post(
        url("password/change"), {"old_password": PASSWORD, "new_password": NEW_PASSWORD}
    )
    assert response.status_code == 403
    assert error(response)["code"] == "session_required"


# --- reset ----------------------------------------------------------------------------------------

def _link_from_outbox() -> tuple[str, str, str]:
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+", mail.outbox[0].body).group(0)
    query = parse_qs(urlsplit(link).query)
    return link, query["uid"][0], query["token"][0]


def test_reset_flow_end_to_end(api_client, user, settings, make_token):
    settings.FRONTEND_URL = "https://claim.example.org/"
    logged_in = APIClient()
    assert login(logged_in).status_code == 200
    bearer = token_client(make_token(user)[1])
    assert bearer.get(url("me")).status_code == 200

    response = api_client.post(url("password/reset"), {"email": "ALICE@example.org"})
    assert response.status_code == 204
    assert mail.outbox[0].to == ["alice@example.org"]
    assert "Reset your claim password" in mail.outbox[0].subject
    link, uid, token = _link_from_outbox()
    assert link.startswith("https://claim.example.org/reset-password?uid=")

    response = confirm(api_client, uid, token, NEW_PASSWORD)
    assert response.status_code == 204, response.content
    assert login(APIClient(), password=NEW_PASSWORD).status_code == 200
    assert login(APIClient(), password=PASSWORD).status_code == 400
    assert logged_in.get(url("me")).status_code == 401  # sessions from before the reset end
    assert bearer.get(url("me")).status_code == 401  # issue 22: so does every API token

    # The link works once.
    again = confirm(api_client, uid, token, "x" + NEW_PASSWORD)
    assert again.status_code == 400
    assert error(again)["message"] == INVALID_LINK


def test_reset_for_unknown_email_looks_the_same_and_sends_nothing(api_client, user):
    response = api_client.post(url("password/reset"), {"email": "nobody@example.org"})
    assert response.status_code == 204
    assert response.content == b""
    assert mail.outbox == []


@pytest.mark.parametrize("change", [{"is_active": False}, {"password": None}])
def test_no_mail_for_disabled_or_passwordless_accounts(api_client, make_user, change):
    u = make_user("Dora")
    if change.get("password", "") is None:
        u.set_unusable_password()
    else:
        u.is_active = False
    u.save()
    assert api_client.post(url("password/reset"), {"email": "dora@example.org"}).status_code == 204
    assert mail.outbox == []


def test_reset_mails_every_account_with_that_address(api_client, make_user):
    make_user("Eve", email="shared@example.org")
    make_user("Finn", email="Shared@Example.org")
    assert api_client.post(url("password/reset"), {"email": "shared@example.org"}).status_code == 204
    assert sorted(m.to[0] for m in mail.outbox) == ["Shared@example.org", "shared@example.org"]


def test_reset_needs_a_valid_email(api_client):
    response = api_client.post(url("password/reset"), {"email": "nope"})
    assert response.status_code == 400
    assert "email" in error(response)["fields"]


@pytest.mark.parametrize(
    ("uid", "token"),
    [("garbage", "garbage"), ("MQ", "bad-token"), ("", "x"), ("!!", "x")],
)
def test_confirm_with_a_bad_link(api_client, user, uid, token):
    response = confirm(api_client, uid, token, NEW_PASSWORD)
    assert response.status_code == 400
    err = error(response)
    if uid:
        assert err["message"] == INVALID_LINK
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_confirm_with_an_expired_link(api_client, user, monkeypatch):
    api_client.post(url("password/reset"), {"email": user.email})
    _, uid, token = _link_from_outbox()
    later = default_token_generator._now() + timedelta(days=4)
    monkeypatch.setattr(default_token_generator, "_now", lambda: later)
    response = confirm(api_client, uid, token, NEW_PASSWORD)
    assert response.status_code == 400
    assert error(response)["message"] == INVALID_LINK


def test_confirm_checks_the_new_password(api_client, user):
    api_client.post(url("password/reset"), {"email": user.email})
    _, uid, token = _link_from_outbox()
    response = confirm(api_client, uid, token, "12345678")
    assert response.status_code == 400
    assert "new_password" in error(response)["fields"]
    # The link is still good after a refused password.
    response = confirm(api_client, uid, token, NEW_PASSWORD)
    assert response.status_code == 204


def _lower_reset_rate(settings, rate):
    rf = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {**rf, "DEFAULT_THROTTLE_RATES": {**rf["DEFAULT_THROTTLE_RATES"], "password_reset": rate}}


def test_reset_is_throttled_per_address(api_client, settings):
    _lower_reset_rate(settings, "2/hour")
    for i in range(2):
        assert api_client.post(url("password/reset"), {"email": f"x{i}@example.org"}).status_code == 204
    response = api_client.post(url("password/reset"), {"email": "x9@example.org"})
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert error(response)["message"].startswith("Too many password reset requests.")


def test_reset_is_throttled_per_email_across_addresses(settings):
    _lower_reset_rate(settings, "2/hour")
    for i in range(2):
        client = APIClient(REMOTE_ADDR=f"10.0.0.{i}")
        assert client.post(url("password/reset"), {"email": "victim@example.org"}).status_code == 204
    response = APIClient(REMOTE_ADDR="10.0.0.50").post(url("password/reset"), {"email": "VICTIM@example.org"})
    assert response.status_code == 429


def test_issue22_a_logging_email_backend_in_production_never_writes_a_reset_link(api_client, user, settings, caplog):
    """check --deploy warns (claim.W001, tests/foundation/test_infrastructure.py); and the link is not written."""
    settings.EMBEDDED, settings.DEBUG = False, False
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    caplog.set_level("INFO")
    send_password_reset_mail(user)
    assert "reset-password" not in caplog.text and "not sent" in caplog.text
