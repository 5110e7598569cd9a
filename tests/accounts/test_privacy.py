"""Your data (GDPR art. 15, 17, 20) through the API: ``GET /accounts/me/data`` (and its pages) and
``POST /accounts/me/delete`` (docs/accounts.md, "Your data"; docs/security.md, "Your data")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_application_model
from rest_framework.test import APIClient

from accounts.models import ApiToken, User
from claim.throttling import ScopedRateThrottle
from games.challenges import service as challenges
from games.challenges.models import Challenge
from games.clock.models import VacationAccount
from games.clock.vacation import account_for
from games.models import Game
from games.notify.models import Notification, PushSubscription
from games.ratings.models import Rating
from games.seeks.models import Seek
from games.seeks.service import create_seek
from games.service import create_game, join_game, resign

from .conftest import PASSWORD, error, token_client, url

pytestmark = pytest.mark.django_db

ENDPOINT = "https://fcm.googleapis.com/fcm/send/alice-phone"


def login(client: APIClient, username: str = "Alice", password: str = PASSWORD):
    return client.post(url("login"), {"username": username, "password": password})


@pytest.fixture
def world(user, make_user, make_token):
    """Alice with something in every table: a finished, an active and an open game, a seek, challenges both
    ways, a notification, a push subscription, vacation, a rating, a personal token and an OAuth token."""
    bob, carol = make_user("Bob"), make_user("Carol")
    finished = create_game(user, "claim", opponents=[{"type": "user", "username": "Bob"}])
    join_game(bob, finished.pk)
    resign(bob, finished.pk)
    active = create_game(user, "claim", opponents=[{"type": "user", "username": "Bob"}])
    join_game(bob, active.pk)
    invite = create_game(carol, "claim", opponents=[{"type": "user", "username": "Alice"}])
    create_seek(user, kind="claim", seats=3, rated=False)
    outgoing = challenges.create(user, to="Carol", kind="claim")
    incoming = challenges.create(bob, to="Alice", kind="claim")
    Notification.objects.create(user=user, event="your_turn", title="Your turn", body="In Claim #1")
    PushSubscription.objects.create(user=user, endpoint=ENDPOINT, p256dh="secret-p256dh", auth="secret-auth")
    account_for(user)
    Rating.objects.create(user=user, pool="claim:2", system="glicko2", rating=1500, deviation=350)
    token, plain = make_token(user, scopes=("games:read", "account:read"))
    app = get_application_model().objects.create(name="Board app", client_type="public", redirect_uris="",
                                                 authorization_grant_type="authorization-code")
    oauth = get_access_token_model().objects.create(user=user, application=app, token="clo_x", scope="games:read",
                                                    expires=timezone.now() + timedelta(hours=1))
    return {"bob": bob, "carol": carol, "finished": finished, "active": active, "invite": invite,
            "outgoing": outgoing, "incoming": incoming, "token": token, "plain": plain, "oauth": oauth}


# --- the export ---------------------------------------------------------------------------------------------

def test_the_export_holds_every_kind_of_personal_data_and_no_secret(session_client, user, world):
    response = session_client.get(url("me/data"))
    assert response.status_code == 200, response.content
    assert response["Content-Disposition"].startswith("attachment;")
    assert response["Cache-Control"] == "no-store"
    data = response.json()
    assert data["format"] == "claim-personal-data/1"
    assert data["account"]["username"] == "Alice" and data["account"]["email"] == "alice@example.org"
    sections = data["sections"]
    assert {"api_tokens", "oauth_access_tokens", "oauth_refresh_tokens", "games", "ratings", "rating_history",
            "seat_departures", "seeks", "challenges", "notifications", "notification_deliveries",
            "notification_preferences", "notification_settings", "push_subscriptions", "reminders", "vacation",
            "vacation_periods", "vacation_uses"} <= set(sections)
    games = {g["id"]: g for g in sections["games"]["items"]}
    assert set(games) == {world["finished"].pk, world["active"].pk, world["invite"].pk}
    assert games[world["finished"].pk]["record"] == f"/api/v1/games/{world['finished'].pk}/record"
    assert games[world["finished"].pk]["outcome"] == "win"
    assert [t["prefix"] for t in sections["api_tokens"]["items"]] == [world["token"].prefix]
    assert [t["app"] for t in sections["oauth_access_tokens"]["items"]] == ["Board app"]
    assert [p["endpoint"] for p in sections["push_subscriptions"]["items"]] == [ENDPOINT]
    assert {c["id"] for c in sections["challenges"]["items"]} == {world["outgoing"].pk, world["incoming"].pk}
    assert [s["seats"] for s in sections["seeks"]["items"]] == [3]
    assert [n["title"] for n in sections["notifications"]["items"]] == ["Your turn"]
    assert [r["pool"] for r in sections["ratings"]["items"]] == ["claim:2"]
    assert len(sections["vacation"]["items"]) == 1
    assert all(s["next"] is None for s in sections.values())
    text = response.content.decode()
    for secret in (world["plain"], world["token"].digest, "secret-p256dh", "secret-auth", user.password):
        assert secret not in text


def test_each_section_is_read_in_pages_of_100_newest_first(session_client, user):
    Notification.objects.bulk_create([Notification(user=user, event="your_turn", title=f"n{i}") for i in range(250)])
    first = session_client.get(url("me/data")).json()["sections"]["notifications"]
    assert len(first["items"]) == 100 and first["items"][0]["title"] == "n249"
    seen = [n["id"] for n in first["items"]]
    following = first["next"]
    while following:
        page = session_client.get(following)
        assert page.status_code == 200, page.content
        seen += [n["id"] for n in page.json()["items"]]
        following = page.json()["next"]
    assert len(seen) == 250 and seen == sorted(seen, reverse=True)


def test_a_page_refuses_a_bad_cursor_and_an_unknown_section(session_client):
    bad = session_client.get(url("me/data/notifications") + "?before=abc")
    assert bad.status_code == 400 and "before" in error(bad)["fields"]
    huge = session_client.get(url("me/data/games") + "?before=" + "9" * 30)
    assert huge.status_code == 400
    unknown = session_client.get(url("me/data/passwords"))
    assert unknown.status_code == 404 and "notifications" in error(unknown)["message"]
    assert session_client.get(url("me/data/challenges") + "?before=a'b").status_code == 400


def test_the_export_needs_a_session(api_client, user, make_token):
    anonymous = api_client.get(url("me/data"))
    assert anonymous.status_code == 401 and error(anonymous)["code"] == "not_authenticated"
    _, plain = make_token(user, scopes=("account:read", "games:read", "games:play"))
    for path in ("me/data", "me/data/games"):
        refused = token_client(plain).get(url(path))
        assert refused.status_code == 403 and error(refused)["code"] == "session_required"


def test_the_export_and_the_deletion_share_the_privacy_rate(session_client, monkeypatch):
    """The export (a query per section) and the deletion are counted; a page (one bounded query) is not."""
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "privacy", "2/hour")
    assert session_client.get(url("me/data")).status_code == 200
    assert session_client.post(url("me/delete"), {"password": "wrong"}).status_code == 400
    for _ in range(3):
        assert session_client.get(url("me/data/games")).status_code == 200
    for limited in (session_client.get(url("me/data")), session_client.post(url("me/delete"), {"password": "x"})):
        assert limited.status_code == 429 and error(limited)["code"] == "throttled"


# --- the deletion -------------------------------------------------------------------------------------------

def test_deleting_needs_the_right_password(session_client, user):
    wrong = session_client.post(url("me/delete"), {"password": "not-my-password"})
    assert wrong.status_code == 400 and "password" in error(wrong)["fields"]
    missing = session_client.post(url("me/delete"), {})
    assert missing.status_code == 400 and "password" in error(missing)["fields"]
    extra = session_client.post(url("me/delete"), {"password": PASSWORD, "keep_games": True})
    assert extra.status_code == 400 and "keep_games" in error(extra)["fields"]
    not_text = session_client.post(url("me/delete"), {"password": 12345})
    assert not_text.status_code == 400
    user.refresh_from_db()
    assert user.is_active and user.username == "Alice" and session_client.get(url("me")).status_code == 200


def test_deleting_needs_a_session_and_its_csrf_token(api_client, user, make_token):
    anonymous = api_client.post(url("me/delete"), {"password": PASSWORD})
    assert anonymous.status_code == 401
    _, plain = make_token(user, scopes=("account:read", "games:read", "games:play"))
    refused = token_client(plain).post(url("me/delete"), {"password": PASSWORD})
    assert refused.status_code == 403 and error(refused)["code"] == "session_required"
    browser = APIClient(enforce_csrf_checks=True)
    browser.get(url("csrf"))
    assert browser.post(url("login"), {"username": "Alice", "password": PASSWORD},
                        HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value).status_code == 200
    no_csrf = browser.post(url("me/delete"), {"password": PASSWORD})
    assert no_csrf.status_code == 403
    user.refresh_from_db()
    assert user.is_active


def test_deleting_the_account_ends_its_play_data_and_credentials(session_client, user, world,
                                                                 django_capture_on_commit_callbacks):
    other_device = APIClient()
    assert login(other_device).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = session_client.post(url("me/delete"), {"password": PASSWORD})
    assert response.status_code == 204, response.content

    # every session and token ends; the password no longer logs in
    assert session_client.get(url("me")).status_code == 401
    assert other_device.get(url("me")).status_code == 401
    assert token_client(world["plain"]).get(url("me")).status_code == 401
    assert login(APIClient()).status_code == 400
    gone = User.objects.get(pk=user.pk)
    assert not gone.is_active and not gone.has_usable_password() and gone.email == ""
    assert gone.username.startswith("_deleted_") and gone.display_name == "Deleted player"
    assert not ApiToken.objects.filter(user=gone).exists()
    assert not get_access_token_model().objects.filter(user=gone).exists()

    # running games ended by the service; the finished one keeps its seats, the player anonymous
    for key, status in (("active", "finished"), ("invite", "aborted"), ("finished", "finished")):
        assert Game.objects.get(pk=world[key].pk).status == status, key
    bob = APIClient()
    bob.force_authenticate(world["bob"])
    active = bob.get(f"/api/v1/games/{world['active'].pk}").json()
    assert active["result"]["resigned"] == 0
    finished = bob.get(f"/api/v1/games/{world['finished'].pk}").json()
    names = {s["index"]: s["name"] for s in finished["seats"]}
    assert names[0] == "Deleted player" and names[1] == "Bob"
    assert "Alice" not in bob.get(f"/api/v1/games/{world['finished'].pk}/record").content.decode()

    # the rest of what was held is deleted
    for model in (Seek, Notification, PushSubscription, VacationAccount, Rating):
        assert not model.objects.filter(user=gone).exists(), model.__name__
    assert not Challenge.objects.filter(pk__in=[world["outgoing"].pk, world["incoming"].pk]).exists()

    # the username is free again
    again = APIClient().post(url("register"), {"username": "Alice", "password": "another-long-passphrase-3"})
    assert again.status_code == 201, again.content
