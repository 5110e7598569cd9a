"""Chat over the socket and the NDJSON game stream (docs/realtime.md, ``chat`` and ``chat_hidden``): each player
gets the line in their own language, none to a player who muted or blocked the author, spectators' lines to the
watch group, and the game stream carries its own game's chat only."""

from __future__ import annotations

import pytest
from channels.layers import get_channel_layer

from accounts import relations
from games.chat import service
from games.models import Game
from games.spectate.access import watch_group
from tests.realtime.conftest import (  # noqa: F401  # noqa: F401
    adb,
    asgi_app,
    assert_silent,
    connect,
    make_token,
    receive,
    session_cookie,
    two_player_game,
)
from tests.realtime.test_streams import Stream

pytestmark = pytest.mark.django_db(transaction=True)


async def _socket(connect, make_token, user):  # noqa: F811
    plain = await adb(make_token)(user)
    connected, _, comm = await connect(token=plain)
    assert connected
    return comm


async def _next(comm, kind: str) -> dict:
    """The next frame of type ``kind`` (skipping the ``notification`` frames of the in-app inbox)."""
    while True:
        frame = await receive(comm)
        if frame["type"] != "notification":
            assert frame["type"] == kind, frame
            return frame


def _post(user, game_id, **body):
    return service.post(user, game_id, body.get("room"), body.get("phrase"), body.get("text"))


async def test_players_get_the_line_each_in_their_language(connect, make_token, two_player_game):  # noqa: F811
    game_id, alice, bob = await adb(two_player_game)()
    bob.language = "de"
    await adb(bob.save)()
    a, b = await _socket(connect, make_token, alice), await _socket(connect, make_token, bob)
    line = await adb(_post)(alice, game_id, phrase="well_played")
    got_b, got_a = await _next(b, "chat"), await _next(a, "chat")
    assert got_b == {"type": "chat", "game_id": game_id, "message": {**line, "text": "Gut gespielt!"}}
    assert got_a["message"]["text"] == "Well played!"  # the author's other sockets too


async def test_no_push_to_a_muter_or_a_blocker(connect, make_token, two_player_game):  # noqa: F811
    game_id, alice, bob = await adb(two_player_game)()
    b = await _socket(connect, make_token, bob)
    await adb(relations.add)(bob.pk, relations.MUTE, alice.pk)
    await adb(_post)(alice, game_id, text="hello?")
    await assert_silent(b, 0.5)


async def test_chat_hidden_reaches_the_players(connect, make_token, two_player_game):  # noqa: F811
    game_id, alice, bob = await adb(two_player_game)()
    b = await _socket(connect, make_token, bob)
    line = await adb(_post)(alice, game_id, text="oops")
    assert (await _next(b, "chat"))["message"]["id"] == line["id"]
    assert await adb(service.hide)([line["id"]]) == 1
    assert await _next(b, "chat_hidden") == {"type": "chat_hidden", "game_id": game_id, "message_id": line["id"]}


async def test_spectators_lines_go_to_the_watch_group_not_to_the_players(connect, make_token, make_user,  # noqa: F811
                                                                         two_player_game, monkeypatch):  # noqa: F811
    """SPECTATORS' ROOM: a watchable game's spectators' lines reach its watch group only."""
    game_id, alice, _ = await adb(two_player_game)()
    await adb(Game.objects.filter(pk=game_id).update)(watchable=True)
    sam = await adb(make_user)("sam")
    a = await _socket(connect, make_token, alice)
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(watch_group(game_id), channel)
    line = await adb(_post)(sam, game_id, text="go alice")
    got = await layer.receive(channel)
    assert got == {"type": "client.event", "frame": {"type": "chat", "game_id": game_id, "message": line}}
    await assert_silent(a, 0.5)  # players read the spectators' room after the end


async def test_the_game_stream_carries_its_chat_only(asgi_app, make_token, two_player_game):  # noqa: F811
    game_id, alice, bob = await adb(two_player_game)()
    other_id, _, _ = await adb(two_player_game)()
    token = await adb(make_token)(bob, scopes=["games:read"])
    stream = Stream(asgi_app, f"/api/v1/games/{game_id}/stream", token)
    assert (await stream.start())["status"] == 200
    assert (await stream.line())["type"] == "game"
    await adb(service.events.send_frames)([(bob.pk, {"type": "chat", "game_id": other_id, "message": {}})], "t")
    line = await adb(_post)(alice, game_id, phrase="hello")
    got = await stream.line()
    assert got == {"type": "chat", "game_id": game_id, "message": line}
    await stream.close()
