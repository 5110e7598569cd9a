"""``viewing``: the socket tells the server which game is on screen, so no notification is sent
for it (issue 6: "nothing is sent for a game the user is looking at right now")."""

from __future__ import annotations

import pytest

from games.realtime.presence import is_present

from .conftest import adb, receive

pytestmark = pytest.mark.django_db(transaction=True)


async def _socket(connect, make_token, user):
    plain = await adb(make_token)(user)
    connected, _, comm = await connect(token=plain)
    assert connected
    return comm


async def test_viewing_marks_presence_until_the_game_is_closed(connect, make_token, two_player_game):
    game_id, alice, _ = await adb(two_player_game)()
    comm = await _socket(connect, make_token, alice)
    assert not await adb(is_present)(alice.pk, game_id)
    await comm.send_json_to({"type": "viewing", "game_id": game_id})
    assert await receive(comm) == {"type": "viewing", "game_id": game_id}
    assert await adb(is_present)(alice.pk, game_id)
    await comm.send_json_to({"type": "viewing", "game_id": None})
    assert await receive(comm) == {"type": "viewing", "game_id": None}
    assert not await adb(is_present)(alice.pk, game_id)


async def test_presence_ends_with_the_socket(connect, make_token, two_player_game):
    game_id, alice, _ = await adb(two_player_game)()
    comm = await _socket(connect, make_token, alice)
    await comm.send_json_to({"type": "viewing", "game_id": game_id})
    await receive(comm)
    await comm.disconnect()
    assert not await adb(is_present)(alice.pk, game_id)


async def test_viewing_someone_elses_game_is_refused(connect, make_token, make_user, two_player_game):
    game_id, _, _ = await adb(two_player_game)()
    stranger = await adb(make_user)()
    comm = await _socket(connect, make_token, stranger)
    await comm.send_json_to({"type": "viewing", "game_id": game_id})
    reply = await receive(comm)
    assert reply["type"] == "error" and "Not one of your games" in reply["message"]
    assert not await adb(is_present)(stranger.pk, game_id)
