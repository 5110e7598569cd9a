"""Subscribing, receiving your own view after every change, and never anybody else's."""

from __future__ import annotations

import pytest
from channels.layers import get_channel_layer

from games.service import create_game, make_move

from .conftest import adb, assert_silent, play_one, receive, view_of

pytestmark = pytest.mark.django_db(transaction=True)


async def _socket(connect, make_token, user):
    plain = await adb(make_token)(user)
    connected, _, comm = await connect(token=plain)
    assert connected
    return comm


async def _subscribe(comm, games) -> dict:
    await comm.send_json_to({"type": "subscribe", "games": games})
    return await receive(comm)


async def test_subscribe_acks_with_current_versions(connect, make_token, two_player_game):
    game_id, alice, _ = await adb(two_player_game)()
    comm = await _socket(connect, make_token, alice)
    version = (await adb(view_of)(game_id, alice))["version"]
    ack = await _subscribe(comm, [game_id])
    assert ack == {"type": "subscribed", "games": [game_id], "versions": {str(game_id): version}}


async def test_each_player_receives_their_own_view_after_a_move(connect, make_token, two_player_game):
    game_id, alice, bob = await adb(two_player_game)()
    sockets = {}
    for user in (alice, bob):
        sockets[user.pk] = await _socket(connect, make_token, user)
        assert (await _subscribe(sockets[user.pk], [game_id]))["type"] == "subscribed"

    _, version = await adb(play_one)(game_id, alice, bob)

    for user in (alice, bob):
        message = await receive(sockets[user.pk])
        assert message["type"] == "game"
        assert message["game_id"] == game_id
        assert message["version"] == version
        # Exactly what GET /api/v1/games/{id} shows this user, and never the other seat's view.
        assert message["view"] == await adb(view_of)(game_id, user)
        assert message["view"]["my_seat"] == (0 if user == alice else 1)
        assert [s["you"] for s in message["view"]["seats"]] == ([True, False] if user == alice else [False, True])
        await assert_silent(sockets[user.pk], 0.2)
    alice_view, bob_view = (await adb(view_of)(game_id, alice))["view"], (await adb(view_of)(game_id, bob))["view"]
    assert alice_view != bob_view  # the hands differ: each socket got its own seat's secrets only


async def test_the_opponent_sees_the_move_and_versions_increase_by_one(connect, make_token, two_player_game):
    game_id, alice, bob = await adb(two_player_game)()
    comm = await _socket(connect, make_token, alice)
    ack = await _subscribe(comm, [game_id])
    last = ack["versions"][str(game_id)]
    for _ in range(4):
        await adb(play_one)(game_id, alice, bob)
        message = await receive(comm)
        assert message["version"] == last + 1
        last = message["version"]


async def test_stranger_cannot_subscribe_and_receives_nothing(connect, make_token, make_user, two_player_game):
    game_id, alice, bob = await adb(two_player_game)()
    stranger = await adb(make_user)()
    comm = await _socket(connect, make_token, stranger)

    await comm.send_json_to({"type": "subscribe", "games": [game_id], "id": "s1"})
    error = await receive(comm)
    assert error == {"type": "error", "message": f"Not one of your games: {game_id}.", "id": "s1"}
    assert await receive(comm) == {"type": "subscribed", "games": [], "versions": {}, "id": "s1"}

    # A game id that does not exist gets the same words: the socket does not reveal which ids exist.
    await comm.send_json_to({"type": "subscribe", "games": [game_id + 10_000]})
    assert (await receive(comm))["message"] == f"Not one of your games: {game_id + 10_000}."
    await receive(comm)

    assert (await _subscribe(comm, "all")) == {"type": "subscribed", "games": "all"}
    await adb(play_one)(game_id, alice, bob)
    await assert_silent(comm, 0.5)


async def test_unsubscribed_games_are_not_forwarded(connect, make_token, two_player_game):
    game_id, alice, bob = await adb(two_player_game)()
    other_id, alice2, carol = await adb(two_player_game)()
    comm = await _socket(connect, make_token, alice)
    await _subscribe(comm, [game_id])

    await adb(play_one)(other_id, alice2, carol)  # not alice's game at all
    await assert_silent(comm, 0.3)

    await comm.send_json_to({"type": "unsubscribe", "games": [game_id]})
    assert await receive(comm) == {"type": "unsubscribed", "games": [game_id]}
    await adb(play_one)(game_id, alice, bob)
    await assert_silent(comm, 0.3)

    await _subscribe(comm, [game_id])
    _, version = await adb(play_one)(game_id, alice, bob)
    assert (await receive(comm))["version"] == version


async def test_subscribe_all_includes_games_created_later(connect, make_token, make_user):
    alice, bob = await adb(make_user)(), await adb(make_user)()
    comm = await _socket(connect, make_token, bob)
    assert (await _subscribe(comm, "all")) == {"type": "subscribed", "games": "all"}

    game = await adb(create_game)(alice, "claim", opponents=[{"type": "user", "username": bob.username}])
    message = await receive(comm)  # bob was invited: he sees the new game at once
    assert (message["type"], message["game_id"], message["version"]) == ("game", game.pk, game.version)
    assert message["view"]["seats"][1]["you"] is True

    await comm.send_json_to({"type": "unsubscribe", "games": "all"})
    assert await receive(comm) == {"type": "unsubscribed", "games": "all"}


async def test_sync_returns_the_current_view(connect, make_token, make_user, two_player_game):
    game_id, alice, bob = await adb(two_player_game)()
    await adb(play_one)(game_id, alice, bob)
    comm = await _socket(connect, make_token, bob)
    await comm.send_json_to({"type": "sync", "game_id": game_id, "id": 3})
    message = await receive(comm)
    expected = await adb(view_of)(game_id, bob)
    assert message == {"type": "game", "game_id": game_id, "version": expected["version"], "view": expected, "id": 3}

    stranger = await adb(make_user)()
    other = await _socket(connect, make_token, stranger)
    await other.send_json_to({"type": "sync", "game_id": game_id})
    assert await receive(other) == {"type": "error", "message": f"Not one of your games: {game_id}."}


async def test_older_versions_arriving_late_are_dropped(connect, make_token, two_player_game):
    """If two servers publish out of order, the client never gets an older view after a newer one."""
    game_id, alice, bob = await adb(two_player_game)()
    comm = await _socket(connect, make_token, alice)
    await _subscribe(comm, [game_id])
    _, version = await adb(play_one)(game_id, alice, bob)
    assert (await receive(comm))["version"] == version

    layer = get_channel_layer()
    stale = {"type": "game.update", "game_id": game_id, "version": version - 1, "view": {"stale": True}}
    await layer.group_send(f"user.{alice.pk}", stale)
    await layer.group_send(f"user.{alice.pk}", dict(stale, version=version))  # a duplicate
    await assert_silent(comm, 0.3)


async def test_session_socket_receives_updates(connect, session_cookie, two_player_game):
    game_id, alice, bob = await adb(two_player_game)()
    cookie = await adb(session_cookie)(bob)
    _, _, comm = await connect(headers=[cookie])
    await _subscribe(comm, [game_id])
    _, version = await adb(play_one)(game_id, alice, bob)
    message = await receive(comm)
    assert message["version"] == version
    assert message["view"]["my_seat"] == 1


async def test_ai_moves_are_pushed_too(connect, make_token, make_user, eager_tasks):
    """The AI plays inside the commit hook of the human move (eager tasks)."""
    alice = await adb(make_user)()
    game = await adb(create_game)(alice, "claim", opponents=[{"type": "ai", "level": 1}])
    comm = await _socket(connect, make_token, alice)
    await _subscribe(comm, [game.pk])
    view = await adb(view_of)(game.pk, alice)
    start = view["version"]
    versions: list[int] = []
    ai_pushed = False
    # Alice moves whenever it is her turn (after her move she may lead again if she won the trick)
    # until a pushed version was made by the AI seat.
    for _ in range(60):
        if view["my_turn"]:
            await adb(make_move)(alice, game.pk, view["version"], view["legal_moves"][0])
        message = await receive(comm)
        versions.append(message["version"])
        view = message["view"]
        ai_pushed = (view["last_events"] or {}).get("seat") == 1
        if ai_pushed or view["status"] != "active":
            break
    assert ai_pushed, "a move made by the AI reached alice's socket"
    assert versions == list(range(start + 1, start + 1 + len(versions))), "every version, in order, no gap"
