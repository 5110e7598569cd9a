"""Security issue #32, finding 1: failed logins of one account from all addresses together are limited
(``login_account``, ``THROTTLE_LOGIN_ACCOUNT``: accounts/throttles.py ``LoginAccountThrottle``), which slows a
guesser spread over many addresses, while the owner is never locked out for long: a browser that logged in to
the account before is exempt, and everyone else waits at most until the window ends."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

import accounts.throttles as throttles
from accounts.throttles import AdminLoginThrottle, remember_device

from .conftest import PASSWORD, error, url

pytestmark = pytest.mark.django_db

DEVICE_COOKIE = "claim_login_device"  # accounts.throttles.DEVICE_COOKIE (a literal: the old code has none)


def login(client: APIClient, username: str = "Alice", password: str = PASSWORD):
    return client.post(url("login"), {"username": username, "password": password})


def set_rates(settings, **rates: str) -> None:
    rf = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {**rf, "DEFAULT_THROTTLE_RATES": {**rf["DEFAULT_THROTTLE_RATES"], **rates}}


def address(i: int) -> APIClient:
    return APIClient(REMOTE_ADDR=f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}")


def test_failed_logins_from_many_addresses_share_the_account_limit(user, settings):
    set_rates(settings, login="10/min", login_account="5/15min")
    answers = [login(address(i), "Alice", f"guess-{i}").status_code for i in range(5)]
    assert answers == [400] * 5
    response = login(address(99))  # a new address, the right password: held off until the window ends
    assert response.status_code == 429
    retry_after = int(response["Retry-After"])
    assert 0 < retry_after <= 900
    err = error(response)
    assert err["code"] == "throttled" and err["retry_after"] == retry_after
    assert err["message"].startswith("Too many login attempts. Try again in ")
    assert '"login_account";q=5;w=900' in response["RateLimit-Policy"]
    assert f'"login_account";r=0;t={retry_after}' in response["RateLimit"]
    # Every spelling of the name is the same account; another account is not held up.
    assert login(address(100), "".join(chr(ord(c) + 0xFEE0) for c in "ALICE")).status_code == 429
    assert login(address(101), "Nobody", "x").status_code == 400


def test_allowed_attempts_report_what_is_left(user, settings):
    set_rates(settings, login_account="5/15min")
    response = login(address(1), "Alice", "nope")
    assert response.status_code == 400
    assert '"login_account";r=4;' in response["RateLimit"]


def test_the_owners_browser_is_never_held_off(user, settings):
    set_rates(settings, login="10/min", login_account="3/15min")
    owner = address(7)
    assert login(owner).status_code == 200
    assert owner.cookies[DEVICE_COOKIE]["httponly"]
    assert owner.post(url("logout")).status_code == 204
    for i in range(20):  # the attack, from 20 addresses
        login(address(1000 + i), "alice", f"guess-{i}")
    assert login(address(2000)).status_code == 429
    assert login(owner, "ALICE").status_code == 200  # the owner's browser still gets in
    assert login(owner, "alice", "typo").status_code == 400  # (its own typos: the per-address limit only)


def test_another_accounts_or_a_forged_device_cookie_is_not_an_exemption(user, make_user, settings):
    set_rates(settings, login="10/min", login_account="2/15min")
    make_user("Mallory")
    mallory = address(5)
    assert login(mallory, "Mallory").status_code == 200
    for i in range(2):
        assert login(address(10 + i), "alice", "nope").status_code == 400
    assert login(mallory).status_code == 429  # Mallory's own device cookie names Mallory, not Alice
    forged = address(6)
    forged.cookies[DEVICE_COOKIE] = str(user.pk)
    assert login(forged).status_code == 429


def test_the_window_ends_and_the_count_starts_again(user, settings, monkeypatch):
    """Never locked out for long: at most one window (time moved on by patching the throttle's clock)."""
    set_rates(settings, login="10/min", login_account="2/15min")
    now = [1_700_000_000.0]
    monkeypatch.setattr(throttles.time, "time", lambda: now[0])
    for i in range(2):
        assert login(address(i), "alice", "nope").status_code == 400
    response = login(address(50))
    assert response.status_code == 429
    now[0] += int(response["Retry-After"])
    assert login(address(51)).status_code == 200


def test_successful_and_refused_attempts_do_not_count_as_failures(user, settings):
    set_rates(settings, login="2/min", login_account="3/15min")
    for i in range(5):  # the owner logging in again and again, from several addresses
        assert login(address(i)).status_code == 200
    noisy = address(40)
    assert [login(noisy, "alice", "nope").status_code for _ in range(6)] == [400, 400, 429, 429, 429, 429]
    # The four refused by the per-address limit checked no password: one failure is left for the account.
    assert login(address(41), "alice", "nope").status_code == 400
    assert login(address(42)).status_code == 429


def test_the_admin_login_counts_against_the_account_too(make_user, settings):
    set_rates(settings, login="10/min", login_account="3/15min")
    root = make_user("root", is_staff=True, is_superuser=True)
    answers = [Client(REMOTE_ADDR=f"10.1.0.{i}").post("/admin/login/", {"username": "ROOT", "password": f"x{i}"})
               .status_code for i in range(3)]
    assert answers == [200, 200, 200]  # the form again, with its error
    blocked = Client(REMOTE_ADDR="10.1.0.99").post("/admin/login/", {"username": "root", "password": PASSWORD})
    assert blocked.status_code == 429 and int(blocked["Retry-After"]) > 0
    assert login(address(77), "root").status_code == 429  # one account, one count, whichever door
    # A browser that signed in to root before goes through, and the admin's login sets that cookie too.

    signed = HttpResponse()
    remember_device(signed, root)
    device = Client(REMOTE_ADDR="10.1.0.98")
    device.cookies[DEVICE_COOKIE] = signed.cookies[DEVICE_COOKIE].value
    signed_in = device.post("/admin/login/?next=/admin/", {"username": "root", "password": PASSWORD})
    assert signed_in.status_code == 302, signed_in.content[:300]
    assert DEVICE_COOKIE in signed_in.cookies


def test_password_changes_are_limited_per_account(session_client, settings):
    set_rates(settings, login="3/min")
    answers = [session_client.post(url("password/change"), {"old_password": f"wrong-{i}",
                                                           "new_password": "Another-horse-77"}).status_code
               for i in range(5)]
    assert answers == [400, 400, 400, 429, 429], answers
    response = session_client.post(url("password/change"), {"old_password": "x", "new_password": "y"})
    assert '"password_change";r=0' in response["RateLimit"]


def test_one_account_throttle_checks_two_requests(settings):
    """DRF keeps a request's cache key on the throttle as ``key``; the account throttles' own key method has
    another name, so that value does not hide it and the same instance checks a second request (mypy found
    the clash: the second check raised TypeError, 'str' object is not callable)."""


    set_rates(settings, login="1/min")
    throttle = AdminLoginThrottle()
    request = RequestFactory().post("/admin/login/", REMOTE_ADDR="10.2.0.1")
    assert throttle.allow_request(request, None) is True
    assert throttle.allow_request(request, None) is False  # the rate's one request is used
    assert throttle.key == "throttle_login_admin:10.2.0.1"
