"""OAuth 2 authorization code + PKCE (S256) for public clients (issue 26, accounts/oauth.py, docs/api.md "OAuth").

The whole flow through the Django test client: /o/authorize/ → the PWA screen's API (check, consent) → the
app's redirect URI with code and state → /o/token/ with the verifier → the API with the access token; then
refresh, revocation (RFC 7009 and the user's list), the password reset, and what must be refused.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_application_model
from rest_framework.test import APIClient

from accounts.services import set_new_password

from .conftest import PASSWORD, error, token_client, url

pytestmark = pytest.mark.django_db

REDIRECT = "http://127.0.0.1:8765/callback"


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


@pytest.fixture
def app(db):
    return get_application_model().objects.create(
        name="Lichess-style bot client", client_type="public", authorization_grant_type="authorization-code",
        redirect_uris=REDIRECT, skip_authorization=False)


def authorize_query(app, challenge: str, **over) -> dict:
    query = {"client_id": app.client_id, "redirect_uri": REDIRECT, "response_type": "code",
             "scope": "games:read games:play", "state": "st-123", "code_challenge": challenge,
             "code_challenge_method": "S256"}
    query.update(over)
    return {k: v for k, v in query.items() if v is not None}


def consent(client, app, challenge: str, allow: bool = True, **over) -> dict:
    """The PWA screen's two calls: check the request, then post the decision; returns the POST's answer."""
    checked = client.get("/api/v1/oauth/authorize?" + urlencode(authorize_query(app, challenge, **over)))
    assert checked.status_code == 200, checked.content
    response = client.post("/api/v1/oauth/authorize", {**checked.json()["request"], "allow": allow}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def exchange(app, code: str, verifier: str, redirect_uri: str = REDIRECT):
    return Client().post("/o/token/", {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri,
                                       "client_id": app.client_id, "code_verifier": verifier})


def code_from(redirect_to: str) -> str:
    parts = urlsplit(redirect_to)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == REDIRECT
    query = parse_qs(parts.query)
    assert query["state"] == ["st-123"]
    assert query["iss"] == ["http://testserver"]  # RFC 9207: the client checks who answered
    return query["code"][0]


def tokens_for(session_client, app, scope: str = "games:read games:play") -> dict:
    verifier, challenge = pkce()
    code = code_from(consent(session_client, app, challenge, scope=scope)["redirect_to"])
    response = exchange(app, code, verifier)
    assert response.status_code == 200, response.content
    return response.json()


def test_the_full_authorization_code_pkce_flow(session_client, user, app):
    verifier, challenge = pkce()
    query = authorize_query(app, challenge)
    # The app's link goes to the PWA's consent screen with the same query (same origin, fixed path).
    start = Client().get("/o/authorize/?" + urlencode(query))
    assert start.status_code == 302
    assert start["Location"].startswith("/#/authorize?")
    assert parse_qs(start["Location"].split("?", 1)[1]) == {k: [v] for k, v in query.items()}
    # The screen's check: the app's name and the scopes in words.
    checked = session_client.get("/api/v1/oauth/authorize?" + urlencode(query))
    assert checked.status_code == 200, checked.content
    body = checked.json()
    assert body["application"] == {"name": "Lichess-style bot client", "client_id": app.client_id}
    assert [s["scope"] for s in body["scopes"]] == ["games:read", "games:play"]
    assert all(s["description"] for s in body["scopes"])
    assert body["request"]["state"] == "st-123" and body["request"]["code_challenge"] == challenge
    # Allow → the app's redirect URI with the code and the state.
    decided = session_client.post("/api/v1/oauth/authorize", {**body["request"], "allow": True}, format="json")
    assert decided.status_code == 200, decided.content
    code = code_from(decided.json()["redirect_to"])
    # The app exchanges the code with the verifier (no client secret: a public client).
    issued = exchange(app, code, verifier)
    assert issued.status_code == 200, issued.content
    tokens = issued.json()
    assert tokens["token_type"] == "Bearer" and tokens["scope"] == "games:read games:play"
    assert tokens["access_token"].startswith("clo_") and tokens["refresh_token"].startswith("clr_")
    # Only a digest is stored.

    row = get_access_token_model().objects.get(user=user)
    assert row.token == "" and row.token_checksum == hashlib.sha256(tokens["access_token"].encode()).hexdigest()
    # The access token works on the API like a personal token with these scopes.
    client = token_client(tokens["access_token"])
    assert client.get("/api/v1/games").status_code == 200
    refused = client.get(url("me"))  # account:read was not granted
    assert refused.status_code == 403 and error(refused)["code"] == "insufficient_scope"
    assert "account:read" in error(refused)["message"]
    # A code works once.
    again = exchange(app, code, verifier)
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    # The refresh token gives a new access token (and a new refresh token: rotation).
    refreshed = Client().post("/o/token/", {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
                                            "client_id": app.client_id})
    assert refreshed.status_code == 200, refreshed.content
    assert refreshed.json()["access_token"].startswith("clo_")
    assert token_client(refreshed.json()["access_token"]).get("/api/v1/games").status_code == 200


def test_account_read_scope_reads_the_profile(session_client, app):
    tokens = tokens_for(session_client, app, scope="account:read")
    assert token_client(tokens["access_token"]).get(url("me")).json()["username"] == "Alice"


def test_deny_sends_access_denied_with_the_state(session_client, app):
    _, challenge = pkce()
    answer = consent(session_client, app, challenge, allow=False)
    parts = urlsplit(answer["redirect_to"])
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == REDIRECT
    assert parse_qs(parts.query) == {"error": ["access_denied"], "state": ["st-123"]}


def test_wrong_verifier_is_refused(session_client, app):
    _, challenge = pkce()
    code = code_from(consent(session_client, app, challenge)["redirect_to"])
    response = exchange(app, code, secrets.token_urlsafe(48))
    assert response.status_code == 400 and response.json()["error"] == "invalid_grant"


def test_no_verifier_is_refused(session_client, app):
    _, challenge = pkce()
    code = code_from(consent(session_client, app, challenge)["redirect_to"])
    response = Client().post("/o/token/", {"grant_type": "authorization_code", "code": code,
                                           "redirect_uri": REDIRECT, "client_id": app.client_id})
    assert response.status_code == 400


def test_plain_pkce_is_refused(session_client, app):
    verifier = secrets.token_urlsafe(48)
    query = authorize_query(app, verifier, code_challenge_method="plain")
    checked = session_client.get("/api/v1/oauth/authorize?" + urlencode(query))
    # Either the check refuses it, or (if oauthlib lets it through the check) the consent does.
    if checked.status_code == 200:
        posted = session_client.post("/api/v1/oauth/authorize", {**checked.json()["request"], "allow": True},
                                     format="json")
        assert posted.status_code == 400
    else:
        assert checked.status_code == 400
    # And a forged consent naming plain is refused by the body's validation.
    forged = session_client.post("/api/v1/oauth/authorize", {**query, "allow": True}, format="json")
    assert forged.status_code == 400 and "code_challenge_method" in error(forged).get("fields", {})


def test_missing_pkce_is_refused(session_client, app):
    query = authorize_query(app, "x", code_challenge=None, code_challenge_method=None)
    checked = session_client.get("/api/v1/oauth/authorize?" + urlencode(query))
    assert checked.status_code == 400, checked.content
    assert "code challenge" in error(checked)["message"].lower()


def test_wrong_redirect_uri_is_refused_without_redirecting(session_client, app):
    _, challenge = pkce()
    for bad in ("http://127.0.0.1:8765/callback/evil", "https://evil.example/callback",
                "http://127.0.0.1:8765/callback?x=1", "http://localhost:8765/callback", "http://127.0.0.1:8765/"):
        checked = session_client.get("/api/v1/oauth/authorize?" + urlencode(authorize_query(app, challenge,
                                                                                          redirect_uri=bad)))
        assert checked.status_code == 400, (bad, checked.content)
        assert "redirect_to" not in error(checked), bad  # never sent to an unregistered address
        forged = session_client.post("/api/v1/oauth/authorize",
                                     {**authorize_query(app, challenge, redirect_uri=bad), "allow": True},
                                     format="json")
        assert forged.status_code == 400 and "redirect_to" not in error(forged), bad


def test_a_loopback_redirect_may_use_any_port(session_client, app):
    """RFC 8252 7.3: a native app listens on a port it gets from the system; only the port may differ."""
    _, challenge = pkce()
    checked = session_client.get("/api/v1/oauth/authorize?" + urlencode(authorize_query(
        app, challenge, redirect_uri="http://127.0.0.1:50123/callback")))
    assert checked.status_code == 200


def test_the_code_is_bound_to_its_redirect_uri(session_client, app):
    app.redirect_uris = REDIRECT + " http://127.0.0.1:8765/other"
    app.save()
    verifier, challenge = pkce()
    code = code_from(consent(session_client, app, challenge)["redirect_to"])
    response = exchange(app, code, verifier, redirect_uri="http://127.0.0.1:8765/other")
    assert response.status_code == 400


def test_unknown_client_is_refused(session_client, app):
    _, challenge = pkce()
    checked = session_client.get("/api/v1/oauth/authorize?" + urlencode(authorize_query(app, challenge,
                                                                                      client_id="nope")))
    assert checked.status_code == 400 and "redirect_to" not in error(checked)


def test_unknown_scope_is_refused_and_the_app_is_told(session_client, app):
    _, challenge = pkce()
    checked = session_client.get("/api/v1/oauth/authorize?" + urlencode(authorize_query(app, challenge,
                                                                                      scope="games:read admin")))
    assert checked.status_code == 400
    assert error(checked)["code"] == "oauth_invalid_scope"
    assert error(checked)["redirect_to"].startswith(REDIRECT + "?")


def test_bot_scope_needs_a_bot_account(session_client, app):
    _, challenge = pkce()
    checked = session_client.get("/api/v1/oauth/authorize?" + urlencode(authorize_query(app, challenge,
                                                                                      scope="bot:play")))
    assert checked.status_code == 400 and "bot" in error(checked)["message"]


def test_consent_needs_a_session_and_csrf(user, app):
    _, challenge = pkce()
    query = authorize_query(app, challenge)
    anonymous = APIClient().get("/api/v1/oauth/authorize?" + urlencode(query))
    assert anonymous.status_code in (401, 403)
    client = APIClient(enforce_csrf_checks=True)
    assert client.post(url("login"), {"username": user.username, "password": PASSWORD}).status_code in (200, 403)
    client.force_login(user)
    checked = client.get("/api/v1/oauth/authorize?" + urlencode(query))
    assert checked.status_code == 200
    no_csrf = client.post("/api/v1/oauth/authorize", {**checked.json()["request"], "allow": True}, format="json")
    assert no_csrf.status_code == 403 and "csrf" in no_csrf.content.decode().lower()


def test_a_token_cannot_consent(session_client, user, app, make_token):
    _, challenge = pkce()
    tokens = tokens_for(session_client, app, scope="games:read")
    for plain in (tokens["access_token"], make_token(user, ["games:read"])[1]):
        response = token_client(plain).get("/api/v1/oauth/authorize?" + urlencode(authorize_query(app, challenge)))
        assert response.status_code == 403 and error(response)["code"] == "session_required"


def test_rfc7009_revocation_ends_rest_access(session_client, app):
    tokens = tokens_for(session_client, app)
    client = token_client(tokens["access_token"])
    assert client.get("/api/v1/games").status_code == 200
    revoked = Client().post("/o/revoke_token/", {"token": tokens["access_token"], "client_id": app.client_id})
    assert revoked.status_code == 200
    after = client.get("/api/v1/games")
    assert after.status_code == 401 and "revoked" in error(after)["message"]
    # The refresh token bound to it ended too (DOT revokes both).
    refreshed = Client().post("/o/token/", {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
                                            "client_id": app.client_id})
    assert refreshed.status_code == 400


def test_the_user_lists_and_revokes_authorized_apps(session_client, app):
    tokens = tokens_for(session_client, app)
    listed = session_client.get(url("oauth/apps"))
    assert listed.status_code == 200
    assert [(a["id"], a["name"], a["scopes"]) for a in listed.json()] == [
        (app.pk, "Lichess-style bot client", ["games:play", "games:read"])]
    assert session_client.delete(url(f"oauth/apps/{app.pk}")).status_code == 204
    assert token_client(tokens["access_token"]).get("/api/v1/games").status_code == 401
    assert session_client.get(url("oauth/apps")).json() == []
    assert session_client.delete(url(f"oauth/apps/{app.pk}")).status_code == 404
    refreshed = Client().post("/o/token/", {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
                                            "client_id": app.client_id})
    assert refreshed.status_code == 400


def test_another_users_app_grant_is_not_theirs_to_revoke(session_client, app, make_user):
    tokens_for(session_client, app)
    other = APIClient()
    other.force_login(make_user("Bob"))
    assert other.delete(url(f"oauth/apps/{app.pk}")).status_code == 404
    assert session_client.get(url("oauth/apps")).json() != []


def test_password_reset_revokes_oauth_tokens(session_client, user, app):
    tokens = tokens_for(session_client, app)
    set_new_password(user, "A-new-password-77", reset=True)
    assert token_client(tokens["access_token"]).get("/api/v1/games").status_code == 401
    refreshed = Client().post("/o/token/", {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
                                            "client_id": app.client_id})
    assert refreshed.status_code == 400


def test_an_expired_access_token_is_refused_with_a_hint(session_client, user, app):
    tokens = tokens_for(session_client, app)
    get_access_token_model().objects.filter(user=user).update(expires=timezone.now())
    response = token_client(tokens["access_token"]).get("/api/v1/games")
    assert response.status_code == 401 and "refresh" in error(response)["message"]


def test_the_consent_screen_cannot_be_framed(user):
    response = Client().get("/o/authorize/?client_id=x")
    shell = Client().get("/")
    for r in (response, shell):
        assert r["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in r["Content-Security-Policy"]


def test_a_reused_refresh_token_revokes_its_family(session_client, app):
    tokens = tokens_for(session_client, app)

    def refresh(token: str):
        return Client().post("/o/token/", {"grant_type": "refresh_token", "refresh_token": token,
                                           "client_id": app.client_id})

    first = refresh(tokens["refresh_token"])
    assert first.status_code == 200
    assert refresh(tokens["refresh_token"]).status_code == 400  # the old one, again: someone copied it
    assert refresh(first.json()["refresh_token"]).status_code == 400  # so the new one ended as well
