"""The OAuth consent screen in the PWA (issue 26): an app sends a logged-out user to /o/authorize/; they log in,
see the app's name and the scopes in words on a phone-sized screen, allow, and the app's redirect URI gets the
code and its state, which the app exchanges with its PKCE verifier for a working token. Deny tells the app
access_denied. Screenshots go to test-artifacts/."""

from __future__ import annotations

import base64
import hashlib
import secrets
import uuid
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest
from oauth2_provider.models import get_application_model

from .conftest import shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

REDIRECT = "http://127.0.0.1:8765/callback"
PASSWORD = "Consent-horse-4711"


def _pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    return verifier, base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


@pytest.fixture
def app_and_user(django_user_model):
    name = "dora" + uuid.uuid4().hex[:6]
    django_user_model.objects.create_user(username=name, password=PASSWORD)
    app = get_application_model().objects.create(name="Lichess Bot Bridge", client_type="public",
                                                 authorization_grant_type="authorization-code", redirect_uris=REDIRECT)
    return app, name


@pytest.fixture
def german_user(app_and_user, django_user_model):
    django_user_model.objects.filter(username=app_and_user[1]).update(language="de")
    return app_and_user


def _catch_callback(page) -> list[str]:
    """The app's redirect URI is not served here: the browser's request to it is recorded and answered."""
    seen: list[str] = []

    def answer(route):
        seen.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<p id=app-callback>back in the app</p>")

    page.route(REDIRECT + "**", answer)
    return seen


def _log_in(page, username: str) -> None:
    page.get_by_role("tab", name="Log in").click()
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.locator("form button[type=submit]").click()


def test_consent_after_login_allows_and_the_app_gets_a_working_token(server, app_and_user, new_page):
    app, username = app_and_user
    verifier, challenge = _pkce()
    query = {"client_id": app.client_id, "redirect_uri": REDIRECT, "response_type": "code",
             "scope": "games:read games:play", "state": "xyz-42", "code_challenge": challenge,
             "code_challenge_method": "S256"}
    page = new_page()
    seen = _catch_callback(page)
    page.goto(f"{server}/o/authorize/?{urlencode(query)}")
    page.wait_for_url("**/#/authorize?**")
    _log_in(page, username)  # not logged in: the login comes first, then the same consent screen
    page.wait_for_selector("#authorize-allow")
    title = page.locator("#authorize-title").inner_text()
    assert "Lichess Bot Bridge" in title
    scopes = page.locator("#authorize-scopes").inner_text()
    assert "See your games" in scopes and "play games for you" in scopes
    assert "127.0.0.1:8765" in page.locator("main").inner_text()
    # Nothing overflows the phone's width.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    shot(page, "oauth-consent")
    page.click("#authorize-allow")
    page.wait_for_selector("#app-callback")
    parts = urlsplit(seen[0])
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == REDIRECT
    got = parse_qs(parts.query)
    assert got["state"] == ["xyz-42"]
    issued = httpx.post(f"{server}/o/token/", data={"grant_type": "authorization_code", "code": got["code"][0],
                                                    "redirect_uri": REDIRECT, "client_id": app.client_id,
                                                    "code_verifier": verifier})
    assert issued.status_code == 200, issued.text
    games = httpx.get(f"{server}/api/v1/games", headers={"Authorization": f"Bearer {issued.json()['access_token']}"})
    assert games.status_code == 200
    # The user finds the app under Settings and revokes it there.
    page.goto(f"{server}/#/settings")
    apps = page.locator("#authorized-apps")
    apps.get_by_text("Lichess Bot Bridge").wait_for()
    apps.scroll_into_view_if_needed()
    shot(page, "oauth-authorized-apps")
    apps.get_by_role("button", name="Revoke").click()
    apps.get_by_text("No apps authorized.").wait_for()
    after = httpx.get(f"{server}/api/v1/games", headers={"Authorization": f"Bearer {issued.json()['access_token']}"})
    assert after.status_code == 401
    assert not page.errors


def test_deny_in_german_sends_access_denied(server, german_user, new_page):
    app, username = german_user
    _, challenge = _pkce()
    query = {"client_id": app.client_id, "redirect_uri": REDIRECT, "response_type": "code", "scope": "games:read",
             "state": "s-9", "code_challenge": challenge, "code_challenge_method": "S256"}
    page = new_page(locale="de-DE")
    seen = _catch_callback(page)
    page.goto(f"{server}/#/")
    page.get_by_role("tab", name="Anmelden").click()
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.locator("form button[type=submit]").click()
    page.wait_for_selector("a[href='#/new']")
    page.goto(f"{server}/o/authorize/?{urlencode(query)}")
    page.wait_for_selector("#authorize-deny")
    assert "Lichess Bot Bridge erlauben?" in page.locator("#authorize-title").inner_text()
    assert "Deine Partien" in page.locator("#authorize-scopes").inner_text()
    shot(page, "oauth-consent-de")
    page.click("#authorize-deny")
    page.wait_for_selector("#app-callback")
    assert parse_qs(urlsplit(seen[0]).query) == {"error": ["access_denied"], "state": ["s-9"]}
    assert not page.errors


def test_a_bad_redirect_uri_is_shown_and_not_followed(server, app_and_user, new_page):
    app, username = app_and_user
    _, challenge = _pkce()
    query = {"client_id": app.client_id, "redirect_uri": "https://evil.example/steal", "response_type": "code",
             "scope": "games:read", "state": "s", "code_challenge": challenge, "code_challenge_method": "S256"}
    page = new_page()
    page.goto(f"{server}/o/authorize/?{urlencode(query)}")
    _log_in(page, username)
    error = page.locator("#authorize-error")
    error.wait_for()
    assert "redirect" in error.inner_text().lower()
    assert page.locator("main a.btn").count() == 0  # no way back to an unregistered address
    shot(page, "oauth-bad-redirect")
    assert not page.errors
