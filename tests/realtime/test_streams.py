"""NDJSON streams (issue 26, games/streams.py): the socket's frames over plain HTTP, on the event loop; Django
views since issue #34 (their refusals compared with REST's: test_stream_rest_parity.py)."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.routing import URLRouter
from django.conf import settings
from django.contrib.sessions.middleware import SessionMiddleware
from django.test import Client
from django.urls import resolve, reverse

from claim.asgi import StreamsHandler, http_app, http_routes
from games import streams
from games.challenges import service
from games.realtime import limits
from games.service import resign

from .conftest import adb, play_one

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _eager(eager_tasks):
    """The game_changed receivers run on commit, in this process."""


def headers(start: dict) -> dict[str, str]:
    """An ``http.response.start`` message's header fields, by lower-case name (names are case-insensitive)."""
    return {name.decode().lower(): value.decode() for name, value in start["headers"]}


class Stream:
    def __init__(self, app, path: str, token: str | None, method: str = "GET", headers=()) -> None:
        path, _, query = path.partition("?")
        headers = [*headers, *([(b"authorization", f"Bearer {token}".encode())] if token else [])]
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
    assert start["status"] == 200 and headers(start)["content-type"] == "application/x-ndjson"
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


@pytest.mark.parametrize("method", ["HEAD", "PUT", "DELETE"])
async def test_streams_are_read_with_get_only(asgi_app, make_user, make_token, method):
    stream = Stream(asgi_app, "/api/v1/stream/events", await adb(make_token)(await adb(make_user)()), method)
    start = await stream.start()
    assert start["status"] == 405 and headers(start)["allow"] == "GET, OPTIONS"


async def test_streams_are_served_without_a_thread_of_their_own(asgi_app, make_user, make_token):
    """claim.asgi routes the stream paths to StreamsHandler (no per-request thread), everything else to Django's
    own handler; an open stream adds no thread to the process."""



    router = URLRouter(http_routes)
    game = streams.GAME_PATH_TEMPLATE.format(game_id=12)
    for path, app in ((streams.EVENTS_PATH, StreamsHandler), (game, StreamsHandler),
                      ("/api/v1/games/12", type(http_app)), ("/api/v1/games/12/streamx", type(http_app))):
        first = next(r for r in router.routes if r.pattern.match(path.lstrip("/")))
        assert type(first.callback) is app, path
    plain = await adb(make_token)(await adb(make_user)())
    warm = Stream(asgi_app, "/api/v1/stream/events", plain)
    assert (await warm.start())["status"] == 200
    threads = threading.active_count()
    opened = [Stream(asgi_app, "/api/v1/stream/events", plain) for _ in range(5)]
    for stream in opened:
        assert (await stream.start())["status"] == 200
    assert threading.active_count() <= threads
    for stream in (warm, *opened):
        await stream.close()


def test_the_stream_routes_are_the_documented_paths():
    """The paths the schema names (games/stream_schema.py) are the URLconf's routes of the stream view."""


    assert reverse("games:stream-events") == streams.EVENTS_PATH
    assert reverse("games:game-stream", kwargs={"game_id": 7}) == streams.GAME_PATH_TEMPLATE.format(game_id=7)
    for path in (streams.EVENTS_PATH, streams.GAME_PATH_TEMPLATE.format(game_id=123456789012345678)):
        assert resolve(path).func is streams.stream
        assert streams.GAME_PATH.match(path) or path == streams.EVENTS_PATH


async def test_a_session_opens_a_stream_and_logging_out_ends_it(asgi_app, make_user, session_cookie, make_token):
    """A session authenticates a stream as it does REST (issue #34); its logout ends that session's stream only."""


    user, alice = await adb(make_user)(), await adb(make_user)()
    cookie, other_cookie = await adb(session_cookie)(user), await adb(session_cookie)(user)
    logged_out = Stream(asgi_app, "/api/v1/stream/events", None, headers=[cookie])
    other = Stream(asgi_app, "/api/v1/stream/events", None, headers=[other_cookie])
    for stream in (logged_out, other):
        assert (await stream.start())["status"] == 200
    await asyncio.sleep(0.2)  # both have joined the user's group

    def log_out() -> int:
        client = Client(enforce_csrf_checks=False)
        client.cookies[settings.SESSION_COOKIE_NAME] = cookie[1].decode().split("=", 1)[1]
        return client.post("/api/v1/accounts/logout").status_code

    assert await adb(log_out)() == 204
    line = await logged_out.line()
    assert line["type"] == "error" and line["code"] == "unauthenticated", line
    assert await logged_out.line() is None
    await adb(service.create)(alice, to=user.username, kind="claim")
    assert (await other.line())["type"] == "challenge_received"  # the other session's stream goes on
    await other.close()


def held_counts() -> tuple[dict, dict]:

    return dict(streams._open), dict(limits._held)


async def test_a_stream_frees_its_places_when_it_ends_or_its_client_goes(asgi_app, make_user, make_token,
                                                                        two_player_game):

    before = held_counts()
    user = await adb(make_user)()
    stream = Stream(asgi_app, "/api/v1/stream/events", await adb(make_token)(user))
    assert (await stream.start())["status"] == 200
    await asyncio.sleep(0.1)
    assert held_counts() != before
    await stream.close()  # the client goes: Django's handler cancels the body
    assert held_counts() == before
    game_id, alice, bob = await adb(two_player_game)()
    game = Stream(asgi_app, f"/api/v1/games/{game_id}/stream", await adb(make_token)(alice))
    assert (await game.start())["status"] == 200
    assert (await game.line())["type"] == "game"
    await adb(resign)(bob, game_id)
    assert (await game.line())["view"]["status"] == "finished"
    assert await game.line() is None  # the game ended: so did the stream
    await game.comm.wait(timeout=5)
    assert held_counts() == before


async def test_a_client_gone_while_its_stream_is_checked_holds_no_place(asgi_app, make_user, make_token,
                                                                         monkeypatch):
    """The client goes at once, or while the request is still being checked: nothing stays counted. On a busy
    machine the check may finish before the disconnect is heard, and the response is then dropped unread: its
    places go after ``START_SECONDS`` (shortened here), as in the next test."""
    monkeypatch.setattr(streams, "START_SECONDS", 0.5)
    before = held_counts()
    plain = await adb(make_token)(await adb(make_user)())
    for delay in (0, 0.02, 0.05, 0.1, 0.2):
        stream = Stream(asgi_app, "/api/v1/stream/events", plain)
        await stream.comm.send_input({"type": "http.request", "body": b"", "more_body": False})
        await asyncio.sleep(delay)
        await stream.comm.send_input({"type": "http.disconnect"})
        await stream.comm.wait(timeout=5)
    for _ in range(50):  # a dropped response's places are released on the loop's next turn
        if held_counts() == before:
            break
        await asyncio.sleep(0.05)
    assert held_counts() == before


async def test_a_client_gone_before_its_body_started_holds_no_place(asgi_app, make_user, make_token, monkeypatch):
    """The client goes after the stream was admitted, while the middleware still handles the response: Django
    drops the response without reading its body, and the places it held are released all the same."""



    monkeypatch.setattr(streams, "START_SECONDS", 1.0)

    original = SessionMiddleware.process_response
    entered = threading.Event()

    def slow(self, request, response):  # in a thread: the loop goes on and hears the disconnect
        if request.path == "/api/v1/stream/events":
            entered.set()
            time.sleep(0.5)
        return original(self, request, response)

    monkeypatch.setattr(SessionMiddleware, "process_response", slow)
    before = held_counts()
    stream = Stream(asgi_app, "/api/v1/stream/events", await adb(make_token)(await adb(make_user)()))
    await stream.comm.send_input({"type": "http.request", "body": b"", "more_body": False})
    for _ in range(100):
        if entered.is_set():
            break
        await asyncio.sleep(0.02)
    assert entered.is_set() and held_counts() != before  # admitted, its body not started
    await stream.comm.send_input({"type": "http.disconnect"})
    await stream.comm.wait(timeout=5)
    for _ in range(50):  # released START_SECONDS after the admission
        if held_counts() == before:
            break
        await asyncio.sleep(0.05)
    assert held_counts() == before


async def test_too_many_streams_is_the_apis_error(asgi_app, make_user, make_token, settings):

    plain = await adb(make_token)(await adb(make_user)())
    opened = [Stream(asgi_app, "/api/v1/stream/events", plain) for _ in range(streams.MAX_PER_USER)]
    for stream in opened:
        assert (await stream.start())["status"] == 200
    refused = Stream(asgi_app, "/api/v1/stream/events", plain)
    start = await refused.start()
    body = await refused.comm.receive_output(timeout=5)
    assert start["status"] == 429 and headers(start)["content-type"] == "application/json"
    assert "retry-after" not in headers(start)  # a cap on held connections, not a rate
    assert json.loads(body["body"]) == {"error": {"code": "too_many_streams", "message": (
        f"At most {streams.MAX_PER_USER} open streams per user: close one first.")}}
    await opened[0].close()
    again = Stream(asgi_app, "/api/v1/stream/events", plain)
    assert (await again.start())["status"] == 200  # a closed stream's place is free again
    for stream in (*opened[1:], again):
        await stream.close()


def test_under_wsgi_a_stream_is_refused_after_the_checks(make_user, make_token):
    """gunicorn (WSGI) holds no streams (the proxy sends them to uvicorn): a request that passes the checks is
    told so (501), one that does not gets the REST refusal; nothing is counted."""

    before = held_counts()
    user = make_user()
    client = Client(HTTP_AUTHORIZATION=f"Bearer {make_token(user)}")
    for path in ("/api/v1/stream/events", "/api/v1/games/999999/stream"):
        anonymous = Client().get(path)
        assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "not_authenticated"
        answer = client.get(path)
        assert answer.status_code == 501, answer.content
        assert answer.json()["error"]["code"] == "streams_need_asgi"
        assert "uvicorn" in answer.json()["error"]["message"]
    assert held_counts() == before
