"""What the per-version notification receiver costs (it runs after every committed version), and where a
Web Push leads (the PWA's hash routes)."""

from __future__ import annotations

import json
from unittest import mock

import pytest

from games import service
from games.notify import receivers
from games.notify.models import Notification, Preference, PushSubscription
from games.notify.service import notify
from games.realtime.presence import mark_absent, mark_present

pytestmark = pytest.mark.django_db


def _move_without_followers(game, user) -> int:
    """A move whose on-commit hooks (receivers) do not run: the test runs the receiver itself."""
    view = service.game_view_payload(game, user)
    body, applied = service.make_move(user, game.pk, view["version"], view["legal_moves"][0])
    assert applied
    return body["version"]


def _started(make_user, play):
    alice, bob = make_user("alice"), make_user("bob")
    game = play.game(alice, bob, days=3, rated=False)
    mover = alice if game.seats.get(index=0).to_act else bob
    waiting = bob if mover is alice else alice
    return game, mover, waiting


def test_a_move_both_players_watch_costs_two_queries_and_sends_nothing(
        make_user, play, django_assert_max_num_queries, django_capture_on_commit_callbacks):
    game, mover, waiting = _started(make_user, play)
    version = _move_without_followers(game, mover)
    mark_present(mover.pk, game.pk)
    mark_present(waiting.pk, game.pk)
    before = Notification.objects.count()
    with django_capture_on_commit_callbacks(execute=False) as hooks, django_assert_max_num_queries(2):
        receivers.on_game_changed(None, game_id=game.pk, version=version, status="active")
    assert Notification.objects.count() == before
    assert hooks == [], "no delivery task and no socket push for users who watch the game"


def test_a_move_with_one_player_away_costs_four_queries(
        make_user, play, django_assert_max_num_queries, django_capture_on_commit_callbacks):
    game, mover, waiting = _started(make_user, play)
    version = _move_without_followers(game, mover)
    mark_present(mover.pk, game.pk)
    mark_absent(waiting.pk, game.pk)
    PushSubscription.objects.create(user=waiting, endpoint="https://push.example/w", p256dh="k", auth="a")
    seen = set(Notification.objects.values_list("pk", flat=True))
    # history entry + seats, the away player's channels (preference, push subscription, address), one INSERT
    with django_capture_on_commit_callbacks(execute=False) as hooks, django_assert_max_num_queries(4):
        receivers.on_game_changed(None, game_id=game.pk, version=version, status="active")
    (note,) = Notification.objects.exclude(pk__in=seen)
    assert (note.user_id, note.event, note.game_id) == (waiting.pk, "your_turn", game.pk)
    assert len(hooks) == 2  # the push/e-mail delivery task and the live push to the sockets


def test_no_delivery_task_for_a_player_without_push_subscription_or_email(
        make_user, play, django_capture_on_commit_callbacks):
    game, mover, waiting = _started(make_user, play)
    version = _move_without_followers(game, mover)
    mark_absent(waiting.pk, game.pk)
    Preference.objects.create(user=waiting, event="your_turn", inapp=True, push=True, email=True)
    waiting.email = ""
    waiting.save(update_fields=["email"])
    assert not PushSubscription.objects.filter(user=waiting).exists()
    with django_capture_on_commit_callbacks(execute=False) as hooks:
        receivers.on_game_changed(None, game_id=game.pk, version=version, status="active")
    assert Notification.objects.filter(user=waiting, event="your_turn", game=game).count() == 1
    assert len(hooks) == 1, "only the live push to the sockets: there is nowhere to deliver push or e-mail"


def test_game_over_reads_preferences_of_all_seats_in_one_query(
        make_user, play, django_assert_max_num_queries, django_capture_on_commit_callbacks):
    game, mover, waiting = _started(make_user, play)
    Preference.objects.create(user=mover, event="game_over", inapp=True, push=False, email=False)
    Preference.objects.create(user=waiting, event="game_over", inapp=False, push=False, email=False)
    service.resign(mover, game.pk)
    game.refresh_from_db()
    # history entry + seats, the channels of both, one INSERT
    with django_capture_on_commit_callbacks(execute=False), django_assert_max_num_queries(4):
        receivers.on_game_changed(None, game_id=game.pk, version=game.version, status="finished")
    over = Notification.objects.filter(game=game, event="game_over")
    assert [(n.user_id, n.title) for n in over] == [(mover.pk, f"You lost Claim #{game.pk}")]


def test_a_push_without_a_game_opens_the_inbox(make_user, settings, commit):
    settings.VAPID_PRIVATE_KEY = "test-key"
    settings.FRONTEND_URL = "https://claim.example.org/"
    u = make_user("u")
    PushSubscription.objects.create(user=u, endpoint="https://push.example/1", p256dh="k", auth="a")
    with mock.patch("pywebpush.webpush") as webpush, commit():
        notify(u, "match_found", None, "Match found")
    sent = json.loads(webpush.call_args.kwargs["data"])
    assert sent["url"] == "https://claim.example.org/#/notes"


def test_push_for_a_game_opens_its_table(make_user, play, settings, commit):
    settings.VAPID_PRIVATE_KEY = "test-key"
    settings.FRONTEND_URL = "https://claim.example.org"
    game, _, waiting = _started(make_user, play)
    PushSubscription.objects.create(user=waiting, endpoint="https://push.example/2", p256dh="k", auth="a")
    with mock.patch("pywebpush.webpush") as webpush, commit():
        notify(waiting, "your_turn", game.pk, "Your turn")
    sent = json.loads(webpush.call_args.kwargs["data"])
    # The PWA's router: "#/game/<id>" (frontend/src/router.ts); the service worker opens this URL.
    assert sent["url"] == f"https://claim.example.org/#/game/{game.pk}"
    assert sent["game_id"] == game.pk
