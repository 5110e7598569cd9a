"""Issue 26: an OAuth access token opens the socket and the NDJSON streams like a personal token with the same
scopes; revoking a token (personal or OAuth), its expiry, or a password reset ends its sockets (4401) and its
streams (an ``unauthenticated`` error line, then the end) within seconds. In process, then against a real
server process."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import secrets
import time
from datetime import timedelta
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_application_model, revoke_access_token, set_token_value
from websockets.asyncio.client import connect

from accounts.models import ApiToken
from accounts.oauth import new_access_token
from accounts.services import revoke_token, set_new_password
from games.challenges import service

from .conftest import adb, receive
from .servers import shared_env, start_server, wait_ready
from .test_streams import Stream

pytestmark = pytest.mark.django_db(transaction=True)

REDIRECT = "http://127.0.0.1:8765/callback"


def oauth_token(user, scope: str = "games:read games:play", seconds: int = 3600) -> tuple[str, object]:
    """An access token as DOT issues one at the end of the flow (tests/accounts/test_oauth.py runs the flow)."""
    app = get_application_model().objects.create(name="app", client_type="public", redirect_uris=REDIRECT,
                                                 authorization_grant_type="authorization-code")
    plain = new_access_token()
    token = get_access_token_model()(user=user, application=app, scope=scope,
                                     expires=timezone.now() + timedelta(seconds=seconds))
    set_token_value(token, plain)
    token.save()
    return plain, token


async def expect_closed(comm, timeout: float = 5) -> None:
    message = await receive(comm, timeout)
    assert message["type"] == "error" and message["code"] == "unauthenticated", message
    assert await comm.receive_output(timeout=timeout) == {"type": "websocket.close", "code": 4401}


async def test_an_oauth_token_opens_the_socket_and_its_revocation_closes_it(connect, make_user):
    user = await adb(make_user)()
    plain, token = await adb(oauth_token)(user)
    connected, _, comm = await connect(token=plain)
    assert connected
    await comm.send_json_to({"type": "ping"})
    assert await receive(comm) == {"type": "pong"}
    await adb(revoke_access_token)(token)  # what DOT's RFC 7009 endpoint does
    await expect_closed(comm)


async def test_an_oauth_token_without_games_read_is_refused_4403(connect, make_user):
    user = await adb(make_user)()
    plain, _ = await adb(oauth_token)(user, scope="account:read")
    _, _, comm = await connect(token=plain)
    message = await receive(comm)
    assert message["code"] == "forbidden"
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}


async def test_an_expired_oauth_token_closes_its_socket(connect, make_user):
    user = await adb(make_user)()
    plain, _ = await adb(oauth_token)(user, seconds=1)
    connected, _, comm = await connect(token=plain)
    assert connected
    await expect_closed(comm, timeout=5)


async def test_password_reset_closes_oauth_sockets(connect, make_user):
    user = await adb(make_user)()
    plain, _ = await adb(oauth_token)(user)
    _, _, comm = await connect(token=plain)
    await comm.send_json_to({"type": "ping"})
    assert await receive(comm) == {"type": "pong"}
    await adb(set_new_password)(user, "A-new-password-77", reset=True)
    await expect_closed(comm)


async def _open_events(asgi_app, plain: str) -> Stream:
    stream = Stream(asgi_app, "/api/v1/stream/events", plain)
    assert (await stream.start())["status"] == 200
    await asyncio.sleep(0.2)  # the stream has joined the user's group
    return stream


async def _expect_ended(stream: Stream) -> None:
    line = await stream.line(timeout=5)
    assert line is not None and line["type"] == "error" and line["code"] == "unauthenticated", line
    assert await stream.line(timeout=5) is None


async def test_revoking_a_personal_token_ends_its_streams(asgi_app, make_user, make_token):
    user = await adb(make_user)()
    plain = await adb(make_token)(user, scopes=["games:read"])
    other = await adb(make_token)(user, scopes=["games:read"])
    stream, survivor = await _open_events(asgi_app, plain), await _open_events(asgi_app, other)
    token = await adb(lambda: ApiToken.objects.get(prefix=ApiToken.parse_prefix(plain)))()
    await adb(revoke_token)(token)
    await _expect_ended(stream)
    # The user's other token's stream goes on: it gets the next event.

    await adb(service.create)(await adb(make_user)(), to=user.username, kind="claim")
    assert (await survivor.line())["type"] == "challenge_received"
    await survivor.close()


async def test_revoking_an_oauth_token_ends_its_streams(asgi_app, make_user, two_player_game):
    game_id, alice, _bob = await adb(two_player_game)()
    plain, token = await adb(oauth_token)(alice)
    events = await _open_events(asgi_app, plain)
    game = Stream(asgi_app, f"/api/v1/games/{game_id}/stream", plain)
    assert (await game.start())["status"] == 200
    assert (await game.line())["type"] == "game"
    await asyncio.sleep(0.2)
    await adb(revoke_access_token)(token)
    await _expect_ended(events)
    await _expect_ended(game)


async def test_password_reset_ends_the_streams(asgi_app, make_user, make_token):
    user = await adb(make_user)()
    stream = await _open_events(asgi_app, await adb(make_token)(user, scopes=["games:read"]))
    await adb(set_new_password)(user, "A-new-password-77", reset=True)
    await _expect_ended(stream)


async def test_an_expired_oauth_token_ends_its_stream(asgi_app, make_user):
    user = await adb(make_user)()
    plain, _ = await adb(oauth_token)(user, seconds=2)
    stream = await _open_events(asgi_app, plain)
    await _expect_ended(stream)


# --- against a real server process -----------------------------------------------------------------------


@pytest.fixture
def server(transactional_db):
    env = shared_env("the revocation signal reaches the server process through the Redis channel layer")
    process = start_server(env)
    try:
        wait_ready(process)
        yield process
    finally:
        process.stop()


def _pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    return verifier, base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def _authorize(http: httpx.Client, base: str, client_id: str) -> dict:
    """The browser's part (login, the consent screen's two calls) and the app's code exchange, over HTTP."""
    http.get(f"{base}/api/v1/accounts/csrf")
    csrf = {"X-CSRFToken": http.cookies["csrftoken"], "Origin": base, "Referer": base + "/"}
    logged_in = http.post(f"{base}/api/v1/accounts/login", json={"username": "carol", "password": "pw-Carol-123456"},
                          headers=csrf)
    assert logged_in.status_code == 200, logged_in.text
    csrf["X-CSRFToken"] = http.cookies["csrftoken"]
    verifier, challenge = _pkce()
    query = {"client_id": client_id, "redirect_uri": REDIRECT, "response_type": "code", "scope": "games:read",
             "state": "s1", "code_challenge": challenge, "code_challenge_method": "S256"}
    start = http.get(f"{base}/o/authorize/?{urlencode(query)}")
    assert start.status_code == 302 and start.headers["location"].startswith("/#/authorize?")
    checked = http.get(f"{base}/api/v1/oauth/authorize?{urlencode(query)}")
    assert checked.status_code == 200, checked.text
    decided = http.post(f"{base}/api/v1/oauth/authorize", json={**checked.json()["request"], "allow": True},
                        headers=csrf)
    assert decided.status_code == 200, decided.text
    code = parse_qs(urlsplit(decided.json()["redirect_to"]).query)["code"][0]
    issued = httpx.post(f"{base}/o/token/", data={"grant_type": "authorization_code", "code": code,
                                                  "redirect_uri": REDIRECT, "client_id": client_id,
                                                  "code_verifier": verifier})
    assert issued.status_code == 200, issued.text
    return issued.json()


def test_a_real_server_ends_a_revoked_oauth_tokens_rest_socket_and_stream(server, make_user):
    make_user("carol", password="pw-Carol-123456")
    app = get_application_model().objects.create(name="app", client_type="public", redirect_uris=REDIRECT,
                                                 authorization_grant_type="authorization-code")
    with httpx.Client(timeout=10) as browser:
        tokens = _authorize(browser, server.http, app.client_id)
    access = tokens["access_token"]
    bearer = {"Authorization": f"Bearer {access}"}
    assert httpx.get(f"{server.http}/api/v1/games", headers=bearer).status_code == 200

    async def scenario() -> tuple[float, float, list[dict]]:
        async with httpx.AsyncClient(timeout=30) as http, \
                http.stream("GET", f"{server.http}/api/v1/stream/events", headers=bearer) as stream, \
                connect(f"{server.ws}?token={access}") as ws:
            assert stream.status_code == 200
            await ws.send(json.dumps({"type": "ping"}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10)) == {"type": "pong"}
            lines = stream.aiter_lines()
            revoked = await http.post(f"{server.http}/o/revoke_token/", data={"token": access,
                                                                              "client_id": app.client_id})
            assert revoked.status_code == 200
            started = time.monotonic()
            closed_message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert closed_message["code"] == "unauthenticated"
            with pytest.raises(Exception) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert getattr(closed.value, "rcvd", None) is not None and closed.value.rcvd.code == 4401
            socket_seconds = time.monotonic() - started
            seen = []
            async for line in lines:  # ends when the server ends the body
                if line.strip():
                    seen.append(json.loads(line))
            return socket_seconds, time.monotonic() - started, seen

    socket_seconds, stream_seconds, seen = asyncio.run(asyncio.wait_for(scenario(), 30))
    print(f"socket closed {socket_seconds:.2f}s, stream ended {stream_seconds:.2f}s after revocation")
    assert seen == [{"type": "error", "code": "unauthenticated", "message": seen[0]["message"]}]
    after = httpx.get(f"{server.http}/api/v1/games", headers=bearer)
    assert after.status_code == 401 and after.json()["error"]["code"] == "authentication_failed"
