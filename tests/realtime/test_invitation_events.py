"""``invitation_received`` / ``invitation_cancelled`` (issue 35, games/realtime/invitations.py): each reaches exactly
the invited users, once, on their sockets and account streams, in the shape the OpenAPI schema gives them."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.challenges import service as challenges
from games.service import create_game, join_game, offer_abort

from .conftest import adb, assert_silent, receive
from .test_stream_schema import event_line_checker
from .test_streams import Stream

pytestmark = pytest.mark.django_db(transaction=True)

MIX = {"factions": ["knight", "goblin", "undead", "dwarf", "doppelganger", "dragon", "troll"]}
INVITATIONS = {"invitation_received", "invitation_cancelled"}


@pytest.fixture(autouse=True)
def _eager(eager_tasks):
    """The game_changed receivers (notifications) run on commit, in this process."""


@pytest.fixture
def lines():
    """Checks a frame against the schema (tests.realtime.test_stream_schema.event_line_checker)."""
    return event_line_checker()


async def _socket(connect, make_token, user):
    connected, _, comm = await connect(token=await adb(make_token)(user))
    assert connected
    return comm


async def _invitation_frames(comm, quiet: float = 0.4) -> list[dict]:
    """Every invitation frame the socket got until it has been quiet for ``quiet`` s (other frames skipped:
    notifications, lifecycle events)."""
    got = []
    while not await comm.receive_nothing(timeout=quiet):  # (a receive that times out would end the socket)
        frame = await receive(comm)
        if frame["type"] in INVITATIONS:
            got.append(frame)
    return got


def _three_seats(creator, *invited, kind="claim-mix"):
    return create_game(creator, kind, MIX, seats=3,
                       opponents=[{"type": "user", "username": u.username} for u in invited]
                       + [{"type": "ai", "level": 1}] * (2 - len(invited)))


async def test_an_invitation_reaches_each_invited_user_once_on_socket_and_stream(connect, asgi_app, make_user,
                                                                                  make_token, lines):
    alice, bob, carol, dave = [await adb(make_user)(n) for n in ("alice", "bob", "carol", "dave")]
    sockets = {u.username: await _socket(connect, make_token, u) for u in (alice, bob, carol, dave)}
    stream = Stream(asgi_app, "/api/v1/stream/events", await adb(make_token)(bob, scopes=["games:read"]))
    assert (await stream.start())["status"] == 200

    game = await adb(_three_seats)(alice, bob, carol)

    for user in (bob, carol):
        (frame,) = await _invitation_frames(sockets[user.username])
        lines(frame)
        assert frame["type"] == "invitation_received" and frame["game_id"] == game.pk
        assert frame["by"] == {"username": "alice", "name": alice.public_name, "is_bot": False}
        summary = frame["game"]
        assert summary["status"] == "open" and summary["id"] == game.pk
        mine = summary["seats"][summary["my_seat"]]
        assert mine["username"] == user.username and mine["joined"] is False and mine["you"] is True
    assert await _invitation_frames(sockets["alice"]) == []  # the inviter is not invited
    await assert_silent(sockets["dave"], 0.3)  # nor anyone else
    line = await stream.line()
    lines(line)
    assert line["type"] == "invitation_received" and line["game_id"] == game.pk
    await stream.close()


async def test_calling_off_the_game_cancels_only_the_invitations_not_accepted(connect, asgi_app, make_user,
                                                                              make_token, lines):
    alice, bob, carol = [await adb(make_user)(n) for n in ("alice", "bob", "carol")]
    sockets = {u.username: await _socket(connect, make_token, u) for u in (alice, bob, carol)}  # before the
    game = await adb(_three_seats)(alice, bob, carol)  # game: its invitations' push is not awaited by the service
    await adb(join_game)(bob, game.pk)
    for name in ("bob", "carol"):
        assert [f["type"] for f in await _invitation_frames(sockets[name])] == ["invitation_received"]
    stream = Stream(asgi_app, "/api/v1/stream/events", await adb(make_token)(carol, scopes=["games:read"]))
    assert (await stream.start())["status"] == 200

    await adb(offer_abort)(alice, game.pk)  # the creator calls it off while open

    (frame,) = await _invitation_frames(sockets["carol"])
    lines(frame)
    assert frame == {"type": "invitation_cancelled", "game_id": game.pk, "reason": "aborted", "game": frame["game"]}
    assert frame["game"]["status"] == "aborted" and frame["game"]["my_seat"] is not None
    assert await _invitation_frames(sockets["bob"]) == []  # bob had joined: game_finished says it
    assert await _invitation_frames(sockets["alice"]) == []
    line = await stream.line()
    while line is not None and line["type"] not in INVITATIONS:  # game_finished comes too
        line = await stream.line()
    assert line is not None and line["type"] == "invitation_cancelled" and line["game_id"] == game.pk
    lines(line)
    await stream.close()


async def test_an_invitee_declining_tells_every_invitee_their_devices_included(connect, make_user, make_token):
    alice, bob, carol = [await adb(make_user)(n) for n in ("alice", "bob", "carol")]
    # the sockets first: the invitation's push is not awaited by the service, so a socket connecting just after
    # the game's creation may or may not hear it
    b, c = await _socket(connect, make_token, bob), await _socket(connect, make_token, carol)
    game = await adb(_three_seats)(alice, bob, carol)
    for comm in (b, c):
        assert [f["type"] for f in await _invitation_frames(comm)] == ["invitation_received"]
    await adb(offer_abort)(carol, game.pk)  # an invitee declines: the game is called off
    for comm in (b, c):
        assert [f["type"] for f in await _invitation_frames(comm)] == ["invitation_cancelled"]


async def test_no_invitation_for_players_seated_at_once(connect, make_user, make_token):
    """A game created and every invited user joined in one transaction, and an accepted challenge (created
    seated, as a seek's pairing is) invite nobody; nor does a game against the AI or with open seats."""
    alice, bob, carol = [await adb(make_user)(n) for n in ("alice", "bob", "carol")]
    sockets = [await _socket(connect, make_token, u) for u in (alice, bob, carol)]

    def paired():
        with transaction.atomic():  # created, then joined by every invited user at once
            game = _three_seats(alice, bob, carol)
            join_game(bob, game.pk)
            join_game(carol, game.pk)
        return game

    def challenged():
        challenge = challenges.create(alice, to="bob", kind="claim")
        challenges.accept(bob, challenge.pk)

    await adb(paired)()
    await adb(challenged)()
    await adb(create_game)(alice, "claim", seats=2, opponents=[{"type": "ai", "level": 1}])
    await adb(create_game)(alice, "claim-mix", MIX, seats=3)  # open seats (a code), nobody invited
    for comm in sockets:
        assert await _invitation_frames(comm) == []


async def test_a_two_seat_invitation_by_username_is_one_too(connect, make_user, make_token, lines):
    alice, bob = await adb(make_user)("alice"), await adb(make_user)("bob")
    b = await _socket(connect, make_token, bob)
    game = await adb(create_game)(alice, "claim", seats=2, opponents=[{"type": "user", "username": "bob"}])
    (frame,) = await _invitation_frames(b)
    lines(frame)
    assert frame["type"] == "invitation_received" and frame["game_id"] == game.pk
    await adb(join_game)(bob, game.pk)  # accepted: the game starts, no cancellation follows
    assert await _invitation_frames(b) == []
