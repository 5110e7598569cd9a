"""Bad input gets an ``error`` message and the socket stays usable."""

from __future__ import annotations

import pytest

from games.realtime import queries

from .conftest import adb, receive

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
async def socket(connect, make_user, make_token):
    user = await adb(make_user)()
    plain = await adb(make_token)(user)
    _, _, comm = await connect(token=plain)
    return comm


async def _still_alive(comm) -> None:
    await comm.send_json_to({"type": "ping"})
    assert await receive(comm) == {"type": "pong"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "Malformed JSON."),
        ("   ", "Malformed JSON."),
        ("[1, 2]", 'A message must be a JSON object with a "type".'),
        ('"ping"', 'A message must be a JSON object with a "type".'),
        ("{}", "Unknown message type null"),
        ('{"type": "launch"}',
         'Unknown message type "launch"; known types: frames, notifications, ping, subscribe, sync, unsubscribe, '
         'unwatch, unwatch_tournament, viewing, watch, watch_tournament.'),
        ('{"type": 5}', "Unknown message type 5"),
        ('{"type": "subscribe"}', '"games" must be "all" or a non-empty list of game ids.'),
        ('{"type": "subscribe", "games": []}', '"games" must be "all" or a non-empty list of game ids.'),
        ('{"type": "subscribe", "games": "some"}', '"games" must be "all" or a non-empty list of game ids.'),
        ('{"type": "subscribe", "games": ["1"]}', '"games" must contain game ids (positive integers), got "1".'),
        ('{"type": "subscribe", "games": [true]}', '"games" must contain game ids'),
        ('{"type": "subscribe", "games": [-3]}', '"games" must contain game ids'),
        ('{"type": "unsubscribe", "games": 7}', '"games" must be "all" or a non-empty list of game ids.'),
        ('{"type": "sync"}', '"sync" needs "game_id"'),
        ('{"type": "sync", "game_id": "12"}', '"sync" needs "game_id"'),
    ],
)
async def test_bad_messages_get_an_error(socket, text, words):
    await socket.send_to(text_data=text)
    message = await receive(socket)
    assert message["type"] == "error"
    assert message["message"].startswith(words), message
    await _still_alive(socket)


async def test_binary_frames_get_an_error(socket):
    await socket.send_to(bytes_data=b"\x00\x01")
    assert await receive(socket) == {"type": "error", "message": "Send JSON text frames, not binary frames."}
    await _still_alive(socket)


async def test_oversized_messages_are_refused_unparsed(socket):
    await socket.send_to(text_data='{"type": "ping", "pad": "' + "x" * 20_000 + '"}')
    assert (await receive(socket))["message"].startswith("Message too long")
    await _still_alive(socket)


async def test_too_many_ids_are_refused(socket):
    await socket.send_json_to({"type": "subscribe", "games": list(range(1, 502))})
    assert "at most 500" in (await receive(socket))["message"]


async def test_errors_echo_the_request_id(socket):
    await socket.send_json_to({"type": "nope", "id": "abc"})
    message = await receive(socket)
    assert message["id"] == "abc"
    await socket.send_json_to({"type": "ping", "id": {"not": "scalar"}})
    assert await receive(socket) == {"type": "pong"}  # only strings and numbers are echoed


async def test_a_failing_handler_answers_internal_error(socket, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("database on fire")

    monkeypatch.setattr(queries, "current_view", boom)
    await socket.send_json_to({"type": "sync", "game_id": 1})
    message = await receive(socket)
    assert message["type"] == "error"
    assert message["message"].startswith("Internal error")
    assert "fire" not in message["message"]
    await _still_alive(socket)
