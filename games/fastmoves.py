"""``POST /api/v1/games/{id}/moves`` on the event loop, for API-token clients (docs/performance.md).

The move is the one request a bot or a busy client sends over and over. Through Django's handler it
costs a request thread, the middleware chain, DRF's request/response cycle and nine database round
trips made from a thread that must win the GIL back after each one. This ASGI layer, in front of
Django's HTTP app, plays the plain case itself, asynchronously on the server's loop (PostgreSQL through
:mod:`claim.asyncdb`, Redis through :mod:`redis.asyncio`), with the service's own pure functions:

* the same SQL (``claim.rowsql``): one read of the seats, their users, the game, its clock and the
  caller's token (``side_by_side``), and one write (:meth:`games.service.moves.CommitPlan.guarded_statement`:
  the service's rows, written only if the game is still at the version read, so no transaction or lock
  is held across round trips and a lost race writes nothing);
* the same checks (:func:`games.service.moves.checked_apply`) and the same views
  (:func:`games.service.payload.game_view_payload`), the same commit hooks (push, ``game_changed``,
  the AI's turn) and the same response headers as the middleware would add.

It answers only a request it is sure to answer exactly as Django would: a ``Bearer`` token that is
valid, active, used within the last minute and allowed to play; throttles that allow it; a JSON body
that the serializer would take as it is; the caller's turn at the current version; a legal move; a
``client_id`` not used before. **Everything else is handed, untouched, to Django** (body replayed):
refusals, retries, session (cookie) requests, anything unexpected before the write. Nothing is kept
from a handed-over request: nothing was written, and its throttle records are taken back, so DRF
counts and answers it as it always has.

On when ``FAST_MOVES`` is on (the default), the database is PostgreSQL and the cache is Redis.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
from collections import Counter
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

log = logging.getLogger("games.fastmoves")

_PATH = re.compile(r"/api/v1/games/([1-9][0-9]{0,17})/moves")
#: How the requests went, by outcome ("fast", or why they were handed to Django): tests and benchmarks.
stats: Counter[str] = Counter()


class Delegate(Exception):
    """Hand the request to Django's stack; the argument says why (counted in :data:`stats`)."""


def enabled() -> bool:
    from django.core.cache import caches

    from claim import asyncdb

    if not getattr(settings, "FAST_MOVES", True) or not asyncdb.supported():
        return False
    return _redis_url(caches["default"]) is not None


def _redis_url(cache: Any) -> str | None:
    from claim.cache import RedisCache

    servers = getattr(cache, "_servers", None)
    return servers[0] if isinstance(cache, RedisCache) and servers else None


# --- the request ---------------------------------------------------------------------------------

class _Request:
    """What the fast path reads of an ASGI request: headers (lower-case names), body, language."""

    def __init__(self, scope: dict[str, Any]) -> None:
        self.scope = scope
        self.headers: dict[str, str] = {}
        self.repeated: set[str] = set()
        for raw_name, raw_value in scope.get("headers", []):
            name = raw_name.decode("latin-1")
            if name in self.headers:
                self.repeated.add(name)
            self.headers[name] = raw_value.decode("latin-1")

    def header(self, name: str) -> str | None:
        if name in self.repeated:
            raise Delegate("repeated header")
        return self.headers.get(name)

    def is_secure(self) -> bool:
        """``HttpRequest.is_secure`` (``SECURE_PROXY_SSL_HEADER`` honoured)."""
        proxy = settings.SECURE_PROXY_SSL_HEADER
        if proxy:
            header, secure_value = proxy
            value = self.header(header.removeprefix("HTTP_").lower().replace("_", "-"))
            if value is not None:
                return value.split(",", 1)[0].strip() == secure_value
        return self.scope.get("scheme") == "https"

    def language(self) -> str:
        """The language ``LocaleMiddleware`` activates (cookie, then ``Accept-Language``)."""
        from django.http.cookie import parse_cookie

        cookie = self.header("cookie")
        chosen = parse_cookie(cookie).get(settings.LANGUAGE_COOKIE_NAME) if cookie else None
        return _language(self.header("accept-language"), chosen, settings.LANGUAGE_CODE)


@functools.lru_cache(maxsize=512)
def _language(accept: str | None, cookie: str | None, _default: str) -> str:
    """``translation.get_language_from_request`` for a request with this ``Accept-Language`` header and
    language cookie (``_default``: the setting it falls back to, part of the cache key)."""
    from django.http import HttpRequest
    from django.utils import translation

    request = HttpRequest()
    if accept is not None:
        request.META["HTTP_ACCEPT_LANGUAGE"] = accept
    if cookie is not None:
        request.COOKIES = {settings.LANGUAGE_COOKIE_NAME: cookie}
    return translation.get_language_from_request(request)


def _host_allowed(request: _Request) -> bool:
    """``HttpRequest.get_host`` would succeed (else Django answers 400)."""
    from django.http.request import split_domain_port, validate_host

    if settings.USE_X_FORWARDED_HOST:
        raise Delegate("forwarded host")
    host = request.header("host")
    if not host:
        return False
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    domain, _ = split_domain_port(host)
    return bool(domain) and validate_host(domain, allowed)


def _parse_body(request: _Request, body: bytes) -> tuple[int, dict[str, Any], str | None]:
    """``(version, move, client_id)`` when ``MoveSerializer`` would take the body as it is."""
    from games.api.serializers import MAX_MOVE_CHARS

    content_type = (request.header("content-type") or "").split(";", 1)
    if content_type[0].strip().lower() != "application/json" or (
            len(content_type) > 1 and content_type[1].strip().lower() not in ("", "charset=utf-8")):
        raise Delegate("content type")
    accept = request.header("accept")
    if accept is not None and accept.strip() not in ("*/*", "application/json", ""):
        raise Delegate("accept")

    def no_constants(name: str) -> Any:
        raise ValueError(name)

    try:
        data = json.loads(body.decode("utf-8"), parse_constant=no_constants)
    except (UnicodeDecodeError, ValueError):
        raise Delegate("body") from None
    if not isinstance(data, dict):
        raise Delegate("body")
    version, move, client_id = data.get("version"), data.get("move"), data.get("client_id")
    if type(version) is not int or version < 0:
        raise Delegate("version")
    if not isinstance(move, dict) or not move or len(json.dumps(move)) > MAX_MOVE_CHARS:
        raise Delegate("move")
    if client_id is not None and (not isinstance(client_id, str) or not client_id or len(client_id) > 64
                                  or client_id != client_id.strip()):
        raise Delegate("client_id")
    return version, move, client_id


# --- the move ------------------------------------------------------------------------------------

_throttles: dict[str, Any] = {}


def _async_throttles() -> Any:
    """The running loop's :class:`~claim.throttling.AsyncThrottles` on the default cache's Redis (made once
    per loop; a change of ``CACHES`` drops it, see :func:`_settings_changed`)."""
    from django.core.cache import caches

    from claim.throttling import AsyncThrottles

    loop = asyncio.get_running_loop()
    found = _throttles.get("current")
    if found is None or found[0] is not loop:
        found = _throttles["current"] = (loop, AsyncThrottles(_redis_url(caches["default"])))
    return found[1]


@receiver(setting_changed)
def _settings_changed(setting: str, **_: Any) -> None:
    if setting == "CACHES":
        _throttles.clear()


def _usable_token(token: Any, plain: str) -> bool:
    """What ``accounts.authentication.authenticate_token`` and ``GameScopes`` accept for a POST, without
    the ``last_used_at`` write (a token unused for a minute is handed to Django, which writes it)."""
    from django.utils import timezone

    from accounts.authentication import last_use_is_stale, token_refusal
    from games.api.permissions import scope_refusal

    return (token_refusal(token, plain) is None and not last_use_is_stale(token, timezone.now())
            and scope_refusal(token.scopes, bool(token.user.is_bot), reading=False) is None)


async def play(game_id: int, plain: str, version: int, move: dict[str, Any], client_id: str | None
               ) -> tuple[dict[str, Any], list[Any]]:
    """Play the move; the mover's answer (what ``make_move`` returns) and the throttles' quotas (for the
    RateLimit fields). Raises :class:`Delegate` with
    nothing written when Django must answer instead."""
    import asyncpg
    from django.db import connections

    from accounts.authentication import _TOKEN_WITH_USER
    from accounts.models import ApiToken
    from claim import asyncdb
    from claim.rowsql import inserted, side_by_side
    from claim.throttling import user_throttle_logs
    from games.api.views import GameMovesView
    from games.models import Game
    from games.service._common import SEATS_GAME_CLOCK, game_and_seats
    from games.service.clock import bank_needs_history, clock_row, is_paused
    from games.service.errors import ServiceError
    from games.service.moves import checked_apply, plan_move

    prefix = ApiToken.parse_prefix(plain)
    if prefix is None:
        raise Delegate("token")
    django_conn = connections["default"]
    pool = await asyncdb.pool()
    async with pool.acquire() as conn:
        # The caller's token and the game (its seats, their users, its clock) in one read; nothing of the
        # game is used before the token is checked. Read without a lock: the write below checks the version
        # (optimistic: no transaction is held open across round trips; a race loses with nothing written).
        rows = await asyncdb.fetch(conn, side_by_side(SEATS_GAME_CLOCK, _TOKEN_WITH_USER, django_conn),
                                   [game_id, prefix])
        if not rows:
            raise Delegate("no game")
        width = SEATS_GAME_CLOCK.width(django_conn)
        tokens = _TOKEN_WITH_USER.build([rows[0][width:]], connection=django_conn) if rows[0][width] is not None else []
        token = tokens[0] if tokens else None
        if not _usable_token(token, plain):
            raise Delegate("token")
        user = token.user
        throttles = _async_throttles()
        logs = user_throttle_logs(GameMovesView, user.pk)
        checked = await throttles.check(logs)
        if checked is None:
            raise Delegate("throttled")
        member, quotas = checked
        try:
            built = SEATS_GAME_CLOCK.build([row[:width] for row in rows], connection=django_conn)
            game, seats = game_and_seats(sorted(built, key=lambda seat: seat.index))
            if game.status != Game.Status.ACTIVE or game.version != version:
                raise Delegate("not active or stale")
            if is_paused(game):  # the move ends the pause: the service does that in its transaction
                raise Delegate("paused")
            if bank_needs_history(game, clock_row(game)):  # the bank is read from the history: a query
                raise Delegate("bank clock behind")
            try:
                mine, rules, new_state, events = checked_apply(game, seats, user, version, move)
            except ServiceError as exc:
                raise Delegate(exc.code) from None
            plan = plan_move(game, seats, rules, mine.index, move, new_state, events, client_id, respond_to=user)
            try:
                move_id, entry_id, _ = await asyncdb.fetchrow(conn, *plan.guarded_statement(version, django_conn))
            except asyncpg.DivisionByZeroError:  # the game moved on, or a used client_id: nothing written
                raise Delegate("raced or retried") from None
            plan.entry.move_id = move_id
            inserted(plan.entry, entry_id, django_conn.alias)
        except BaseException:
            await throttles.undo(logs, member)
            raise
    try:
        await _after_commit(plan, user)
    except Exception:  # the move is committed: its answer stands
        log.exception("after the move in game %s: the commit hooks failed", game.pk)
    log.info("game %s: seat %s moved (move %s, version %s)", game.pk, mine.index, game.move_count, game.version)
    return plan.payload, quotas


async def _after_commit(plan: Any, user: Any) -> None:
    """The service's commit hooks (:func:`games.service._common.commit_hooks`), each one robust: a failure is
    logged and never undoes the move. They only hand work on (socket pushes to this loop, ``game_changed`` to
    its batcher) except the AI's turn, whose broker send runs in a thread; in ``eager`` task mode (tests) all
    run inline in a thread, in order, as ``on_commit`` would run them."""
    from claim.loops import use_running_loop
    from games.service._common import commit_hooks

    loop = use_running_loop()
    hooks = commit_hooks(plan.game, plan.seats, views={user.pk: plan.payload}, parts=plan.parts)

    def run(hook: Any) -> None:
        try:
            hook()
        except Exception:
            log.exception("after the move in game %s: a commit hook failed", plan.game.pk)

    if settings.TASK_MODE == "eager":
        await asyncio.to_thread(lambda: [run(hook) for hook, _, _ in hooks])
        return
    for hook, _, waits in hooks:
        if waits:
            loop.run_in_executor(None, run, hook)
        else:
            run(hook)


# --- ASGI ----------------------------------------------------------------------------------------

def _render(payload: dict[str, Any]) -> bytes:
    """DRF's ``JSONRenderer`` output (compact, UTF-8, U+2028/U+2029 escaped) written by orjson; DRF's own
    renderer for anything orjson does not take."""
    import orjson

    try:
        content = orjson.dumps(payload)
    except TypeError:
        from rest_framework.renderers import JSONRenderer

        return JSONRenderer().render(payload, "application/json")
    return content.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")


def _response_headers(request: _Request, language: str, length: int, quotas: list | None = None,
                      ) -> list[tuple[bytes, bytes]]:
    """The headers Django's stack gives a DRF JSON answer to a token request (DRF, SecurityMiddleware,
    LocaleMiddleware, XFrameOptionsMiddleware, claim.middleware's CSP, claim.ratelimit);
    tests/service/test_fast_moves.py compares them."""
    from claim.middleware import CSP
    from claim.ratelimit import fields

    headers = [*(fields({q.policy: q for q in quotas}).items() if quotas else ()),
        ("Content-Type", "application/json"),
        ("Vary", "Accept-Language"),  # one renderer (JSON): DRF adds no "Accept"
        ("Allow", "POST, OPTIONS"),
        ("X-Frame-Options", settings.X_FRAME_OPTIONS),
        ("Content-Length", str(length)),
        ("Content-Language", language),
    ]
    if settings.SECURE_HSTS_SECONDS and request.is_secure():
        sts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            sts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            sts += "; preload"
        headers.append(("Strict-Transport-Security", sts))
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers.append(("X-Content-Type-Options", "nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        policy = settings.SECURE_REFERRER_POLICY
        headers.append(("Referrer-Policy", policy if isinstance(policy, str) else ",".join(policy)))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        headers.append(("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY))
    headers.append(("Content-Security-Policy", CSP))  # claim.middleware.RequestGuard's
    return [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers]


async def _read_body(receive: Any, limit: int) -> tuple[list[dict[str, Any]], bool]:
    """The request's ``http.request`` messages as received, and whether they hold the whole body
    within ``limit`` bytes (else reading stopped: Django reads the rest and refuses it)."""
    messages, size = [], 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages, False
        size += len(message.get("body", b""))
        if size > limit:
            return messages, False
        if not message.get("more_body", False):
            return messages, True


def _replaying(messages: list[dict[str, Any]], receive: Any) -> Any:
    pending = list(messages)

    async def replay() -> dict[str, Any]:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay


class FastMoves:
    """ASGI ``http`` app: the fast move path in front of ``inner`` (Django's HTTP app)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._on: bool | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            return await self.inner(scope, receive, send)
        match = _PATH.fullmatch(scope.get("path", ""))
        if match is None or scope.get("root_path") or scope.get("query_string"):
            return await self.inner(scope, receive, send)
        if self._on is None:
            self._on = enabled()
        if not self._on:
            return await self.inner(scope, receive, send)
        request = _Request(scope)
        authorization = request.headers.get("authorization", "")
        if authorization[:7].lower() != "bearer " or "authorization" in request.repeated:
            return await self.inner(scope, receive, send)
        messages, complete = await _read_body(receive, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        answer = None
        if complete:
            body = b"".join(m.get("body", b"") for m in messages)
            answer = await self._answer(request, int(match.group(1)), authorization, body)
        if answer is None:
            return await self.inner(scope, _replaying(messages, receive), send)
        headers, content = answer
        await send({"type": "http.response.start", "status": 201, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    async def _answer(self, request: _Request, game_id: int, authorization: str, body: bytes
                      ) -> tuple[list[tuple[bytes, bytes]], bytes] | None:
        from django.utils import translation

        try:
            if settings.SECURE_SSL_REDIRECT and not request.is_secure():
                raise Delegate("https redirect")
            if not _host_allowed(request):
                raise Delegate("host")
            parts = authorization.split()
            if len(parts) != 2:
                raise Delegate("authorization")
            version, move, client_id = _parse_body(request, body)
            language = request.language()
            with translation.override(language):
                payload, quotas = await play(game_id, parts[1], version, move, client_id)
        except Delegate as why:
            stats[f"delegated: {why}"] += 1
            return None
        except Exception:  # a bug here must not cost the move: Django plays it (nothing was written)
            log.exception("fast move path failed for game %s; handing the request to Django", game_id)
            stats["delegated: error"] += 1
            return None
        stats["fast"] += 1
        content = _render(payload)
        return _response_headers(request, language, len(content), quotas), content
