"""Issue 22: an invitation e-mail's subject carried the inviter's free-text display name ("Reset password:
evil.example/…" read as a message of the site). Every notification e-mail's subject is now fixed product
text in the recipient's language naming the game only; the player's name is in the body, in quotes."""

from __future__ import annotations

import pytest
from django.core import mail

from games import service
from games.notify import texts
from games.notify.models import EVENTS
from games.notify.service import notify

from .conftest import to_act_seat

EVIL = "Reset password: evil.example/r?t=1"


def _subjects(language: str, kind: str, game_id: int) -> set[str]:
    return {"[claim] " + texts.email_subject(language, event, kind, game_id) for event in EVENTS}


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "subject", "quoted"), [
    ("en", "A challenge to Claim #{id}", "\u201c" + EVIL + "\u201d challenges you to Claim #{id}"),
    ("de", "Eine Herausforderung zu Claim #{id}", "\u201e" + EVIL + "\u201c fordert dich zu Claim #{id} heraus"),
    ("cs", "Výzva ke hře Claim #{id}", "\u201e" + EVIL + "\u201c tě vyzývá ke hře Claim #{id}"),
])
def test_an_invitation_mail_names_the_inviter_only_in_its_body_in_quotes(make_user, commit, language, subject,
                                                                        quoted):
    evil = make_user("mallory", display_name=EVIL)
    bob = make_user("bob", language=language)
    with commit():
        game = service.create_game(evil, "claim", opponents=[{"type": "user", "username": "bob"}], days_per_move=3)
    (msg,) = [m for m in mail.outbox if m.to == [bob.email]]
    assert msg.subject == "[claim] " + subject.format(id=game.pk)
    assert "evil" not in msg.subject and "mallory" not in msg.subject
    assert msg.body.splitlines()[0] == quoted.format(id=game.pk)
    assert msg.body.rstrip().endswith(f"/#/game/{game.pk}")


@pytest.mark.django_db
def test_every_notification_mail_of_a_game_has_a_fixed_subject(make_user, play, commit):
    """A whole game between two players with names that look like messages: every e-mail sent has one of
    the fixed subjects, and no subject carries either name."""
    alice = make_user("alice", display_name="URGENT: verify at evil.example")
    bob = make_user("bob", display_name=EVIL)
    for user in (alice, bob):
        user.notify_prefs.all().delete()
        for event in EVENTS:
            user.notify_prefs.create(event=event, inapp=True, push=False, email=True)
    game = play.game(alice, bob, days=1)
    for _ in range(6):
        seat = to_act_seat(game)
        view = service.view_for(seat.user, game.pk)
        with commit():
            service.make_move(seat.user, game.pk, view["version"], view["legal_moves"][0])
        game.refresh_from_db()
    play.resign(alice, game)
    sent = [m.subject for m in mail.outbox]
    assert len(sent) >= 6
    allowed = _subjects("en", "claim", game.pk)
    assert set(sent) <= allowed, set(sent) - allowed
    assert {f"[claim] A challenge to Claim #{game.pk}", f"[claim] Claim #{game.pk} is over"} <= set(sent)
    for subject in sent:
        assert "evil" not in subject and "URGENT" not in subject and "\n" not in subject


@pytest.mark.django_db
def test_a_note_without_a_game_gets_the_general_subject(make_user, commit):
    u = make_user("u")
    with commit():
        notify(u, "challenge_received", None, "Whatever a caller wrote: evil.example", "body")
    (msg,) = mail.outbox
    assert msg.subject == "[claim] News from your games"


def test_every_language_has_every_subject():
    for language in texts.TEXTS:
        for event in EVENTS:
            assert f"email.{event}" in texts.TEXTS[language], (language, event)
        assert {"email.digest", "email.other", "quote"} <= set(texts.TEXTS[language])


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["Bob\r\nBcc: all@example.org", "Bob\nReset", "Bob\u2028Reset", "Bob\u0085x"])
def test_display_names_cannot_carry_line_breaks(make_user, api_client, name):
    u = make_user("u")
    api_client.force_authenticate(u)
    r = api_client.patch("/api/v1/accounts/me", {"display_name": name}, format="json")
    assert r.status_code == 400, r.content
    assert "display_name" in r.json()["error"]["fields"]
