"""``GET /api/v1/games/{id}/watch/stream``: the spectator's NDJSON feed (docs/realtime.md, "Spectating"): the
``spectator_game`` frame first, then one line per version in order, never a hand; anonymous callers too; the
REST refusals (404 with the API's error body, 401 for a bad token, 403 for a token without games:read); the
final frame ends it; a block ends it with ``watch_ended``."""

from __future__ import annotations

import json

import pytest

from accounts import relations
from games.realtime.spectators import NOT_FOUND
from games.service import resign
from games.spectate import counts
from tests.realtime.conftest import play_one
from tests.realtime.test_stream_schema import served_schema, validator
from tests.realtime.test_streams import Stream, headers

from .conftest import adb

pytestmark = pytest.mark.django_db(transaction=True)


def _path(game_id) -> str:
    return f"/api/v1/games/{game_id}/watch/stream"


async def _body(stream: Stream) -> dict:
    out = b""
    while True:
        message = await stream.comm.receive_output(timeout=5)
        out += message.get("body", b"")
        if not message.get("more_body", False):
            return json.loads(out)


async def test_anonymous_watch_stream_sends_each_version_then_ends_with_the_game(asgi_app, watchable_game):
    game_id, alice, bob = await adb(watchable_game)()
    stream = Stream(asgi_app, _path(game_id), None)
    start = await stream.start()
    assert start["status"] == 200 and headers(start)["content-type"] == "application/x-ndjson"
    first = await stream.line()
    assert first["type"] == "spectator_game" and first["game"]["id"] == game_id and first["game"]["spectators"] == 1
    assert "hand" not in first["game"]["view"]
    assert await adb(counts.count)(game_id) == 1
    last = first["version"]
    for _ in range(3):
        _, version = await adb(play_one)(game_id, alice, bob)
        line = await stream.line()
        assert line["type"] == "spectator_game" and line["version"] == version > last
        assert "hand" not in line["game"]["view"]
        last = version
    await adb(resign)(alice, game_id)
    final = await stream.line()
    assert final["game"]["status"] == "finished" and final["game"]["result"] is not None
    assert await stream.line() is None  # ends after the final frame
    assert await adb(counts.count)(game_id) == 0


async def test_refusals_have_the_rest_bodies(asgi_app, make_token, make_user, watchable_game, two_player_game):
    game_id, alice, bob = await adb(watchable_game)()
    hidden_id, _, _ = await adb(two_player_game)()
    sam = await adb(make_user)("sam")
    token = await adb(make_token)(sam, scopes=["games:read"])
    for gid in (hidden_id, 987654321):
        stream = Stream(asgi_app, _path(gid), token)
        start = await stream.start()
        assert start["status"] == 404
        assert await _body(stream) == {"error": {"code": "not_found", "message": NOT_FOUND}}
    await adb(relations.add)(alice.pk, relations.BLOCK, sam.pk)
    stream = Stream(asgi_app, _path(game_id), token)
    assert (await stream.start())["status"] == 404
    stream = Stream(asgi_app, _path(game_id), "clm_not_a_token")
    assert (await stream.start())["status"] == 401
    no_read = await adb(make_token)(bob, scopes=["games:play"])
    stream = Stream(asgi_app, _path(game_id), no_read)
    start = await stream.start()
    assert start["status"] == 403
    assert (await _body(stream))["error"]["code"] == "insufficient_scope"


async def test_a_block_ends_the_stream(asgi_app, make_token, make_user, watchable_game):
    game_id, _, bob = await adb(watchable_game)()
    sam = await adb(make_user)("sam")
    stream = Stream(asgi_app, _path(game_id), await adb(make_token)(sam, scopes=["games:read"]))
    assert (await stream.start())["status"] == 200
    assert (await stream.line())["type"] == "spectator_game"
    await adb(relations.add)(bob.pk, relations.BLOCK, sam.pk)
    assert await stream.line() == {"type": "watch_ended", "game_id": game_id, "reason": "blocked"}
    assert await stream.line() is None
    assert await adb(counts.count)(game_id) == 0


async def test_a_real_watch_stream_matches_the_schema(asgi_app, make_token, make_user, watchable_game):
    schema = await adb(served_schema)()
    op = schema["paths"]["/api/v1/games/{game_id}/watch/stream"]["get"]
    assert op["x-streaming"] is True and {} in op["security"]
    lines = validator(schema, "#/components/schemas/StreamWatchLine")
    game_id, alice, bob = await adb(watchable_game)()
    sam = await adb(make_user)("sam")
    stream = Stream(asgi_app, _path(game_id), await adb(make_token)(sam, scopes=["games:read"]))
    assert (await stream.start())["status"] == 200
    received = [await stream.line()]
    await adb(play_one)(game_id, alice, bob)
    received.append(await stream.line())
    await adb(relations.add)(sam.pk, relations.BLOCK, alice.pk)
    received.append(await stream.line())
    assert [r["type"] for r in received] == ["spectator_game", "spectator_game", "watch_ended"]
    for line in received:
        lines.validate(line)


async def test_the_players_event_stream_carries_the_spectator_count(asgi_app, make_token, make_user, watchable_game):
    game_id, alice, _ = await adb(watchable_game)()
    events = Stream(asgi_app, "/api/v1/stream/events", await adb(make_token)(alice, scopes=["games:read"]))
    assert (await events.start())["status"] == 200
    watcher = Stream(asgi_app, _path(game_id), None)
    assert (await watcher.start())["status"] == 200
    assert (await watcher.line())["game"]["spectators"] == 1
    assert await events.line() == {"type": "spectators", "game_id": game_id, "count": 1}
    await watcher.close()
    assert await events.line() == {"type": "spectators", "game_id": game_id, "count": 0}
    await events.close()
