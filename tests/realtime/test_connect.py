"""Who may open the events socket, and what a refused socket sees."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.models import ApiToken
from accounts.services import revoke_token, set_new_password

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


EVIL = (b"origin", b"http://evil.example")


@pytest.mark.parametrize("path", ["/ws/?xtoken=1", "/ws/?token=", "/ws/?a=token=1", "/ws/?mytoken=clm_x",
                                  "/ws/?token=not-a-token", "/ws/?token=clm_aaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"])
async def test_issue22_cookie_socket_of_a_foreign_origin_never_reads_views(connect, make_user, session_cookie, path):
    """Issue 22 item 2: the Origin check was skipped whenever the query string *contained* ``token=``
    (``/ws/?xtoken=1``) and the victim's session cookie then authenticated. Now a foreign origin with the
    cookie is refused at the handshake, or (an invalid token) closed 4401 without a byte of game data."""
    user = await adb(make_user)()
    cookie = await adb(session_cookie)(user)
    connected, _, comm = await connect(path, headers=[cookie, EVIL], origin=False)
    if connected:  # a token was presented and did not authenticate: refused, never the cookie's user
        await _expect_refused(comm, 4401, "unauthenticated")


async def test_issue22_bad_bearer_header_with_cookie_is_refused(connect, make_user, session_cookie):
    user = await adb(make_user)()
    cookie = await adb(session_cookie)(user)
    connected, _, comm = await connect(headers=[cookie, EVIL, (b"authorization", b"Bearer nope")], origin=False)
    assert connected
    await _expect_refused(comm, 4401, "unauthenticated")


@pytest.mark.parametrize("origin", [b"http://testserver:9999", b"https://testserver.evil.example", b"null",
                                    b"http://evil.example", b"testserver"])
async def test_issue22_cookie_socket_needs_its_own_origin_port_included(connect, make_user, session_cookie, origin):
    """Channels' AllowedHostsOriginValidator compared host names only: another port of the same host passed."""
    user = await adb(make_user)()
    cookie = await adb(session_cookie)(user)
    connected, _, _ = await connect(headers=[cookie, (b"origin", origin)], origin=False)
    assert not connected


async def test_issue22_cookie_without_origin_is_refused(connect, make_user, session_cookie):
    user = await adb(make_user)()
    cookie = await adb(session_cookie)(user)
    connected, _, _ = await connect(headers=[cookie], origin=False)
    assert not connected


async def test_issue22_valid_token_from_any_origin_is_its_own_user_not_the_cookies(connect, make_user, make_token,
                                                                                    session_cookie):
    victim, bot = await adb(make_user)(), await adb(make_user)()
    cookie = await adb(session_cookie)(victim)
    plain = await adb(make_token)(bot)
    connected, _, comm = await connect(f"/ws/?token={plain}", headers=[cookie, EVIL], origin=False)
    assert connected
    await comm.send_json_to({"type": "ping"})
    assert await receive(comm) == {"type": "pong"}


async def test_issue22_deeply_nested_json_on_the_socket_is_an_error_message(connect, make_user, make_token):
    """Issue 22 item 5: nested JSON closed the socket abnormally; now an error frame, and the socket lives."""
    user = await adb(make_user)()
    plain = await adb(make_token)(user)
    connected, _, comm = await connect(token=plain)
    assert connected
    await comm.send_to(text_data="[" * 5000 + "]" * 5000)
    message = await receive(comm)
    assert message["type"] == "error" and "nested deeper" in message["message"]
    await comm.send_to(text_data='{"type": "ping", "id": "a\u0000"}')
    assert (await receive(comm))["type"] == "error"
    await comm.send_json_to({"type": "ping"})
    assert await receive(comm) == {"type": "pong"}


async def test_token_client_without_origin_connects(connect, make_user, make_token):
    """Bots and third-party apps send no Origin; their token is the credential."""
    user = await adb(make_user)()
    plain = await adb(make_token)(user)
    connected, _, comm = await connect(token=plain, origin=False)
    assert connected
    await comm.send_json_to({"type": "ping"})
    assert await receive(comm) == {"type": "pong"}


async def test_unknown_path_is_not_routed(asgi_app):
    comm = WebsocketCommunicator(asgi_app, "/ws/other/",
                                 headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
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
    user = await adb(make_user)()
    _, plain = await adb(ApiToken.issue)(user, "old", ["bot:play"])  # e.g. made before a rule change
    _, _, comm = await connect(token=plain)
    await _expect_refused(comm, 4403, "forbidden")


async def test_issue22_revoked_token_socket_is_closed_within_seconds(connect, make_user, make_token):
    user = await adb(make_user)()
    plain = await adb(make_token)(user)
    connected, _, comm = await connect(token=plain)
    assert connected
    await comm.send_json_to({"type": "ping"})
    assert await receive(comm) == {"type": "pong"}
    token = await adb(lambda: ApiToken.objects.get(user=user))()
    await adb(revoke_token)(token)
    await _expect_refused(comm, 4401, "unauthenticated")


async def test_issue22_password_reset_closes_session_and_token_sockets_and_revokes_tokens(
        connect, make_user, make_token, session_cookie):
    user = await adb(make_user)()
    other = await adb(make_user)()
    plain = await adb(make_token)(user)
    cookie = await adb(session_cookie)(user)
    _, _, by_token = await connect(token=plain)
    _, _, by_cookie = await connect(headers=[cookie])
    other_plain = await adb(make_token)(other)
    _, _, bystander = await connect(token=other_plain)
    for comm in (by_token, by_cookie, bystander):
        await comm.send_json_to({"type": "ping"})
        assert await receive(comm) == {"type": "pong"}
    await adb(set_new_password)(user, "A-new-password-77", reset=True)
    await _expect_refused(by_token, 4401, "unauthenticated")
    await _expect_refused(by_cookie, 4401, "unauthenticated")
    assert await adb(lambda: ApiToken.objects.filter(user=user, revoked_at__isnull=True).count())() == 0
    await bystander.send_json_to({"type": "ping"})
    assert await receive(bystander) == {"type": "pong"}  # another user's socket is untouched


async def test_logout_closes_that_sessions_sockets_only(connect, make_user, make_token, session_cookie):
    """A phone that logs out stops getting its user's views at once (a shared computer): the sockets of that
    session close with 4401; another session's and a token's sockets of the same user stay open."""
    user = await adb(make_user)()
    cookie = await adb(session_cookie)(user)
    other_cookie = await adb(session_cookie)(user)
    _, _, logged_out = await connect(headers=[cookie])
    _, _, other_session = await connect(headers=[other_cookie])
    _, _, by_token = await connect(token=await adb(make_token)(user))
    for comm in (logged_out, other_session, by_token):
        await comm.send_json_to({"type": "ping"})
        assert await receive(comm) == {"type": "pong"}

    def log_out() -> int:
        client = Client(enforce_csrf_checks=False)
        client.cookies[settings.SESSION_COOKIE_NAME] = cookie[1].decode().split("=", 1)[1]
        return client.post("/api/v1/accounts/logout").status_code

    assert await adb(log_out)() == 204
    await _expect_refused(logged_out, 4401, "unauthenticated")
    for comm in (other_session, by_token):
        await comm.send_json_to({"type": "ping"})
        assert await receive(comm) == {"type": "pong"}
