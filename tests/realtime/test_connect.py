"""Who may open the events socket, and what a refused socket sees."""

from __future__ import annotations

import pytest

from .conftest import adb, assert_silent, receive

pytestmark = pytest.mark.django_db(transaction=True)


async def _expect_refused(comm, code: int, error: str) -> None:
    message = await receive(comm)
    assert message["type"] == "error"
    assert message["code"] == error
    assert message["message"]
    closed = await comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": code}


async def test_anonymous_is_refused_with_4401(connect):
    connected, _, comm = await connect()
    assert connected  # accepted first, so a browser can see the reason
    await _expect_refused(comm, 4401, "unauthenticated")


async def test_invalid_token_is_refused_with_4401(connect):
    _, _, comm = await connect(token="clm_deadbeef_not-a-real-secret")
    await _expect_refused(comm, 4401, "unauthenticated")


async def test_malformed_token_is_refused_with_4401(connect):
    _, _, comm = await connect(token="nonsense")
    await _expect_refused(comm, 4401, "unauthenticated")


async def test_revoked_token_is_refused(connect, make_user, make_token):
    from django.utils import timezone

    from accounts.models import ApiToken

    user = await adb(make_user)()
    plain = await adb(make_token)(user)
    await adb(lambda: ApiToken.objects.filter(user=user).update(revoked_at=timezone.now()))()
    _, _, comm = await connect(token=plain)
    await _expect_refused(comm, 4401, "unauthenticated")


async def test_token_without_games_read_is_refused_with_4403(connect, make_user, make_token):
    user = await adb(make_user)()
    plain = await adb(make_token)(user, scopes=["games:play", "account:read"])
    _, _, comm = await connect(token=plain)
    await _expect_refused(comm, 4403, "forbidden")


async def test_token_with_games_read_connects(connect, make_user, make_token):
    user = await adb(make_user)()
    plain = await adb(make_token)(user, scopes=["games:read"])
    connected, _, comm = await connect(token=plain)
    assert connected
    await comm.send_json_to({"type": "ping"})
    assert await receive(comm) == {"type": "pong"}


async def test_bearer_header_connects(connect, make_user, make_token):
    user = await adb(make_user)()
    plain = await adb(make_token)(user)
    _, _, comm = await connect(headers=[(b"authorization", f"Bearer {plain}".encode())])
    await comm.send_json_to({"type": "ping", "id": 7})
    assert await receive(comm) == {"type": "pong", "id": 7}


async def test_session_cookie_connects(connect, make_user, session_cookie):
    user = await adb(make_user)()
    cookie = await adb(session_cookie)(user)
    connected, _, comm = await connect(headers=[cookie])
    assert connected
    await comm.send_json_to({"type": "ping"})
    assert await receive(comm) == {"type": "pong"}
    await assert_silent(comm, 0.2)


async def test_foreign_origin_with_session_cookie_is_rejected(connect, make_user, session_cookie):
    """Cross-site WebSocket hijacking rides on the victim's cookies: the Origin must be ours."""
    user = await adb(make_user)()
    cookie = await adb(session_cookie)(user)
    connected, _, _ = await connect(headers=[cookie, (b"origin", b"http://evil.example")], origin=False)
    assert not connected


async def test_token_client_without_origin_connects(connect, make_user, make_token):
    """Bots and third-party apps send no Origin; their token is the credential."""
    user = await adb(make_user)()
    plain = await adb(make_token)(user)
    connected, _, comm = await connect(token=plain, origin=False)
    assert connected
    await comm.send_json_to({"type": "ping"})
    assert await receive(comm) == {"type": "pong"}


async def test_unknown_path_is_not_routed(asgi_app):
    from channels.testing import WebsocketCommunicator

    comm = WebsocketCommunicator(asgi_app, "/ws/other/", headers=[(b"origin", b"http://testserver")])
    with pytest.raises(ValueError):  # URLRouter: "No route found for path"
        await comm.connect(timeout=1)


async def test_bot_play_token_of_a_bot_account_connects(connect, make_user, make_token):
    """docs/api.md: a bot account's ``bot:play`` token reads and plays, so it opens the socket (issue 26)."""
    bot = await adb(make_user)("robo")
    bot.is_bot = True
    await adb(bot.save)()
    plain = await adb(make_token)(bot, scopes=["bot:play"])
    connected, _, comm = await connect(token=plain)
    assert connected
    await comm.send_json_to({"type": "ping", "id": 1})
    assert await receive(comm) == {"type": "pong", "id": 1}


async def test_bot_play_token_of_an_ordinary_account_is_refused(connect, make_user):
    from accounts.models import ApiToken

    user = await adb(make_user)()
    _, plain = await adb(ApiToken.issue)(user, "old", ["bot:play"])  # e.g. made before a rule change
    _, _, comm = await connect(token=plain)
    await _expect_refused(comm, 4403, "forbidden")
