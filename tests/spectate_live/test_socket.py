"""The spectators' feed over the events socket (docs/realtime.md, "Spectating"): ``watch`` / ``watching`` and the
``spectator_game`` frames, once per version and in order, never a hand; refusals; the players' ``spectators``
count; ``watch_ended`` after a block or when the game stops being watchable; the game's end."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer

from accounts import relations
from games.models import Game
from games.realtime import spectators as live
from games.realtime.spectators import MAX_WATCHED, NOT_FOUND, end_watching
from games.service import resign
from games.spectate import counts
from games.spectate.access import watch_group
from tests.realtime.conftest import assert_silent, play_one
from tests.realtime.test_streams import Stream

from .conftest import adb, next_frame, socket_of

pytestmark = pytest.mark.django_db(transaction=True)


async def _watch(comm, game_id) -> tuple[dict, dict]:
    await comm.send_json_to({"type": "watch", "game_id": game_id})
    return await next_frame(comm), await next_frame(comm)


def _no_hand(frame: dict) -> None:
    game = frame["game"]
    assert "hand" not in (game.get("view") or {}) and "legal_moves" not in game and "my_seat" not in game


async def test_a_spectator_gets_each_version_once_and_in_order(connect, make_token, make_user, watchable_game):
    game_id, alice, bob = await adb(watchable_game)()
    sam = await adb(make_user)("sam")
    s = await socket_of(connect, make_token, sam)
    watching, first = await _watch(s, game_id)
    assert watching["type"] == "watching" and watching["game_id"] == game_id
    assert first["type"] == "spectator_game" and first["version"] == watching["version"] == first["game"]["version"]
    assert first["game"]["spectators"] == 1 and first["game"]["id"] == game_id
    _no_hand(first)
    versions = [first["version"]]
    for _ in range(4):
        _, version = await adb(play_one)(game_id, alice, bob)
        frame = await next_frame(s)
        assert frame["type"] == "spectator_game" and frame["version"] == version
        _no_hand(frame)
        versions.append(version)
    assert versions == sorted(set(versions))  # each once, in order
    await assert_silent(s, 0.3)
    await s.send_json_to({"type": "unwatch", "game_id": game_id})
    assert await next_frame(s) == {"type": "unwatched", "game_id": game_id}
    await adb(play_one)(game_id, alice, bob)
    await assert_silent(s, 0.5)


async def test_the_frame_is_built_once_per_version_for_all_spectators(connect, make_token, make_user,
                                                                       watchable_game, monkeypatch):
    built = []
    real = live.spectator_game

    def counting(*args, **kwargs):
        built.append(args[0].version)
        return real(*args, **kwargs)

    game_id, alice, bob = await adb(watchable_game)()
    sockets = [await socket_of(connect, make_token, await adb(make_user)(f"w{i}")) for i in range(3)]
    for s in sockets:
        await _watch(s, game_id)
    monkeypatch.setattr(live, "spectator_game", counting)
    _, version = await adb(play_one)(game_id, alice, bob)
    texts = []
    for s in sockets:
        frame = await next_frame(s)
        assert frame["version"] == version
        texts.append(frame)
    assert built == [version] and texts[0] == texts[1] == texts[2]
    assert texts[0]["game"]["spectators"] == 3


async def test_never_an_older_version_after_a_newer_one(connect, make_token, make_user, watchable_game):
    game_id, alice, bob = await adb(watchable_game)()
    s = await socket_of(connect, make_token, await adb(make_user)("sam"))
    _, first = await _watch(s, game_id)
    layer = get_channel_layer()
    stale = {"type": "watch.update", "game_id": game_id, "version": first["version"], "final": False, "text": "{}"}
    await layer.group_send(watch_group(game_id), stale)
    await assert_silent(s, 0.3)
    _, version = await adb(play_one)(game_id, alice, bob)
    assert (await next_frame(s))["version"] == version


async def test_refusals(connect, make_token, make_user, watchable_game, two_player_game):
    game_id, _, bob = await adb(watchable_game)()
    hidden_id, _, _ = await adb(two_player_game)()  # not watchable
    sam = await adb(make_user)("sam")
    s = await socket_of(connect, make_token, sam)
    for bad in (None, "1", 0, -3, 1.5, True, 10**19, [1], {"id": 1}):
        await s.send_json_to({"type": "watch", "game_id": bad})
        frame = await next_frame(s)
        assert frame["type"] == "error" and "game id" in frame["message"], (bad, frame)
    for refused in (hidden_id, 987654321):
        await s.send_json_to({"type": "watch", "game_id": refused})
        assert await next_frame(s) == {"type": "error", "message": NOT_FOUND}
    await adb(relations.add)(bob.pk, relations.BLOCK, sam.pk)  # bob blocks sam: the same words
    await s.send_json_to({"type": "watch", "game_id": game_id})
    assert await next_frame(s) == {"type": "error", "message": NOT_FOUND}
    assert await adb(counts.count)(game_id) == 0 and await adb(counts.count)(hidden_id) == 0
    await s.send_json_to({"type": "unwatch", "game_id": "x"})
    assert (await next_frame(s))["type"] == "error"


async def test_at_most_ten_watched_games_per_socket(connect, make_token, make_user, watchable_game):
    games = [await adb(watchable_game)() for _ in range(MAX_WATCHED + 1)]
    s = await socket_of(connect, make_token, await adb(make_user)("sam"))
    for game_id, _, _ in games[:MAX_WATCHED]:
        watching, _ = await _watch(s, game_id)
        assert watching["type"] == "watching"
    await s.send_json_to({"type": "watch", "game_id": games[-1][0]})
    frame = await next_frame(s)
    assert frame["type"] == "error" and f"At most {MAX_WATCHED}" in frame["message"]
    watching, _ = await _watch(s, games[0][0])  # watching one again is no new game
    assert watching["type"] == "watching"
    await s.send_json_to({"type": "unwatch", "game_id": games[0][0]})
    assert (await next_frame(s))["type"] == "unwatched"
    watching, _ = await _watch(s, games[-1][0])
    assert watching["type"] == "watching"


async def test_players_get_the_spectator_count(connect, make_token, make_user, watchable_game):
    game_id, alice, _ = await adb(watchable_game)()
    a = await socket_of(connect, make_token, alice)
    s1 = await socket_of(connect, make_token, await adb(make_user)("sam"))
    s2 = await socket_of(connect, make_token, await adb(make_user)("tim"))
    await _watch(s1, game_id)
    assert await next_frame(a) == {"type": "spectators", "game_id": game_id, "count": 1}
    await _watch(s2, game_id)
    assert await next_frame(a) == {"type": "spectators", "game_id": game_id, "count": 2}
    await s1.send_json_to({"type": "unwatch", "game_id": game_id})
    assert await next_frame(a) == {"type": "spectators", "game_id": game_id, "count": 1}
    await s2.disconnect()  # disconnect leaves every watch
    assert await next_frame(a) == {"type": "spectators", "game_id": game_id, "count": 0}
    assert await adb(counts.count)(game_id) == 0


@pytest.mark.parametrize("blocker", ["player", "spectator"])
async def test_a_block_ends_the_watch(connect, make_token, make_user, watchable_game, blocker):
    game_id, alice, bob = await adb(watchable_game)()
    other_id, carol, dan = await adb(watchable_game)()
    sam = await adb(make_user)("sam")
    s = await socket_of(connect, make_token, sam)
    await _watch(s, game_id)
    await _watch(s, other_id)
    if blocker == "player":
        await adb(relations.add)(bob.pk, relations.BLOCK, sam.pk)
    else:
        await adb(relations.add)(sam.pk, relations.BLOCK, bob.pk)
    assert await next_frame(s) == {"type": "watch_ended", "game_id": game_id, "reason": "blocked"}
    await adb(play_one)(game_id, alice, bob)
    await adb(play_one)(other_id, carol, dan)
    frame = await next_frame(s)  # the other game goes on; the blocked one is silent
    assert frame["type"] == "spectator_game" and frame["game_id"] == other_id
    await assert_silent(s, 0.3)
    assert await adb(counts.count)(game_id) == 0


async def test_a_game_no_longer_watchable_ends_the_watch(connect, make_token, make_user, watchable_game):
    game_id, alice, bob = await adb(watchable_game)()
    s = await socket_of(connect, make_token, await adb(make_user)("sam"))
    await _watch(s, game_id)
    await adb(Game.objects.filter(pk=game_id).update)(watchable=False)
    await adb(play_one)(game_id, alice, bob)  # the next version says so
    assert await next_frame(s) == {"type": "watch_ended", "game_id": game_id, "reason": "not_watchable"}
    await adb(play_one)(game_id, alice, bob)
    await assert_silent(s, 0.3)
    s2 = await socket_of(connect, make_token, await adb(make_user)("tim"))
    await adb(Game.objects.filter(pk=game_id).update)(watchable=True)
    await _watch(s2, game_id)
    await adb(Game.objects.filter(pk=game_id).update)(watchable=False)
    await adb(end_watching)(game_id)  # without a new version
    assert await next_frame(s2) == {"type": "watch_ended", "game_id": game_id, "reason": "not_watchable"}


async def test_the_end_is_the_last_frame(connect, make_token, make_user, watchable_game):
    game_id, _, bob = await adb(watchable_game)()
    s = await socket_of(connect, make_token, await adb(make_user)("sam"))
    await _watch(s, game_id)
    await adb(resign)(bob, game_id)
    last = await next_frame(s)
    assert last["type"] == "spectator_game" and last["game"]["status"] == "finished"
    assert last["game"]["result"] is not None
    await asyncio.sleep(0.1)
    assert await adb(counts.count)(game_id) == 0  # no longer watching
    await assert_silent(s, 0.3)


async def test_a_watching_socket_and_stream_stay_counted_past_the_ttl(asgi_app, connect, make_token, make_user,
                                                                      watchable_game, monkeypatch):
    """The count forgets a watcher not refreshed within WATCHER_TTL; open sockets and streams refresh theirs."""
    monkeypatch.setattr(counts, "WATCHER_TTL", 1.2)
    game_id, _, _ = await adb(watchable_game)()
    s = await socket_of(connect, make_token, await adb(make_user)("sam"))
    await _watch(s, game_id)
    stream = Stream(asgi_app, f"/api/v1/games/{game_id}/watch/stream", None)
    assert (await stream.start())["status"] == 200
    assert (await stream.line())["type"] == "spectator_game"
    await asyncio.sleep(3.0)
    assert await adb(counts.count)(game_id) == 2
    await adb(counts.watch_started)(game_id, "gone")  # a watcher that never refreshes is forgotten
    await asyncio.sleep(1.5)
    assert await adb(counts.count)(game_id) == 2
