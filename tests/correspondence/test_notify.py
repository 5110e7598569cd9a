"""Notifications: events, presence, preferences, reminders once, digest, push failures."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail
from django.utils import timezone
from pywebpush import WebPushException

from games.notify import service
from games.notify.models import Delivery, Notification, PushSubscription, ReminderLog
from games.realtime import presence
from games.service import create_game

from .conftest import to_act_seat


@pytest.mark.django_db
def test_game_events_notify_the_right_people(make_user, play):
    alice, bob = make_user("alice"), make_user("bob")
    game = play.game(alice, bob)
    assert bob.notifications.filter(event="challenge_received", game=game).exists()
    mover = to_act_seat(game).user
    # the game starts when bob joins; the player to act is told, unless it is bob, who just joined
    assert mover.notifications.filter(event="your_turn", game=game).exists() == (mover == alice)
    play.resign(alice, game)
    over = {n.user.username: n for n in Notification.objects.filter(event="game_over")}
    assert {over["alice"].title, over["bob"].title} == {f"You lost Claim #{game.pk}", f"You won Claim #{game.pk}"}
    assert over["alice"].body == "Against \u201cbob\u201d. Tap to see the result."
    assert over["alice"].data["url"] == f"/#/game/{game.pk}"


@pytest.mark.django_db
def test_notifications_name_the_game_and_players_in_the_recipients_language(make_user, play):
    """Issue 21: "An opponent moved." in English for everyone, naming neither the game nor the opponent."""
    alice, bob = make_user("alice"), make_user("bob")
    bob.language, bob.display_name = "de", "Bobby"
    bob.save()
    alice.language = "cs"
    alice.save()
    game = play.game(alice, bob)
    invite = bob.notifications.get(event="challenge_received", game=game)
    assert invite.title == f"\u201ealice\u201c fordert dich zu Claim #{game.pk} heraus"
    assert invite.data["url"] == f"/#/game/{game.pk}"
    play.resign(bob, game)
    assert alice.notifications.get(event="game_over").title == f"Vyhrál(a) jsi hru Claim #{game.pk}"
    assert alice.notifications.get(event="game_over").body == "Proti: \u201eBobby\u201c. Klepni pro zobrazení výsledku."
    assert bob.notifications.get(event="game_over").title == f"Du hast Claim #{game.pk} verloren"


@pytest.mark.django_db
def test_nothing_is_sent_for_a_game_the_user_is_looking_at(make_user, play):
    u, v = make_user("u"), make_user("v")
    g1, g2 = play.game(u, v).pk, play.game(u, v).pk
    presence.mark_present(u.pk, g1)
    assert service.notify(u, "your_turn", g1, "t") is None
    assert service.notify(u, "your_turn", g2, "t") is not None
    presence.mark_absent(u.pk, g1)
    assert service.notify(u, "your_turn", g1, "t") is not None


@pytest.mark.django_db
def test_preferences_api_and_email_channel(make_user, api_client, commit):
    u = make_user("u")
    api_client.force_authenticate(u)
    r = api_client.patch("/api/v1/notifications/preferences",
                         {"events": {"your_turn": {"email": True, "inapp": False}}}, format="json")
    assert r.status_code == 200 and r.json()["events"]["your_turn"] == {"inapp": False, "push": True, "email": True}
    bad = api_client.patch("/api/v1/notifications/preferences", {"events": {"nope": {}}}, format="json")
    assert bad.status_code == 400
    with commit():
        note = service.notify(u, "your_turn", None, "Your turn", "move!")
    assert not note.inbox and len(mail.outbox) == 1 and "move!" in mail.outbox[0].body
    api_client.patch("/api/v1/notifications/preferences", {"email_digest": True}, format="json")
    with commit():
        service.notify(u, "your_turn", None, "Again")
    assert len(mail.outbox) == 1, "digest users get no per-event e-mail"


@pytest.mark.django_db
def test_inbox_and_read_marks(make_user, api_client):
    u = make_user("u")
    for i in range(3):
        service.notify(u, "game_over", None, f"n{i}")
    api_client.force_authenticate(u)
    body = api_client.get("/api/v1/notifications").json()
    assert body["unread"] == 3 and [n["title"] for n in body["results"]] == ["n2", "n1", "n0"]
    api_client.post("/api/v1/notifications/read", {"ids": [body["results"][0]["id"]]}, format="json")
    assert api_client.get("/api/v1/notifications?unread=1").json()["unread"] == 2
    api_client.post("/api/v1/notifications/read", {"all": True}, format="json")
    assert api_client.get("/api/v1/notifications").json()["unread"] == 0


@pytest.mark.django_db
def test_opening_a_game_reads_its_notifications_only(make_user, api_client):
    """The web app reads a game's notifications when its table opens (``{"game": id}``): the bell no longer
    counts a "your turn" of a game the player is looking at, or one that has ended since."""
    u, other = make_user("u"), make_user("other")
    g1, g2 = (create_game(u, "claim", opponents=[{"type": "ai", "level": 1}]).pk for _ in range(2))
    for game_id in (g1, g1, g2):
        service.notify(u, "your_turn", game_id, "Your turn")
    service.notify(other, "your_turn", g1, "not yours")
    api_client.force_authenticate(u)
    r = api_client.post("/api/v1/notifications/read", {"game": g1}, format="json")
    assert r.status_code == 200 and r.json() == {"marked": 2}
    unread = [n["game_id"] for n in api_client.get("/api/v1/notifications?unread=1").json()["results"]]
    assert unread == [g2]
    assert Notification.objects.get(user=other).read_at is None
    assert api_client.post("/api/v1/notifications/read", {"game": 0}, format="json").status_code == 400


@pytest.mark.django_db
def test_reminders_at_half_and_tenth_never_twice_in_12h(make_user, play, clock, commit):
    alice, bob = make_user("alice"), make_user("bob")
    game = play.game(alice, bob, days=2)  # 48 h turn: 50 % at 24 h, 10 % at 43.2 h
    late = to_act_seat(game).user
    clock.shift(timedelta(hours=23))
    assert service.send_reminders() == 0
    clock.shift(timedelta(hours=2))
    with commit():
        assert service.send_reminders() == 1
        assert service.send_reminders() == 0  # once
    clock.shift(timedelta(hours=19))  # 44 h: 10 % left, 19 h since the last one
    with commit():
        assert service.send_reminders() == 1
    assert list(ReminderLog.objects.order_by("sent_at").values_list("threshold", flat=True)) == [50, 10]
    assert late.notifications.filter(event="deadline_near").count() == 2


@pytest.mark.django_db
def test_reminders_respect_the_12h_gap(make_user, play, clock, commit):
    alice, bob = make_user("alice"), make_user("bob")
    play.game(alice, bob, days=1)  # 24 h turn: 50 % at 12 h, 10 % at 21.6 h (< 12 h later)
    clock.shift(timedelta(hours=12, minutes=1))
    assert service.send_reminders() == 1
    clock.shift(timedelta(hours=10))
    assert service.send_reminders() == 0


@pytest.mark.django_db
def test_daily_digest_content(make_user, clock, api_client):
    u = make_user("u")
    api_client.force_authenticate(u)
    api_client.patch("/api/v1/notifications/preferences", {"email_digest": True}, format="json")
    service.notify(u, "your_turn", None, "Your turn in game 5", "It is your move.")
    service.notify(u, "game_over", None, "You won: game 6")
    read = service.notify(u, "game_over", None, "Old news")
    Notification.objects.filter(pk=read.pk).update(read_at=clock_now())
    assert service.send_digests() == 1
    (msg,) = mail.outbox
    assert msg.subject == "[claim] Your daily digest"  # fixed text (games/notify/texts.py "email.digest")
    assert "- Your turn in game 5: It is your move." in msg.body and "- You won: game 6" in msg.body
    assert "Old news" not in msg.body
    clock.shift(timedelta(hours=23))
    service.notify(u, "game_over", None, "Later")
    assert service.send_digests() == 0
    clock.shift(timedelta(hours=2))
    assert service.send_digests() == 1 and "Later" in mail.outbox[1].body


def clock_now():
    return timezone.now()


@pytest.mark.django_db
def test_push_failures_are_recorded_and_expired_subscriptions_removed(make_user, api_client, settings, commit):
    settings.VAPID_PRIVATE_KEY = "test-key"
    u = make_user("u")
    api_client.force_authenticate(u)
    for ep in ("https://push.example/gone", "https://push.example/ok"):
        r = api_client.post("/api/v1/notifications/push-subscriptions",
                            {"endpoint": ep, "keys": {"p256dh": "k", "auth": "a"}}, format="json")
        assert r.status_code == 201

    def fake(subscription_info, **kw):
        if subscription_info["endpoint"].endswith("gone"):
            raise WebPushException("Push failed: 410 Gone", response=mock.Mock(status_code=410))

    with mock.patch("pywebpush.webpush", side_effect=fake), commit():
        service.notify(u, "your_turn", None, "Your turn")
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == ["https://push.example/ok"]
    assert Delivery.objects.filter(ok=True, channel="push").count() == 1
    failed = api_client.get("/api/v1/notifications/deliveries").json()["results"]
    assert failed[0]["status_code"] == 410 and failed[0]["channel"] == "push"
