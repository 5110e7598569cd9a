"""The NDJSON streams refuse exactly as REST does (issue #34): the same status, the same body, the same
``WWW-Authenticate`` / ``RateLimit`` / ``Retry-After`` fields, since a stream request passes the same DRF
authentication, permissions and throttles (games.streams.StreamCheck). Each refusal is asked of a stream and of
the equivalent REST endpoint through the same ASGI application, and the two answers are compared."""

from __future__ import annotations

import pytest
from asgiref.testing import ApplicationCommunicator
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import ApiToken
from accounts.services import revoke_token
from claim.throttling import UserRateThrottle

from .conftest import adb
from .test_streams import Stream, headers

pytestmark = pytest.mark.django_db(transaction=True)

#: The fields a refusal's answer is compared on (``Allow`` and ``Vary`` name each endpoint's own methods;
#: ``RateLimit`` is compared on its own: the stream, asked second, has one request fewer left).
COMPARED = ("content-type", "content-length", "www-authenticate", "retry-after", "ratelimit-policy")


async def asgi_get(app, path: str, headers: list[tuple[bytes, bytes]],
                   method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """``(status, header fields by lower-case name, body)`` of one whole answer of ``app``."""
    comm = ApplicationCommunicator(app, {
        "type": "http", "method": method, "path": path, "query_string": b"", "headers": headers,
        "http_version": "1.1", "scheme": "http", "server": ("testserver", 80), "client": ("127.0.0.1", 1)})
    await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await comm.receive_output(timeout=5)
    body = b""
    while True:
        message = await comm.receive_output(timeout=5)
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    await comm.wait(timeout=5)
    fields = {name.decode().lower(): value.decode() for name, value in start["headers"]}
    return start["status"], fields, body


@pytest.fixture(autouse=True)
def _still_clock(monkeypatch):
    """DRF's throttles read a clock that stands still: two answers a moment apart report the same windows."""

    monkeypatch.setattr(SimpleRateThrottle, "timer", staticmethod(lambda: 1_000_000.0))


def compared(fields: dict[str, str]) -> dict[str, str]:
    return {name: fields[name] for name in COMPARED if name in fields}


async def assert_same_answer(app, stream_path: str, rest_path: str, headers, status: int, code: str) -> None:
    rest = await asgi_get(app, rest_path, headers)
    streamed = await asgi_get(app, stream_path, headers)
    assert rest[0] == status and code.encode() in rest[2], rest
    assert streamed[0] == rest[0], (streamed, rest)
    assert streamed[2] == rest[2]  # byte for byte
    assert compared(streamed[1]) == compared(rest[1])
    if status == 429:  # none left for either
        assert streamed[1]["ratelimit"] == rest[1]["ratelimit"]
    elif "ratelimit" in rest[1]:  # a 404 is past the throttles: the stream used one more of the same quota
        left = int(rest[1]["ratelimit"].split(";r=")[1].split(";")[0])
        assert streamed[1]["ratelimit"] == rest[1]["ratelimit"].replace(f";r={left};", f";r={left - 1};")


def bearer(plain: str) -> list[tuple[bytes, bytes]]:
    return [(b"authorization", f"Bearer {plain}".encode())]


def _revoked(user, make_token) -> list:

    plain = make_token(user, scopes=["games:read"])
    revoke_token(ApiToken.objects.get(prefix=ApiToken.parse_prefix(plain)))
    return bearer(plain)


def _disabled(user, make_token) -> list:
    plain = make_token(user, scopes=["games:read"])
    type(user).objects.filter(pk=user.pk).update(is_active=False)
    return bearer(plain)


REFUSALS = {
    "anonymous": (lambda user, make_token: [], 401, "not_authenticated"),
    "another scheme": (lambda user, make_token: [(b"authorization", b"Basic YWxpY2U6eA==")], 401,
                       "not_authenticated"),
    "a malformed header": (lambda user, make_token: [(b"authorization", b"Bearer a b")], 401,
                           "authentication_failed"),
    "an unknown token": (lambda user, make_token: bearer("clm_deadbeef_nope"), 401, "authentication_failed"),
    "an unknown OAuth token": (lambda user, make_token: bearer("clo_nothing"), 401, "authentication_failed"),
    "a revoked token": (_revoked, 401, "authentication_failed"),
    "a disabled account's token": (_disabled, 401, "authentication_failed"),
    "a token without games:read": (lambda user, make_token: bearer(make_token(user, scopes=["account:read"])), 403,
                                   "insufficient_scope"),
}


@pytest.mark.parametrize("stream_path", ["/api/v1/stream/events", "/api/v1/games/1/stream"])
@pytest.mark.parametrize("case", list(REFUSALS))
async def test_a_refused_stream_answers_what_rest_answers(asgi_app, make_user, make_token, case, stream_path):
    credentials, status, code = REFUSALS[case]
    user = await adb(make_user)()
    headers = await adb(credentials)(user, make_token)
    await assert_same_answer(asgi_app, stream_path, "/api/v1/games", headers, status, code)


async def test_a_game_not_yours_is_refused_as_get_game_refuses_it(asgi_app, make_user, make_token, two_player_game):
    game_id, _, _ = await adb(two_player_game)()
    stranger = bearer(await adb(make_token)(await adb(make_user)(), scopes=["games:read"]))
    for gid in (game_id, 999999):  # someone else's game and no game at all: the same answer
        await assert_same_answer(asgi_app, f"/api/v1/games/{gid}/stream", f"/api/v1/games/{gid}", stranger, 404,
                                 "not_found")


async def test_a_throttled_stream_answers_what_a_throttled_rest_request_answers(asgi_app, make_user, make_token,
                                                                               monkeypatch):
    """The user's rate is one bucket for both: once REST has used it up, a stream gets REST's very 429 (the clock
    stands still here, so both say the same ``retry_after``)."""

    monkeypatch.setattr(UserRateThrottle, "get_rate", lambda self: "2/min")
    headers = bearer(await adb(make_token)(await adb(make_user)(), scopes=["games:read"]))
    for _ in range(2):
        assert (await asgi_get(asgi_app, "/api/v1/games", headers))[0] == 200
    await assert_same_answer(asgi_app, "/api/v1/stream/events", "/api/v1/games", headers, 429, "throttled")
    status, fields, _ = await asgi_get(asgi_app, "/api/v1/games/1/stream", headers)
    assert status == 429 and fields["retry-after"] == "60" and fields["ratelimit"] == '"user";r=0;t=60'


async def test_a_stream_opened_counts_against_the_users_rate(asgi_app, make_user, make_token, monkeypatch):
    """An admitted stream is one request of the user's rate, like a REST read: it carries its RateLimit fields."""


    monkeypatch.setattr(UserRateThrottle, "get_rate", lambda self: "2/min")
    plain = await adb(make_token)(await adb(make_user)(), scopes=["games:read"])
    stream = Stream(asgi_app, "/api/v1/stream/events", plain)
    start = await stream.start()
    assert start["status"] == 200 and headers(start)["ratelimit-policy"] == '"user";q=2;w=60'
    assert headers(start)["ratelimit"].startswith('"user";r=1;')
    await stream.close()
    status, _, _ = await asgi_get(asgi_app, "/api/v1/games", bearer(plain))
    assert status == 200
    status, _, body = await asgi_get(asgi_app, "/api/v1/games", bearer(plain))
    assert status == 429 and b'"throttled"' in body
