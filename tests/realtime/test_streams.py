"""NDJSON streams (issue 26, games/streams.py): the socket's frames over plain HTTP, on the event loop."""

from __future__ import annotations

import json

import pytest
from asgiref.testing import ApplicationCommunicator

from games.challenges import service
from games.service import resign

from .conftest import adb, play_one

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _eager(eager_tasks):
    """The game_changed receivers run on commit, in this process."""


class Stream:
    def __init__(self, app, path: str, token: str | None, method: str = "GET") -> None:
        path, _, query = path.partition("?")
        headers = [(b"authorization", f"Bearer {token}".encode())] if token else []
        self.comm = ApplicationCommunicator(app, {
            "type": "http", "method": method, "path": path, "query_string": query.encode(), "headers": headers,
            "http_version": "1.1", "scheme": "http", "server": ("testserver", 80), "client": ("127.0.0.1", 1)})
        self.buffer = b""

    async def start(self) -> dict:
        await self.comm.send_input({"type": "http.request", "body": b"", "more_body": False})
        return await self.comm.receive_output(timeout=5)

    async def line(self, timeout: float = 5) -> dict | None:
        """The next non-empty line as JSON, or None when the body ended."""
        while b"\n" not in self.buffer:
            message = await self.comm.receive_output(timeout=timeout)
            self.buffer += message.get("body", b"")
            if not message.get("more_body", False):
                if not self.buffer.strip():
                    return None
                break
        raw, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(raw) if raw.strip() else await self.line(timeout)

    async def close(self) -> None:
        await self.comm.send_input({"type": "http.disconnect"})
        await self.comm.wait(timeout=5)


async def test_a_game_stream_sends_the_current_view_then_each_version_and_ends_with_the_game(
        asgi_app, make_token, two_player_game):
    game_id, alice, bob = await adb(two_player_game)()
    token = await adb(make_token)(alice, scopes=["games:read"])
    stream = Stream(asgi_app, f"/api/v1/games/{game_id}/stream", token)
    start = await stream.start()
    assert start["status"] == 200 and (b"content-type", b"application/x-ndjson") in start["headers"]
    first = await stream.line()
    assert first["type"] == "game" and first["game_id"] == game_id and first["view"]["my_seat"] == 0
    _, version = await adb(play_one)(game_id, alice, bob)
    moved = await stream.line()
    assert moved["version"] == version == first["version"] + 1
    assert "hand" in moved["view"]["view"]  # alice's own view, as on the socket
    await adb(resign)(bob, game_id)
    last = await stream.line()
    assert last["view"]["status"] == "finished"
    assert await stream.line() is None  # the stream ends with the game


async def test_the_event_stream_carries_challenges_and_lifecycle_events(asgi_app, make_user, make_token):
    alice, bob = await adb(make_user)("alice"), await adb(make_user)("bob")
    stream = Stream(asgi_app, "/api/v1/stream/events", await adb(make_token)(bob, scopes=["games:read"]))
    assert (await stream.start())["status"] == 200
    c = await adb(service.create)(alice, to="bob", kind="claim")
    received = await stream.line()
    assert received["type"] == "challenge_received" and received["challenge"]["id"] == c.pk
    await adb(service.accept)(bob, c.pk)
    kinds = {(await stream.line())["type"], (await stream.line())["type"]}
    assert kinds == {"challenge_accepted", "game_started"}
    await stream.close()


@pytest.mark.parametrize(("path", "token", "method", "status", "code"), [
    ("/api/v1/stream/events", None, "GET", 401, "not_authenticated"),
    ("/api/v1/stream/events", "clm_deadbeef_nope", "GET", 401, "authentication_failed"),
    ("/api/v1/stream/events", "scopeless", "GET", 403, "insufficient_scope"),
    ("/api/v1/stream/events", "good", "POST", 405, "method_not_allowed"),
    ("/api/v1/games/999999/stream", "good", "GET", 404, "not_found"),
])
async def test_refusals_are_json_errors(asgi_app, make_user, make_token, path, token, method, status, code):
    user = await adb(make_user)()
    if token == "good":
        token = await adb(make_token)(user)
    elif token == "scopeless":
        token = await adb(make_token)(user, scopes=["games:play"])
    stream = Stream(asgi_app, path, token, method)
    start = await stream.start()
    assert start["status"] == status
    body = await stream.comm.receive_output(timeout=5)
    assert json.loads(body["body"])["error"]["code"] == code


async def test_another_users_game_is_not_found(asgi_app, make_user, make_token, two_player_game):
    game_id, _, _ = await adb(two_player_game)()
    stranger = await adb(make_user)()
    stream = Stream(asgi_app, f"/api/v1/games/{game_id}/stream", await adb(make_token)(stranger))
    assert (await stream.start())["status"] == 404
