"""Notifications read in the reader's language (issue 33): the inbox renders each one from what it keeps
(``Notification.render``: keys, game, names) in the user's language of the moment, push and e-mail in the
recipient's language when they are sent; rows made before keep their stored text."""

from __future__ import annotations

import pytest
from django.core import mail

from games import service as games
from games.notify import service
from games.notify.models import Notification

pytestmark = pytest.mark.django_db


def inbox(api_client, user) -> list[dict]:
    api_client.force_authenticate(user)
    response = api_client.get("/api/v1/notifications")
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_made_in_english_listed_in_czech_after_the_switch(make_user, play, api_client):
    alice, bob = make_user("alice"), make_user("bob")
    game = play.game(alice, bob)
    play.resign(bob, game)
    note = alice.notifications.get(event="game_over")
    assert note.title == f"You won Claim #{game.pk}"  # made in English
    alice.language = "cs"
    alice.save(update_fields=["language"])
    item = next(i for i in inbox(api_client, alice) if i["event"] == "game_over")
    assert item["title"] == f"Vyhrál(a) jsi hru Claim #{game.pk}"
    assert item["body"] == "Proti: \u201ebob\u201c. Klepni pro zobrazení výsledku."
    alice.language = "de"
    alice.save(update_fields=["language"])
    item = next(i for i in inbox(api_client, alice) if i["event"] == "game_over")
    assert item["title"] == f"Du hast Claim #{game.pk} gewonnen"


def test_the_ai_seat_is_named_in_the_readers_language(make_user, commit, api_client):
    alice = make_user("alice")
    with commit():
        game = games.create_game(alice, "claim", opponents=[{"type": "ai", "level": 2}], days_per_move=3)
    with commit():
        games.resign(alice, game.pk)
    assert alice.notifications.get(event="game_over").body == "Against Boris (AI). Tap to see the result."
    alice.language = "de"
    alice.save(update_fields=["language"])
    item = next(i for i in inbox(api_client, alice) if i["event"] == "game_over")
    assert item["body"] == "Gegen Boris (KI). Tippe, um das Ergebnis zu sehen."
    assert "Knight" not in item["body"]


def test_a_clock_notice_keeps_its_values(make_user, play, api_client):
    alice, bob = make_user("alice"), make_user("bob")
    game = play.game(alice, bob)
    service.notify_game("deadline_near", game.pk, [alice.pk], "deadline.title", "deadline.body", hours=5)
    alice.language = "cs"
    alice.save(update_fields=["language"])
    item = next(i for i in inbox(api_client, alice) if i["event"] == "deadline_near")
    assert item["body"] == "Na tah proti: \u201ebob\u201c zbývá asi 5 h."


def test_rows_made_before_show_their_stored_text(make_user, api_client):
    alice = make_user("alice", language="cs")
    service.notify(alice, "game_over", None, "You won Claim #3", "Against \u201cbob\u201d.")  # nothing kept to render
    note = Notification.objects.get(user=alice)
    assert note.render == {}
    listed = [(i["title"], i["body"]) for i in inbox(api_client, alice)]
    assert listed == [("You won Claim #3", "Against \u201cbob\u201d.")]
    Notification.objects.filter(pk=note.pk).update(render={"title": "no.such.key", "kind": "claim", "game": 3})
    assert inbox(api_client, alice)[0]["title"] == "You won Claim #3"  # a broken render: the stored text, no 500


def test_email_is_written_in_the_recipients_language_when_sent(make_user, play):
    alice, bob = make_user("alice"), make_user("bob")
    game = play.game(alice, bob)
    note = bob.notifications.get(event="challenge_received")
    assert note.title == f"\u201calice\u201d challenges you to Claim #{game.pk}"
    bob.language = "de"
    bob.save(update_fields=["language"])
    mail.outbox.clear()
    service.deliver(note.pk, push=False, email=True)
    assert len(mail.outbox) == 1
    assert mail.outbox[0].body.startswith(f"\u201ealice\u201c fordert dich zu Claim #{game.pk} heraus\n")
