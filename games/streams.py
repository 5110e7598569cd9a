"""NDJSON HTTP streams for clients that cannot keep a WebSocket (docs/realtime.md, "NDJSON streams").

* ``GET /api/v1/stream/events``: the user's typed events (challenge changes, ``game_started``,
  ``game_finished``, ``rematch_offer``) as they happen; with ``?notifications=1`` also the ``notification`` frames.
* ``GET /api/v1/games/{id}/stream``: the user's own view of one of their games: first the current one,
  then one line per new version (the socket's ``game`` frames); the stream ends after the game ends.
* ``GET /api/v1/games/{id}/watch/stream``: a spectator's feed of a watchable game (issue 35): first its
  ``spectator_game`` frame, then one per new version (the socket's ``watch`` feed, games/realtime/spectators.py) and the
  spectators' room's chat lines; it ends after the game's final frame, or with a ``watch_ended`` line (a block
  with a player, the game no longer watchable). Anonymous callers may watch, as ``GET /games/{id}/watch`` allows.

One JSON object per line, exactly the frames the socket sends; an empty line every
:data:`KEEPALIVE_SECONDS` keeps proxies from closing an idle stream.

Both are Django views (routes in games/urls.py) answered by Django's ASGI handler, through the whole middleware
stack (claim/asgi.py routes their paths to ``StreamsHandler``, Django's handler without a thread per request).
A request first passes DRF's own checks in :class:`StreamCheck`, a DRF view with the API's default
authentication (bearer token, personal or OAuth; session), permissions (``games:read``, or a bot account's
``bot:play``) and throttles: a refusal is DRF's answer, exactly what a REST endpoint answers (the API's error
body, ``WWW-Authenticate``, ``RateLimit``, ``Retry-After``). Then the stream is admitted on the event loop: at
most :data:`MAX_PER_USER` streams per user and server process, and at most ``CONNECTIONS_PER_ADDRESS`` sockets
and streams per client address (games.realtime.limits); past either, 429.

The body is an async iterator (:func:`_lines`) on the server's event loop: it holds no database connection
and does no work between messages, only a channel on the channel layer (it joins the user's group
``user.<id>``, like a socket); its database reads are short hops to a thread. A client that disconnects ends it
(Django's handler cancels it). A stream whose token is revoked, expires or ends with a password reset, whose
session ends, or whose account is deactivated or deleted, gets one ``{"type": "error", "code":
"unauthenticated"}`` line and ends, within seconds: it hears the same ``auth.recheck`` message as the user's
sockets (accounts.services.recheck_sockets; for a deactivation without a signal: games.realtime.watch).

Under WSGI (gunicorn) a stream would hold a request thread for as long as the client stays: there an admitted
request is answered 501 ``streams_need_asgi``; the proxy sends the two paths to uvicorn (docker/Caddyfile).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections import Counter
from collections.abc import AsyncIterator
from importlib import import_module
from types import SimpleNamespace
from typing import Any, cast

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib import auth
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.views import APIView

from accounts.authentication import token_still_valid
from games.api.permissions import GameScopes
from games.api.views import GameAPIError
from games.realtime import limits
from games.realtime import spectators as live
from games.realtime.presence import mark_online
from games.realtime.publish import client_frame, load_game_and_seats, user_group
from games.realtime.queries import current_view, seated_game_versions
from games.realtime.watch import watch
from games.service.errors import GameNotFound
from games.spectate import counts as spectator_counts
from games.spectate.access import may_watch

KEEPALIVE_SECONDS = 20.0
MAX_PER_USER = 8
#: An admitted stream whose body has not started after this many seconds was dropped unread: its places go.
START_SECONDS = 30.0
EVENTS_PATH = "/api/v1/stream/events"
GAME_PATH_TEMPLATE = "/api/v1/games/{game_id}/stream"  # as the OpenAPI schema names it (games/stream_schema.py)
GAME_PATH = re.compile("^" + re.escape(GAME_PATH_TEMPLATE).replace(re.escape("{game_id}"), r"(\d{1,18})") + "$")
WATCH_PATH_TEMPLATE = "/api/v1/games/{game_id}/watch/stream"
WATCH_PATH = re.compile("^" + re.escape(WATCH_PATH_TEMPLATE).replace(re.escape("{game_id}"), r"(\d{1,18})") + "$")
_open: Counter[int] = Counter()

REVOKED = {"type": "error", "code": "unauthenticated",
           "message": "Your token was revoked or has expired, your session ended, your password was reset or your "
                      "account disabled: authorize again."}


class TooManyConnections(exceptions.APIException):
    """429 for a stream past a cap on held connections (not a rate: no ``Retry-After``)."""

    status_code = 429
    default_code = "too_many_connections"
    default_detail = "Too many open connections: close one first."


class StreamsNeedAsgi(exceptions.APIException):
    """An admitted stream request reached the WSGI server, which does not hold streams."""

    status_code = 501
    default_code = "streams_need_asgi"
    default_detail = ("NDJSON streams are served by the ASGI server (uvicorn, claim/asgi.py), not by this WSGI "
                      "server: send /api/v1/stream/events and /api/v1/games/{id}/stream there (docs/architecture.md, "
                      "\"Process model\").")


class _Held:
    """What one admitted stream counts in this process (:data:`_open`, the address's count); released once, on
    the event loop that counted it: when its body ends, or after :data:`START_SECONDS` if its body never
    started (Django drops a response unread when the client goes while the middleware still handles it)."""

    def __init__(self, user_id: int | None, address: str, loop: asyncio.AbstractEventLoop) -> None:
        self.user_id, self.address, self.released, self.started = user_id, address, False, False
        self.unstarted = loop.call_later(START_SECONDS, self._release_unstarted)

    def start(self) -> bool:
        """The body starts; False if too late (its places were released: the stream ends at once)."""
        self.unstarted.cancel()
        self.started = not self.released
        return self.started

    def _release_unstarted(self) -> None:
        if not self.started:
            self.release()

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        self.unstarted.cancel()
        limits.release(self.address)
        if self.user_id is None:  # an anonymous watch stream counts against its address only
            return
        _open[self.user_id] -= 1
        if _open[self.user_id] <= 0:
            del _open[self.user_id]


def _admit(user_id: int | None, address: str) -> _Held:
    """Count one more stream of ``user_id`` (None: an anonymous watch stream, counted per address only) from
    ``address``, or refuse it; on the event loop, which alone keeps these counts (nothing awaits between a check
    and its increment, as games.realtime.limits requires)."""
    if user_id is not None and _open[user_id] >= MAX_PER_USER:
        raise TooManyConnections(f"At most {MAX_PER_USER} open streams per user: close one first.",
                                 code="too_many_streams")
    if not limits.take(address, limits.connections_per_address()):
        raise TooManyConnections(f"At most {limits.connections_per_address()} open sockets and streams from one "
                                 f"address on this server: close one first.")
    if user_id is not None:
        _open[user_id] += 1
    return _Held(user_id, address, asyncio.get_running_loop())


def _seconds_left(token: Any) -> float | None:
    """Seconds until an OAuth token expires (personal tokens and sessions do not), for a re-check when it does."""

    expires = getattr(token, "expires", None)
    return None if expires is None else max(0.0, (expires - timezone.now()).total_seconds())


def _session_holds(session_key: str | None, user_id: int) -> bool:
    """Whether a session still logs ``user_id`` in: stored (not logged out), its password hash still the user's,
    the account active (Django's ``auth.get_user`` checks the last two)."""

    if not session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = auth.get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    return bool(user.is_authenticated) and user.pk == user_id


@database_sync_to_async
def _still_valid(token: Any, session_key: str | None, user_id: int) -> bool:
    """The stream's credential still holds (asked on every ``auth.recheck`` and when an OAuth token expires)."""

    return token_still_valid(token) if token is not None else _session_holds(session_key, user_id)


#: The typed events a game's stream carries besides its versions: those of that game only.
GAME_FRAMES = frozenset({"chat", "chat_hidden"})


def _frame(message: dict, *, game_id: int | None, notifications: bool) -> tuple[str | None, int | None]:
    """``(line, version)`` of a channel-layer message for this stream, or ``(None, None)`` to skip it."""
    kind = message.get("type")
    if game_id is not None:
        if kind == "client.event" and message["frame"].get("type") in GAME_FRAMES \
                and message["frame"].get("game_id") == game_id:
            return json.dumps(message["frame"]), None  # this game's chat (games/chat/events.py)
        if kind != "game.update" or message.get("game_id") != game_id:
            return None, None

        text = message.get("text") or client_frame(game_id, message["version"], message["view"])
        return text, message["version"]
    if kind == "client.event":
        return json.dumps(message["frame"]), None
    if kind == "notification.new" and notifications:
        return json.dumps({"type": "notification", "notification": message["notification"]}), None
    return None, None


def _ended(line: str) -> bool:
    return json.loads(line).get("view", {}).get("status") in ("finished", "aborted")


async def _lines(held: _Held, user: Any, token: Any, session_key: str | None, game_id: int | None,
                 notifications: bool) -> AsyncIterator[bytes]:
    """The stream's body, on the event loop, until the game ends, the credential no longer holds, or the client
    goes (Django's handler cancels the iteration: the ``finally`` clauses leave the group and release the
    counts)."""
    try:
        if not held.start():
            return

        layer = get_channel_layer()
        assert layer is not None, "the streams need a channel layer (CHANNEL_LAYERS)"
        channel = await layer.new_channel()
        group = user_group(user.pk)
        await layer.group_add(group, channel)
        watch().add(user.pk, channel)
        try:
            last = 0
            if game_id is not None:  # joined first, read second: no version falls between the two
                current = await database_sync_to_async(current_view)(user, game_id)
                if current is None:  # the game went away since the check
                    return
                first = json.dumps({"type": "game", **current})
                last = current["version"]
                yield first.encode() + b"\n"
                if _ended(first):
                    return
            await database_sync_to_async(mark_online)(user.pk)  # online while it lasts (games.realtime.presence)
            loop = asyncio.get_running_loop()
            online_due = loop.time() + KEEPALIVE_SECONDS  # a busy stream sends no keep-alive: mark it meanwhile
            expiry = _seconds_left(token)
            expires_at = None if expiry is None else loop.time() + expiry
            message: dict | None
            while True:
                wait = KEEPALIVE_SECONDS
                if expires_at is not None:
                    wait = max(0.0, min(wait, expires_at - loop.time()))
                message = None
                with contextlib.suppress(TimeoutError):
                    message = await asyncio.wait_for(layer.receive(channel), timeout=wait)
                expired = expires_at is not None and loop.time() >= expires_at
                if expired or (message is not None and message.get("type") == "auth.recheck"):
                    # A token of the user was revoked, a session ended or a password reset
                    # (accounts.services.recheck_sockets), the account went (games.realtime.watch), or this OAuth
                    # token expired: the stream of a credential that no longer holds ends.
                    if not await _still_valid(token, session_key, user.pk):
                        yield json.dumps(REVOKED).encode() + b"\n"
                        return
                    if expired:
                        expires_at = loop.time() + 1.0
                    continue
                if loop.time() >= online_due:
                    online_due = loop.time() + KEEPALIVE_SECONDS
                    await database_sync_to_async(mark_online)(user.pk)
                if message is None:  # nothing for KEEPALIVE_SECONDS: an empty line (the user is still here)
                    yield b"\n"
                    continue
                line, version = _frame(message, game_id=game_id, notifications=notifications)
                if line is None or (version is not None and version <= last):
                    continue
                last = version or last
                yield line.encode() + b"\n"
                if game_id is not None and _ended(line):
                    return
        finally:
            watch().discard(user.pk, channel)
            with contextlib.suppress(Exception):
                await layer.group_discard(group, channel)
    finally:
        held.release()


class PendingStream(StreamingHttpResponse):
    """:class:`StreamCheck`'s answer to a request that passed DRF's checks: the stream's response, its body not
    set yet; :func:`stream` admits it on the event loop and sets the body, or answers DRF's 429 instead."""

    def __init__(self, check: StreamCheck, user: Any, token: Any, session_key: str | None, game_id: int | None,
                 notifications: bool, address: str) -> None:
        super().__init__((), content_type="application/x-ndjson")
        self["Cache-Control"] = "no-store"
        self["X-Accel-Buffering"] = "no"
        self.check: StreamCheck | None = check
        self.user, self.token, self.session_key = user, token, session_key
        self.game_id, self.notifications, self.address = game_id, notifications, address

    def refused(self, exc: exceptions.APIException) -> HttpResponseBase:
        """DRF's answer to ``exc``, as the view would have given it (the API's exception handler, renderer and
        headers)."""
        assert self.check is not None
        return self.check.finalize_response(self.check.request, self.check.handle_exception(exc))


class StreamCheck(APIView):
    """DRF's part of a stream request: the API's default authentication, permission and throttle classes (those
    of ``GET /api/v1/games``), its exception handler and renderer. Run by :func:`stream` in a thread; not in the
    OpenAPI schema by itself (games/stream_schema.py). Streams are read with GET (HEAD, POST, …: 405, after the
    checks, as on a REST endpoint)."""

    http_method_names = ["get", "options"]

    def get(self, request: Request, game_id: int | None = None) -> HttpResponseBase:
        raw = request._request
        if not isinstance(raw, ASGIRequest):
            raise StreamsNeedAsgi()
        if game_id is not None and not seated_game_versions(request.user.pk, [game_id]):  # type: ignore[arg-type]  # logged in
            raise GameAPIError(GameNotFound())  # what GET /api/v1/games/{id} answers for such a game
        session = getattr(raw, "session", None)
        return PendingStream(
            self, request.user, request.auth,
            session_key=None if request.auth is not None or session is None else session.session_key,
            game_id=game_id, notifications=request.query_params.get("notifications", "0") in ("1", "true"),
            address=limits.address_key(cast(dict, raw.scope)))


_check = StreamCheck.as_view()


@csrf_exempt  # as DRF's views are: DRF checks a session's CSRF token itself (unsafe methods only)
async def stream(request: HttpRequest, game_id: int | None = None) -> HttpResponseBase:
    """The async view of both stream routes: :class:`StreamCheck` in a thread (the database connection it used
    is closed after it: an open stream holds none), then, on the event loop, the admission (:func:`_admit`) and
    the body (:func:`_lines`), which Django's handler sends as it comes."""
    kwargs = {} if game_id is None else {"game_id": game_id}
    response = await database_sync_to_async(_check)(request, **kwargs)
    if not isinstance(response, PendingStream):
        return response  # DRF's refusal
    try:
        held = _admit(response.user.pk, response.address)
    except TooManyConnections as exc:
        return response.refused(exc)
    response.check = None  # the view no longer needed (it refers back to the response)
    response.streaming_content = _lines(held, response.user, response.token, response.session_key,
                                        response.game_id, response.notifications)
    return response


# --- the spectators' stream (issue 35) -----------------------------------------------------------------------

#: The typed frames of the watch group a watch stream carries (the spectators' room: games/chat/events.py).
WATCH_FRAMES = frozenset({"chat", "chat_hidden"})


def _watch_line(message: dict, game_id: int, players: list[int]) -> tuple[str | None, int | None, bool]:
    """``(line, version, last)`` of a channel-layer message for a watch stream of ``game_id``: ``line`` None to
    skip it; ``version`` of a ``spectator_game`` frame; ``last``: the stream ends after this line."""
    kind = message.get("type")
    if kind == live.UPDATE_MESSAGE and message.get("game_id") == game_id:
        return message["text"], message["version"], bool(message.get("final"))
    if kind == live.END_MESSAGE and message.get("game_id") == game_id:
        reason = message.get("reason") or live.REASON_NOT_WATCHABLE
        return json.dumps(live.watch_ended_frame(game_id, reason)), None, True
    if kind == live.BLOCKED_MESSAGE and message.get("user_id") in players:
        return json.dumps(live.watch_ended_frame(game_id, live.REASON_BLOCKED)), None, True
    if kind == "client.event" and message["frame"].get("type") in WATCH_FRAMES \
            and message["frame"].get("game_id") == game_id:
        return json.dumps(message["frame"]), None, False
    return None, None, False


async def _watch_lines(held: _Held, user: Any, token: Any, session_key: str | None,
                       game_id: int) -> AsyncIterator[bytes]:
    """The watch stream's body (``user`` None: anonymous), on the event loop: joined to the game's watch group
    (and, logged in, the user's group: ``auth.recheck`` and ``watch.blocked``) and counted among its spectators
    *before* the first read, so no version falls between; then each newer ``spectator_game`` frame, until the
    final one, a ``watch_ended`` line, a credential that no longer holds, or the client going."""
    try:
        if not held.start():
            return
        layer = get_channel_layer()
        assert layer is not None, "the streams need a channel layer (CHANNEL_LAYERS)"
        channel = await layer.new_channel()
        groups = [live.watch_group(game_id)] + ([user_group(user.pk)] if user is not None else [])
        for group in groups:
            await layer.group_add(group, channel)
        if user is not None:
            watch().add(user.pk, channel)
        players: list[int] = []
        counted = False
        try:
            count = await database_sync_to_async(spectator_counts.watch_started)(game_id, channel)
            counted = True
            target = await database_sync_to_async(live.watch_target)(game_id, user, count)
            if target is None:  # no longer watchable, or a block, since the check
                return
            payload, players = target
            await database_sync_to_async(live.send_spectators)(game_id, players, count)
            last = payload["version"]
            yield live.spectator_frame_text(game_id, last, payload).encode() + b"\n"
            if payload["status"] in live.ENDED_STATUSES:
                return
            loop = asyncio.get_running_loop()
            expiry = _seconds_left(token)
            expires_at = None if expiry is None else loop.time() + expiry
            refresh_at = loop.time() + spectator_counts.WATCHER_TTL / 3
            while True:
                wait = max(0.0, min(KEEPALIVE_SECONDS, refresh_at - loop.time()))
                if expires_at is not None:
                    wait = max(0.0, min(wait, expires_at - loop.time()))
                message: dict | None = None
                with contextlib.suppress(TimeoutError):
                    message = await asyncio.wait_for(layer.receive(channel), timeout=wait)
                if loop.time() >= refresh_at:  # still watching: keep the count (games.spectate.counts)
                    await database_sync_to_async(spectator_counts.watch_refresh)(game_id, channel)
                    refresh_at = loop.time() + spectator_counts.WATCHER_TTL / 3
                expired = expires_at is not None and loop.time() >= expires_at
                if user is not None and (expired or (message is not None and message.get("type") == "auth.recheck")):
                    if not await _still_valid(token, session_key, user.pk):
                        yield json.dumps(REVOKED).encode() + b"\n"
                        return
                    if expired:
                        expires_at = loop.time() + 1.0
                    continue
                if message is None:
                    yield b"\n"
                    continue
                line, version, ends = _watch_line(message, game_id, players)
                if line is None or (version is not None and version <= last):
                    continue
                last = version or last
                yield line.encode() + b"\n"
                if ends:
                    return
        finally:
            if user is not None:
                watch().discard(user.pk, channel)
            for group in groups:
                with contextlib.suppress(Exception):
                    await layer.group_discard(group, channel)
            if counted:
                with contextlib.suppress(Exception):
                    count = await database_sync_to_async(spectator_counts.watch_stopped)(game_id, channel)
                    if players:
                        await database_sync_to_async(live.send_spectators)(game_id, players, count)
    finally:
        held.release()


class WatchStreamCheck(StreamCheck):
    """DRF's part of ``GET /api/v1/games/{id}/watch/stream``: the API's authentication and throttles (anonymous
    callers too, under the ``anon`` rate), a token's ``games:read`` scope, and who may watch
    (games.spectate.access.may_watch: 404 ``not_found`` with the REST words otherwise)."""

    permission_classes = [GameScopes]

    def get(self, request: Request, game_id: int | None = None) -> HttpResponseBase:
        raw = request._request
        if not isinstance(raw, ASGIRequest):
            raise StreamsNeedAsgi()
        assert game_id is not None
        user = request.user if request.user.is_authenticated else None
        game, seats = load_game_and_seats(game_id)
        if game is None or not may_watch(game, user, seats):
            raise GameAPIError(GameNotFound())
        session = getattr(raw, "session", None)
        return PendingStream(
            self, user, request.auth,
            session_key=None if request.auth is not None or session is None or user is None else session.session_key,
            game_id=game_id, notifications=False, address=limits.address_key(cast(dict, raw.scope)))


_watch_check = WatchStreamCheck.as_view()


@csrf_exempt
async def watch_stream(request: HttpRequest, game_id: int) -> HttpResponseBase:
    """The async view of ``GET /api/v1/games/{id}/watch/stream``: :class:`WatchStreamCheck` in a thread, then the
    admission (an anonymous stream counts against its address only) and the body (:func:`_watch_lines`)."""
    response = await database_sync_to_async(_watch_check)(request, game_id=game_id)
    if not isinstance(response, PendingStream):
        return response
    user = response.user
    try:
        held = _admit(None if user is None else user.pk, response.address)
    except TooManyConnections as exc:
        return response.refused(exc)
    response.check = None
    response.streaming_content = _watch_lines(held, user, response.token, response.session_key, game_id)
    return response
