"""NDJSON HTTP streams for clients that cannot keep a WebSocket (docs/realtime.md, "NDJSON streams").

* ``GET /api/v1/stream/events``: the user's typed events (challenge changes, ``game_started``,
  ``game_finished``) as they happen; with ``?notifications=1`` also the ``notification`` frames.
* ``GET /api/v1/games/{id}/stream``: the user's own view of one of their games: first the current one,
  then one line per new version (the socket's ``game`` frames); the stream ends after the game ends.

One JSON object per line, exactly the frames the socket sends; an empty line every
:data:`KEEPALIVE_SECONDS` keeps proxies from closing an idle stream. Authentication: a bearer token
(``games:read``, or a bot account's ``bot:play``), personal or OAuth. A stream whose token is revoked, expires or
ends with a password reset, or whose account is deactivated or deleted, gets one ``{"type": "error", "code":
"unauthenticated"}`` line and ends, within seconds: it hears the same ``auth.recheck`` message as the user's
sockets (accounts.services.recheck_sockets; for a deactivation without a signal: games.realtime.watch).

This is an ASGI layer in front of the HTTP app (claim/asgi.py), on the server's event loop: a stream
holds no request thread or process, only a channel on the channel layer (it joins the user's group
``user.<id>``, like a socket). At most :data:`MAX_PER_USER` streams per user and server process, and at most
``CONNECTIONS_PER_ADDRESS`` sockets and streams per client address (games.realtime.limits); past either, 429.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections import Counter
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.realtime import limits

KEEPALIVE_SECONDS = 20.0
MAX_PER_USER = 8
EVENTS_PATH = "/api/v1/stream/events"
GAME_PATH_TEMPLATE = "/api/v1/games/{game_id}/stream"  # as the OpenAPI schema names it (games/stream_schema.py)
GAME_PATH = re.compile("^" + re.escape(GAME_PATH_TEMPLATE).replace(re.escape("{game_id}"), r"(\d{1,18})") + "$")
HEADERS = [(b"content-type", b"application/x-ndjson"), (b"cache-control", b"no-store"),
           (b"x-accel-buffering", b"no")]
_open: Counter[int] = Counter()


class StreamError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: list | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers or []


def _bearer(scope: dict) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            parts = value.decode("latin-1").split()
            if len(parts) == 2 and parts[0].lower() == "bearer":
                return parts[1]
            raise StreamError(401, "authentication_failed", "Authorization header must be 'Bearer <token>'.",
                              [(b"www-authenticate", b"Bearer")])
    return None


@database_sync_to_async
def _authenticate(plain: str) -> Any:
    from rest_framework.exceptions import AuthenticationFailed

    from accounts.authentication import authenticate_token, effective_scopes

    try:
        user, token = authenticate_token(plain)
    except AuthenticationFailed as exc:
        raise StreamError(401, "authentication_failed", str(exc.detail), [(b"www-authenticate", b"Bearer")]) from None
    if "games:read" not in effective_scopes(token.scopes, user.is_bot):
        raise StreamError(403, "insufficient_scope", "This token lacks the scope: games:read.")
    return user, token


REVOKED = {"type": "error", "code": "unauthenticated",
           "message": "Your token was revoked or has expired, your password was reset or your account disabled: "
                      "authorize again."}


def _seconds_left(token: Any) -> float | None:
    """Seconds until an OAuth token expires (personal tokens do not), for a re-check when it does."""
    from django.utils import timezone

    expires = getattr(token, "expires", None)
    return None if expires is None else max(0.0, (expires - timezone.now()).total_seconds())


@database_sync_to_async
def _still_valid(token: Any) -> bool:
    from accounts.authentication import token_still_valid

    return token_still_valid(token)


async def _error(send: Any, err: StreamError) -> None:
    body = json.dumps({"error": {"code": err.code, "message": err.message}}).encode()
    await send({"type": "http.response.start", "status": err.status,
                "headers": [(b"content-type", b"application/json"), *err.headers]})
    await send({"type": "http.response.body", "body": body})


def _frame(message: dict, *, game_id: int | None, notifications: bool) -> tuple[str | None, int | None]:
    """``(line, version)`` of a channel-layer message for this stream, or ``(None, None)`` to skip it."""
    kind = message.get("type")
    if game_id is not None:
        if kind != "game.update" or message.get("game_id") != game_id:
            return None, None
        from games.realtime.publish import client_frame

        text = message.get("text") or client_frame(game_id, message["version"], message["view"])
        return text, message["version"]
    if kind == "client.event":
        return json.dumps(message["frame"]), None
    if kind == "notification.new" and notifications:
        return json.dumps({"type": "notification", "notification": message["notification"]}), None
    return None, None


def _ended(line: str) -> bool:
    return json.loads(line).get("view", {}).get("status") in ("finished", "aborted")


class Streams:
    """ASGI ``http`` layer: answers the two stream paths, hands everything else to ``inner``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        if scope.get("type") != "http":
            return await self.inner(scope, receive, send)
        path = scope.get("path", "")
        match = GAME_PATH.match(path)
        if path != EVENTS_PATH and match is None:
            return await self.inner(scope, receive, send)
        game_id = int(match.group(1)) if match else None
        try:
            if scope.get("method") != "GET":
                raise StreamError(405, "method_not_allowed", "Streams are read with GET.")
            plain = _bearer(scope)
            if plain is None:
                raise StreamError(401, "not_authenticated", "Send a token: Authorization: Bearer clm_…",
                                  [(b"www-authenticate", b"Bearer")])
            user, token = await _authenticate(plain)
            if _open[user.pk] >= MAX_PER_USER:
                raise StreamError(429, "too_many_streams",
                                  f"At most {MAX_PER_USER} open streams per user: close one first.")
            address = limits.address_key(scope)  # released below, when the stream ends (games.realtime.limits)
            if not limits.take(address, limits.connections_per_address()):
                raise StreamError(429, "too_many_connections",
                                  f"At most {limits.connections_per_address()} open sockets and streams from one "
                                  f"address on this server: close one first.")
        except StreamError as err:
            return await _error(send, err)
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        notifications = query.get("notifications", ["0"])[0] in ("1", "true")
        _open[user.pk] += 1
        try:
            await self._stream(user, token, game_id, notifications, receive, send)
        finally:
            limits.release(address)
            _open[user.pk] -= 1
            if _open[user.pk] <= 0:
                del _open[user.pk]

    async def _stream(self, user: Any, token: Any, game_id: int | None, notifications: bool, receive: Any,
                      send: Any) -> None:
        from games.bots import mark_online
        from games.realtime.publish import user_group
        from games.realtime.queries import current_view
        from games.realtime.watch import watch

        layer = get_channel_layer()
        channel = await layer.new_channel()
        group = user_group(user.pk)
        await layer.group_add(group, channel)
        watch().add(user.pk, channel)
        try:
            last = 0
            first = None
            if game_id is not None:  # joined first, read second: no version falls between the two
                current = await database_sync_to_async(current_view)(user, game_id)
                if current is None:
                    return await _error(send, StreamError(404, "not_found", "No such game (or it is not yours)."))
                first = json.dumps({"type": "game", **current})
                last = current["version"]
            await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
            if first is not None:
                await send({"type": "http.response.body", "body": first.encode() + b"\n", "more_body": True})
                if _ended(first):
                    return await send({"type": "http.response.body", "body": b""})
            await database_sync_to_async(mark_online)(user)
            disconnected = asyncio.ensure_future(_wait_disconnect(receive))
            expiry = _seconds_left(token)
            expires_at = None if expiry is None else asyncio.get_running_loop().time() + expiry
            try:
                while not disconnected.done():
                    getter = asyncio.ensure_future(layer.receive(channel))
                    wait = KEEPALIVE_SECONDS
                    if expires_at is not None:
                        wait = max(0.0, min(wait, expires_at - asyncio.get_running_loop().time()))
                    done, _ = await asyncio.wait({getter, disconnected}, timeout=wait,
                                                 return_when=asyncio.FIRST_COMPLETED)
                    message = getter.result() if getter in done else None
                    expired = expires_at is not None and asyncio.get_running_loop().time() >= expires_at
                    if expired or (message is not None and message.get("type") == "auth.recheck"):
                        # A token of the user was revoked or a password reset (accounts.services.recheck_sockets),
                        # or this OAuth token expired: the stream of a credential that no longer holds ends.
                        if message is None:
                            getter.cancel()
                        if not await _still_valid(token):
                            await send({"type": "http.response.body", "body": json.dumps(REVOKED).encode() + b"\n",
                                        "more_body": True})
                            break
                        if expired:
                            expires_at = asyncio.get_running_loop().time() + 1.0
                        if message is None or message.get("type") == "auth.recheck":
                            continue
                    if getter not in done:
                        getter.cancel()
                        if not disconnected.done():
                            await send({"type": "http.response.body", "body": b"\n", "more_body": True})
                            await database_sync_to_async(mark_online)(user)
                        continue
                    line, version = _frame(getter.result(), game_id=game_id, notifications=notifications)
                    if line is None or (version is not None and version <= last):
                        continue
                    last = version or last
                    await send({"type": "http.response.body", "body": line.encode() + b"\n", "more_body": True})
                    if game_id is not None and _ended(line):
                        break
                await send({"type": "http.response.body", "body": b""})
            finally:
                disconnected.cancel()
        finally:
            watch().discard(user.pk, channel)
            with contextlib.suppress(Exception):
                await layer.group_discard(group, channel)


async def _wait_disconnect(receive: Any) -> None:
    while True:
        message = await receive()
        if message.get("type") == "http.disconnect":
            return
