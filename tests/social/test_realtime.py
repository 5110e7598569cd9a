"""Over the socket and the account stream (issue 35): the ``followed`` event (games/social/events.py) in the shape
the OpenAPI schema gives it, and presence: every user is marked online by the socket (connect, ``ping``) and by
the stream (games/realtime/presence.py)."""

from __future__ import annotations

import asyncio

import pytest
from django.core.cache import cache

from accounts import relations
from games import streams
from games.realtime.presence import online_among
from tests.realtime.conftest import adb, asgi_app, connect, make_token, receive  # noqa: F401 — fixtures used here
from tests.realtime.test_stream_schema import event_line_checker
from tests.realtime.test_streams import Stream

from .conftest import SOCIAL

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lines():
    """Checks a frame against the schema (tests.realtime.test_stream_schema.event_line_checker)."""
    return event_line_checker("followed")


async def _socket(connect, make_token, user):  # noqa: F811
    connected, _, comm = await connect(token=await adb(make_token)(user))
    assert connected
    return comm


async def _followed(comm, quiet: float = 0.4) -> list[dict]:
    """The ``followed`` frames the socket got until it was quiet for ``quiet`` s (other frames skipped)."""
    got = []
    while not await comm.receive_nothing(timeout=quiet):
        frame = await receive(comm)
        if frame["type"] == "followed":
            got.append(frame)
    return got


async def test_a_new_follow_tells_the_user_followed_once(connect, make_token, member, lines):  # noqa: F811
    alice, bob = await adb(member)("alice", display_name="Alice A."), await adb(member)("bob")
    to_bob, to_alice = await _socket(connect, make_token, bob.user), await _socket(connect, make_token, alice.user)
    assert (await adb(alice.follow)("bob")).status_code == 200
    frames = await _followed(to_bob)
    assert frames == [{"type": "followed", "by": {"username": "alice", "name": "Alice A.", "is_bot": False}}]
    lines(frames[0])
    assert await _followed(to_alice) == []  # the follower is not told
    await adb(alice.follow)("bob")  # not new: nothing
    await adb(alice.follow)("bob", on=False)
    await adb(alice.follow)("bob")  # new again, but within the hour: nothing (no flooding)
    assert await _followed(to_bob) == []
    assert (await adb(bob.follow)("alice")).json()["friends"] is True
    assert [f["by"]["username"] for f in await _followed(to_alice)] == ["bob"]


@pytest.mark.parametrize("stance", ["mute", "block"])
async def test_nobody_is_told_of_a_follow_by_someone_they_mute_or_block(connect, make_token, member,  # noqa: F811
                                                                        stance):
    alice, bob = await adb(member)("alice"), await adb(member)("bob")
    to_bob = await _socket(connect, make_token, bob.user)
    await adb(bob.follow)("alice", stance)
    r = await adb(alice.follow)("bob")
    assert r.status_code == (200 if stance == "mute" else 403)
    assert await _followed(to_bob) == []


async def test_the_account_stream_carries_it(asgi_app, make_token, member, lines):  # noqa: F811
    alice, bob = await adb(member)("alice"), await adb(member)("bob")
    stream = Stream(asgi_app, "/api/v1/stream/events", await adb(make_token)(bob.user, scopes=["games:read"]))
    assert (await stream.start())["status"] == 200
    await adb(relations.add)(alice.user.pk, "follow", bob.user.pk)  # the service itself: the same event
    line = await stream.line()
    lines(line)
    assert line == {"type": "followed", "by": {"username": "alice", "name": "alice", "is_bot": False}}
    await stream.close()


async def test_the_socket_marks_every_user_online_on_connect_and_ping(connect, make_token, member):  # noqa: F811
    human = await adb(member)("human")
    assert await adb(online_among)([human.user.pk]) == set()
    comm = await _socket(connect, make_token, human.user)
    assert await adb(online_among)([human.user.pk]) == {human.user.pk}
    await adb(cache.clear)()
    await comm.send_json_to({"type": "ping"})
    assert (await receive(comm))["type"] == "pong"
    assert await adb(online_among)([human.user.pk]) == {human.user.pk}


async def test_the_stream_marks_its_user_online_and_keeps_it(asgi_app, make_token, member, monkeypatch):  # noqa: F811
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 0.2)
    human = await adb(member)("human", scopes=SOCIAL)
    stream = Stream(asgi_app, "/api/v1/stream/events", await adb(make_token)(human.user, scopes=["games:read"]))
    assert (await stream.start())["status"] == 200
    for _ in range(50):
        if await adb(online_among)([human.user.pk]):
            break
        await asyncio.sleep(0.05)
    assert await adb(online_among)([human.user.pk]) == {human.user.pk}
    await adb(cache.clear)()
    for _ in range(50):  # the next keep-alive marks it again
        await asyncio.sleep(0.05)
        if await adb(online_among)([human.user.pk]):
            break
    assert await adb(online_among)([human.user.pk]) == {human.user.pk}
    await stream.close()
