"""Typed events on the socket (issue 26): challenge changes, game started and finished, and silencing
notifications on a bot's socket."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.challenges import service
from games.challenges.models import Challenge
from games.notify.live import push_to_sockets
from games.service import resign

from .conftest import adb, assert_silent, receive

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _eager(eager_tasks):
    """The game_changed receivers run on commit, in this process."""


async def _socket(connect, make_token, user):
    plain = await adb(make_token)(user)
    connected, _, comm = await connect(token=plain)
    assert connected
    return comm


async def _next_of(comm, kind: str) -> dict:
    """The next frame of type ``kind`` (game views and notifications may come in between)."""
    for _ in range(20):
        frame = await receive(comm)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


async def _collect(comm, kinds: set[str]) -> dict[str, dict]:
    """Frames until one of each type in ``kinds`` came (other frames, e.g. notifications, may come between)."""
    got: dict[str, dict] = {}
    while not kinds <= set(got):
        frame = await receive(comm)
        assert frame["type"] not in got, f"{frame['type']} twice"
        got[frame["type"]] = frame
    return got


async def test_challenge_events_and_game_started_reach_both_players(connect, make_user, make_token):
    alice, bob = await adb(make_user)("alice"), await adb(make_user)("bob")
    a, b = await _socket(connect, make_token, alice), await _socket(connect, make_token, bob)

    c = await adb(service.create)(alice, to="bob", kind="claim")
    received = await receive(b)
    assert received["type"] == "challenge_received" and received["challenge"]["id"] == c.pk
    assert (await receive(a))["type"] == "challenge_created"

    await adb(service.accept)(bob, c.pk)
    for comm in (a, b):  # both come, in either order (the game's hooks run first)
        frames = await _collect(comm, {"challenge_accepted", "game_started"})
        game_id = frames["challenge_accepted"]["challenge"]["game_id"]
        started = frames["game_started"]
        assert started["game_id"] == game_id and started["game"]["status"] == "active"
        assert started["game"]["my_seat"] is not None
        await assert_silent(comm, 0.2)


async def test_declined_cancelled_expired(connect, make_user, make_token):
    alice, bob = await adb(make_user)("alice"), await adb(make_user)("bob")
    a = await _socket(connect, make_token, alice)
    c1 = await adb(service.create)(alice, to="bob", kind="claim")
    await receive(a)
    await adb(service.decline)(bob, c1.pk, "later")
    declined = await receive(a)
    assert declined["type"] == "challenge_declined" and declined["challenge"]["decline_reason"] == "later"

    c2 = await adb(service.create)(alice, to="bob", kind="claim")
    await receive(a)
    await adb(service.cancel)(alice, c2.pk)
    assert (await receive(a))["type"] == "challenge_cancelled"

    c3 = await adb(service.create)(alice, to="bob", kind="claim")
    await receive(a)
    await adb(lambda: Challenge.objects.filter(pk=c3.pk).update(expires_at=timezone.now() - timedelta(seconds=1)))()
    assert await adb(service.expire_due)() == 1
    expired = await receive(a)
    assert expired["type"] == "challenge_expired" and expired["challenge"]["id"] == c3.pk


async def test_game_finished_after_a_resignation(connect, make_user, make_token, two_player_game):
    game_id, alice, bob = await adb(two_player_game)()
    a = await _socket(connect, make_token, alice)
    await adb(resign)(bob, game_id)
    finished = await _next_of(a, "game_finished")
    assert finished["game_id"] == game_id and finished["game"]["status"] == "finished"
    assert finished["game"]["result"]["reason"] == "resigned"


async def test_a_socket_can_silence_notifications(connect, make_user, make_token):
    user = await adb(make_user)()
    comm = await _socket(connect, make_token, user)
    await comm.send_json_to({"type": "notifications", "enabled": "no"})
    assert (await receive(comm))["type"] == "error"
    await comm.send_json_to({"type": "notifications", "enabled": False, "id": 7})
    assert await receive(comm) == {"type": "notifications", "enabled": False, "id": 7}
    await adb(push_to_sockets)([(user.pk, {"id": 1, "event": "your_turn"})])
    await assert_silent(comm, 0.3)
    await comm.send_json_to({"type": "notifications", "enabled": True})
    await receive(comm)
    await adb(push_to_sockets)([(user.pk, {"id": 2, "event": "your_turn"})])
    assert (await receive(comm))["notification"]["id"] == 2
