"""The tournaments' notifications and typed events through the service (issue 36; docs/tournaments.md,
"Notifications and live updates"): each fires once, after the commit, to the right users only, in each one's
language, with its link; the preferences switch channels off; the beat's starting-soon reminder is sent once."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.db import transaction

from claim import tasks as claim_tasks
from games.notify.models import Notification, Preference
from games.notify.service import note_text
from games.realtime.tournament_watch import MESSAGE
from games.tournaments import news, service
from games.tournaments.models import Bye, Tournament, TournamentGame
from games.tournaments.tasks import tick_task

from .conftest import DAYS, round_games

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


class Sent:
    """What the receivers pushed: ``(group, channel-layer message)`` in order."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, dict[str, Any]]] = []

    def events(self, what: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        return [(g, m) for g, m in self.messages
                if m["frame"].get("type") == "tournament" and (what is None or m["frame"]["what"] == what)]

    def users(self, what: str) -> Counter:
        """How many ``what`` events each user's group got."""
        return Counter(int(g.split(".")[1]) for g, _ in self.events(what) if g.startswith("user."))

    def watchers(self, what: str) -> list[dict[str, Any]]:
        return [m for g, m in self.events(what) if g.startswith("tournament.")]


@pytest.fixture
def sent(monkeypatch) -> Sent:
    box = Sent()
    monkeypatch.setattr(news, "send_to_groups", lambda messages, what: box.messages.extend(messages))
    monkeypatch.setattr(news, "send_frames", lambda items, what: box.messages.extend(
        (f"user.{uid}", {"type": "client.event", "frame": frame}) for uid, frame in items))
    return box


def notes(event: str, **filters: Any) -> list[Notification]:
    return list(Notification.objects.filter(event=event, **filters).order_by("pk"))


def per_user(event: str) -> Counter:
    return Counter(n.user_id for n in notes(event))


def test_a_swiss_start_tells_each_player_their_pairing_and_game_once(play, sent):
    org = play.users(1, "org")[0]
    users = play.users(4)
    t = play.tournament(org, users, rounds=2)
    ids = {u.pk for u in users}
    games = round_games(t, 1)
    assert len(games) == 2
    # typed events: started and round_paired to every entrant (once) and the watchers; new_game to its players only
    for what in ("started", "round_paired"):
        assert sent.users(what) == Counter(dict.fromkeys(ids, 1)), what
        (watched,) = sent.watchers(what)
        assert watched["type"] == MESSAGE and watched["tournament_id"] == t.pk
        assert watched["frame"]["round"] == (1 if what == "round_paired" else None)
    assert sent.users("new_game") == Counter(dict.fromkeys(ids, 1))
    assert sent.watchers("new_game") == []  # personal
    for tg in games:
        for uid in tg.players:
            (frame,) = [m["frame"] for g, m in sent.events("new_game") if g == f"user.{uid}"]
            assert frame == {"type": "tournament", "tournament_id": t.pk, "what": "new_game", "round": 1,
                             "game_id": tg.game_id}
    # the creator (not an entrant) is told nothing
    assert f"user.{org.pk}" not in {g for g, _ in sent.messages}
    # notifications: one tournament_round and one tournament_game per player, naming the opponent, with links
    assert per_user("tournament_round") == Counter(dict.fromkeys(ids, 1))
    assert per_user("tournament_game") == Counter(dict.fromkeys(ids, 1))
    names = {u.pk: u.username for u in users}
    for tg in games:
        a, b = tg.players
        for me, other in ((a, b), (b, a)):
            (game_note,) = notes("tournament_game", user_id=me)
            assert game_note.game_id == tg.game_id
            assert game_note.data == {"url": f"/#/game/{tg.game_id}", "tournament_id": t.pk, "round": 1}
            assert game_note.title == f"Your game in \u201cTest cup\u201d: Claim #{tg.game_id}"
            assert game_note.body == f"Round 1 against \u201c{names[other]}\u201d. Tap to play."
            (round_note,) = notes("tournament_round", user_id=me)
            assert round_note.game_id is None and round_note.data["url"] == f"/#/tournaments/{t.pk}"
            assert round_note.title == "Round 1 of \u201cTest cup\u201d is paired"
            assert f"\u201c{names[other]}\u201d" in round_note.body
    assert not Notification.objects.filter(user=org).exists()


def test_a_bye_is_told_and_withdrawn_players_hear_no_pairing(play, sent):
    org = play.users(1, "org")[0]
    users = play.users(5)
    t = play.tournament(org, users, rounds=3)
    (bye,) = Bye.objects.filter(tournament=t, round=1)
    (bye_note,) = notes("tournament_round", user_id=bye.user_id)
    assert bye_note.body == "You have a bye this round. Tap to see the round."
    assert bye_note.data == {"url": f"/#/tournaments/{t.pk}", "tournament_id": t.pk, "round": 1, "bye": True}
    assert not notes("tournament_game", user_id=bye.user_id)
    assert len(notes("tournament_round")) == 5
    # someone withdraws: standings to all five; round 2 is told to the four still in
    out = next(u for u in users if u.pk != bye.user_id)
    sent.messages.clear()
    play.withdraw(out, t)
    assert sent.users("standings") == Counter(dict.fromkeys([u.pk for u in users], 1))
    for tg in round_games(t, 1):
        if not TournamentGame.objects.get(pk=tg.pk).finished:
            play.finish(tg, "draw")
    assert Tournament.objects.get(pk=t.pk).current_round == 2
    round2 = notes("tournament_round", data__round=2)
    assert {n.user_id for n in round2} == {u.pk for u in users} - {out.pk}
    assert len(round2) == 4


def test_results_send_standings_and_the_end_tells_each_entrant_their_place(play, sent):
    org = play.users(1, "org")[0]
    users = play.users(4)
    users[1].language = "de"
    users[2].language = "cs"
    for u in users[1:3]:
        u.save(update_fields=["language"])
    t = play.tournament(org, users, format="round_robin")
    ids = {u.pk for u in users}
    assert not notes("tournament_round")  # a round robin has no pairing to tell
    assert per_user("tournament_game") == Counter(dict.fromkeys(ids, 3))  # 6 games at once, one note per game
    assert sent.users("new_game") == Counter(dict.fromkeys(ids, 3))
    sent.messages.clear()
    games = round_games(t)
    for i, tg in enumerate(games):
        play.finish(tg, "first")
        assert sent.users("standings") == Counter(dict.fromkeys(ids, i + 1))  # once per result, to every entrant
        assert len(sent.watchers("standings")) == i + 1
    t.refresh_from_db()
    assert t.status == "finished"
    assert sent.users("finished") == Counter(dict.fromkeys(ids, 1)) and len(sent.watchers("finished")) == 1
    assert sent.events()[-1][1]["frame"]["what"] in ("finished", "standings")
    places = {row["user_id"]: row["rank"] for row in t.standings}
    finished = {n.user_id: n for n in notes("tournament_finished")}
    assert set(finished) == ids
    by_id = {u.pk: u for u in users}
    for uid, note in finished.items():
        assert note.data == {"url": f"/#/tournaments/{t.pk}", "tournament_id": t.pk, "place": places[uid]}
        language = by_id[uid].language
        expected = {"en": ("\u201cTest cup\u201d is over",
                           f"You finished in place {places[uid]} of 4. Tap to see the standings."),
                    "de": ("\u201eTest cup\u201c ist beendet",
                           f"Du bist auf Platz {places[uid]} von 4. Tippe, um die Tabelle zu sehen."),
                    "cs": ("Turnaj \u201eTest cup\u201c skončil",
                           f"Skončil(a) jsi na {places[uid]}. místě z 4. Klepni a podívej se na pořadí.")}[language]
        assert (note.title, note.body) == expected
        # the inbox shows it in the reader's language of the moment
        assert note_text(note, "de")[0] == "\u201eTest cup\u201c ist beendet"
    # e-mail (on by default for the end): a fixed subject naming the tournament by number, the link to its page
    subjects = {m.to[0]: m for m in mail.outbox if "is over" in m.subject or "beendet" in m.subject
                or "skončil" in m.subject}
    en_user = users[0]
    msg = subjects[en_user.email]
    assert msg.subject == f"[claim] Tournament #{t.pk} is over"
    assert msg.body.rstrip().endswith(f"/#/tournaments/{t.pk}")
    assert subjects[users[1].email].subject == f"[claim] Turnier #{t.pk} ist beendet"


def test_cancelled_by_its_creator_or_for_too_few_players(play, sent):
    org = play.users(1, "org")[0]
    users = play.users(3)
    with play.commit():
        a = service.create(org, name="Called off", kind="claim", format="swiss", rounds=2, max_players=8,
                           time_control=DAYS)
    for u in [*users, org]:
        with play.commit():
            service.join(u, a.pk)
    with play.commit():
        service.cancel(org, a.pk)
    cancelled = notes("tournament_cancelled")
    assert {n.user_id for n in cancelled} == {u.pk for u in users}  # not the creator who called it off
    assert cancelled[0].body == "Its creator called it off before the start."
    assert cancelled[0].data == {"url": f"/#/tournaments/{a.pk}", "tournament_id": a.pk, "reason": "creator"}
    assert sent.users("cancelled") == Counter(dict.fromkeys([u.pk for u in [*users, org]], 1))
    with time_machine.travel(T0, tick=False) as clock:
        with play.commit():
            b = service.create(org, name="Too few", kind="claim", format="swiss", rounds=2, max_players=8,
                               min_players=4, time_control=DAYS, starts_at=T0 + timedelta(hours=3))
        for u in users:
            with play.commit():
                service.join(u, b.pk)
        clock.shift(timedelta(hours=3, minutes=1))
        with play.commit():
            claim_tasks.enqueue(tick_task)
    too_few = notes("tournament_cancelled", data__tournament_id=b.pk)
    assert {n.user_id for n in too_few} == {u.pk for u in users}
    assert too_few[0].body == "Too few players entered: 3 of the 4 needed."


def test_the_beat_tells_the_entrants_once_that_it_starts_within_the_hour(play, sent):
    with time_machine.travel(T0, tick=False) as clock:
        org = play.users(1, "org")[0]
        users = play.users(3)
        with play.commit():
            t = service.create(org, name="Evening cup", kind="claim", format="round_robin", max_players=8,
                               min_players=2, time_control=DAYS, starts_at=T0 + timedelta(hours=2))
        for u in users:
            with play.commit():
                service.join(u, t.pk)
        with play.commit():
            claim_tasks.enqueue(tick_task)
        assert not notes("tournament_starting")  # two hours ahead: not yet
        clock.shift(timedelta(hours=1, minutes=5))
        for _ in range(2):  # a second beat tells nobody again
            with play.commit():
                claim_tasks.enqueue(tick_task)
        starting = notes("tournament_starting")
        assert per_user("tournament_starting") == Counter(dict.fromkeys([u.pk for u in users], 1))
        assert starting[0].title == "\u201cEvening cup\u201d starts soon"
        assert starting[0].body == "It starts at 2026-12-01 14:00 UTC, with 3 players entered. Tap to see it."
        assert starting[0].data["url"] == f"/#/tournaments/{t.pk}"
        assert sent.users("starting_soon") == Counter(dict.fromkeys([u.pk for u in users], 1))
        assert len(sent.watchers("starting_soon")) == 1
        assert Tournament.objects.get(pk=t.pk).reminded_at == T0 + timedelta(hours=1, minutes=5)
        mails = [m for m in mail.outbox if m.subject == f"[claim] Tournament #{t.pk} starts soon"]
        assert sorted(m.to[0] for m in mails) == sorted(u.email for u in users)
        assert all("Evening" not in m.subject for m in mail.outbox)  # the creator's name for it stays in the body
        clock.shift(timedelta(hours=1))
        with play.commit():
            claim_tasks.enqueue(tick_task)
        assert Tournament.objects.get(pk=t.pk).status == "running"
        assert per_user("tournament_starting") == Counter(dict.fromkeys([u.pk for u in users], 1))


def test_the_preferences_switch_the_channels_off(play, sent):
    org = play.users(1, "org")[0]
    users = play.users(4)
    quiet, mail_only = users[0], users[1]
    Preference.objects.create(user=quiet, event="tournament_game", inapp=False, push=False, email=False)
    Preference.objects.create(user=mail_only, event="tournament_game", inapp=False, push=False, email=True)
    play.tournament(org, users, rounds=2)
    assert not notes("tournament_game", user=quiet)
    assert len(notes("tournament_round", user=quiet)) == 1  # another event, its default
    (note,) = notes("tournament_game", user=mail_only)
    assert note.inbox is False
    assert [m.subject for m in mail.outbox if m.to == [mail_only.email]] == [
        f"[claim] Your new tournament game: Claim #{note.game_id}"]
    assert not [m for m in mail.outbox if m.to == [quiet.email] and "tournament game" in m.subject]
    assert {n.user_id for n in notes("tournament_game", inbox=True)} == {users[2].pk, users[3].pk}


def test_a_closed_account_is_not_told(play, sent):
    org = play.users(1, "org")[0]
    users = play.users(4)
    t = play.tournament(org, users, format="round_robin")
    gone = users[0]
    gone.is_active = False
    gone.save(update_fields=["is_active"])
    Notification.objects.all().delete()
    for tg in round_games(t):
        play.finish(tg, "draw")
    assert {n.user_id for n in notes("tournament_finished")} == {u.pk for u in users[1:]}


def test_nothing_is_told_of_a_transaction_that_rolls_back(play, sent):
    org = play.users(1, "org")[0]
    users = play.users(3)
    with play.commit():
        t = service.create(org, name="Rolled", kind="claim", format="swiss", rounds=2, max_players=8,
                           time_control=DAYS)
    for u in users:
        with play.commit():
            service.join(u, t.pk)
    with play.commit(), pytest.raises(RuntimeError), transaction.atomic():
        service.cancel(org, t.pk)
        raise RuntimeError("rolled back")
    assert Tournament.objects.get(pk=t.pk).status == "open"
    assert not notes("tournament_cancelled") and not sent.events()
