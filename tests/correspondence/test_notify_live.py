"""In-app notifications reach the user's open sockets as they are created (the PWA inbox updates live),
through the configured channel layer (Redis when ``REDIS_URL`` is set) and the real consumer."""

from __future__ import annotations

import pytest

from games import service
from games.notify.models import Notification
from games.notify.service import note_payload, notify
from tests.realtime.conftest import adb, asgi_app, assert_silent, connect, make_token, receive  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _eager(settings):
    settings.TASK_MODE = "eager"  # the game_changed receivers run on commit, inline
    settings.VAPID_PRIVATE_KEY = ""


async def _socket(connect, make_token, user):  # noqa: F811
    connected, _, comm = await connect(token=await adb(make_token)(user))
    assert connected
    return comm


async def test_a_new_notification_reaches_every_socket_of_its_user_only(connect, make_token, make_user):  # noqa: F811
    alice, bob = await adb(make_user)("alice"), await adb(make_user)("bob")
    phone, laptop = await _socket(connect, make_token, alice), await _socket(connect, make_token, alice)
    other = await _socket(connect, make_token, bob)
    note = await adb(notify)(alice, "match_found", None, "Match found", "A game is waiting for you.")
    assert note is not None
    expected = {"type": "notification", "notification": await adb(lambda: note_payload(
        Notification.objects.get(pk=note.pk)))()}
    assert expected["notification"]["title"] == "Match found" and expected["notification"]["read"] is False
    assert await receive(phone) == expected  # no subscription needed: every socket of the user
    assert await receive(laptop) == expected
    await assert_silent(other)


async def test_your_turn_is_pushed_live_unless_the_game_is_on_screen(connect, make_token, make_user):  # noqa: F811
    alice, bob = await adb(make_user)("alice"), await adb(make_user)("bob")

    def start():
        game = service.create_game(alice, "claim", opponents=[{"type": "user", "username": "bob"}],
                                   days_per_move=3)
        service.join_game(bob, game.pk)
        game.refresh_from_db()
        return game

    game = await adb(start)()
    seats = await adb(lambda: {s.index: s.user for s in game.seats.select_related("user")})()
    mover_seat = await adb(lambda: game.seats.get(to_act=True).index)()
    mover, waiting = seats[mover_seat], seats[1 - mover_seat]
    sock_waiting = await _socket(connect, make_token, waiting)
    sock_mover = await _socket(connect, make_token, mover)
    await sock_mover.send_json_to({"type": "viewing", "game_id": game.pk})  # the mover keeps the table open
    assert await receive(sock_mover) == {"type": "viewing", "game_id": game.pk}

    def play(user):
        view = service.game_view_payload(service.queries.get_game(game.pk), user)
        assert view["my_turn"]
        service.make_move(user, game.pk, view["version"], view["legal_moves"][0])

    await adb(play)(mover)  # commits; the receiver runs inline and notifies the waiting player
    got = await receive(sock_waiting)
    assert got["type"] == "notification"
    assert got["notification"]["event"] == "your_turn" and got["notification"]["game_id"] == game.pk
    # The answer (Claim: the other seat answers a lead) concerns the mover, who looks at the game: nothing.
    before = await adb(lambda: set(Notification.objects.values_list("pk", flat=True)))()
    await adb(play)(waiting)
    await assert_silent(sock_mover)
    await assert_silent(sock_waiting)
    assert not await adb(Notification.objects.exclude(pk__in=before).exists)()
