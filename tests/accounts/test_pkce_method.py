"""PKCE is S256 only, refused already at the consent screen's check (issue 32, finding 5; accounts/oauth_views.py).

oauthlib lets ``code_challenge_method=plain`` (and a challenge without a method, which RFC 7636 4.3 reads as
plain) through ``validate_authorization_request``; the consent screen's ``GET`` used to answer 200 and show the
app's request, refusing only at Allow. Now the ``GET`` answers the OAuth error: 400 ``oauth_invalid_request``
and the ``redirect_to`` that tells the app (``error=invalid_request`` with its ``state``).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.test import Client
from oauth2_provider.models import get_application_model

from .conftest import error
from .test_oauth import REDIRECT, authorize_query, pkce

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_app(db):
    return get_application_model().objects.create(
        name="PKCE test app", client_type="public", authorization_grant_type="authorization-code",
        redirect_uris=REDIRECT, skip_authorization=False)


@pytest.mark.parametrize("method", ["plain", None, ""])
def test_issue32_a_non_s256_challenge_is_refused_at_the_check(session_client, client_app, method):
    verifier, _challenge = pkce()
    query = authorize_query(client_app, verifier, code_challenge_method=method)
    checked = session_client.get("/api/v1/oauth/authorize?" + urlencode(query))
    assert checked.status_code == 400, checked.content
    body = error(checked)
    assert body["code"] == "oauth_invalid_request", body
    if method != "":  # an empty method is oauthlib's own refusal ("Transform algorithm not supported.")
        assert "must be S256" in body["message"], body
    target = urlsplit(body["redirect_to"])
    assert f"{target.scheme}://{target.netloc}{target.path}" == REDIRECT
    told = parse_qs(target.query)
    assert told["error"] == ["invalid_request"] and told["state"] == ["st-123"] and told["error_description"]
    assert "code" not in told and "application" not in checked.json()


def test_s256_still_passes_the_check(session_client, client_app):
    _verifier, challenge = pkce()
    checked = session_client.get("/api/v1/oauth/authorize?" + urlencode(authorize_query(client_app, challenge)))
    assert checked.status_code == 200, checked.content
    assert checked.json()["request"]["code_challenge_method"] == "S256"


def test_a_bad_redirect_uri_with_plain_is_shown_never_redirected(session_client, client_app):
    verifier, _challenge = pkce()
    query = authorize_query(client_app, verifier, code_challenge_method="plain",
                            redirect_uri="https://evil.example/cb")
    checked = session_client.get("/api/v1/oauth/authorize?" + urlencode(query))
    assert checked.status_code == 400 and "redirect_to" not in error(checked), checked.content


@pytest.mark.parametrize("method", ["plain", None])
def test_issue34_authorize_sends_a_non_s256_request_straight_back_to_the_app(client_app, method):
    """RFC 6749 4.1.2.1: the authorization endpoint itself redirects to the (valid) redirect URI with the error and
    the state; no consent screen is shown (no login needed for that either)."""

    verifier, _challenge = pkce()
    query = authorize_query(client_app, verifier, code_challenge_method=method)
    answer = Client().get("/o/authorize/?" + urlencode(query))
    assert answer.status_code == 302
    target = urlsplit(answer["Location"])
    assert f"{target.scheme}://{target.netloc}{target.path}" == REDIRECT
    told = parse_qs(target.query)
    assert told["error"] == ["invalid_request"] and told["state"] == ["st-123"] and "code" not in told


def test_issue34_authorize_never_redirects_to_a_bad_redirect_uri(client_app):

    verifier, _challenge = pkce()
    query = authorize_query(client_app, verifier, code_challenge_method="plain", redirect_uri="https://evil.example/cb")
    answer = Client().get("/o/authorize/?" + urlencode(query))
    assert answer.status_code == 302 and answer["Location"].startswith("/#/authorize?")  # the screen shows it


def test_issue34_a_valid_request_still_goes_to_the_consent_screen(client_app):

    _verifier, challenge = pkce()
    answer = Client().get("/o/authorize/?" + urlencode(authorize_query(client_app, challenge)))
    assert answer.status_code == 302 and answer["Location"].startswith("/#/authorize?")
