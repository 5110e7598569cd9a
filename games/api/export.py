"""``GET /api/v1/users/{username}/games/export``: a player's finished games as NDJSON records (issue 26).

Public, like every finished game: one line per game, the body of ``GET /games/{id}/record`` (deal, every
move, seed, result, how it ended), newest first. Filters: ``kind``, ``since`` / ``until`` (the end, ISO
date or date-time, inclusive), ``rated`` (true/false), ``limit`` (default 100, at most 1000).

Cheap for the server (issue #32): the game ids come from one index range scan (:func:`finished_game_ids`);
the ETag from them and the seats' names (``games.service.records.export_etag``), so ``If-None-Match`` is
answered 304 without reading a record; the records are the stored texts (``games.service.records``),
streamed ``CHUNK`` at a time, never one body. Anonymous callers have their own, lower rate
(:class:`AnonExportThrottle`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, time
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import StreamingHttpResponse
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound, ValidationError

from accounts.lookup import no_player_called
from accounts.models import User
from claim import refusals
from claim.throttling import AnonRateThrottle, UserRateThrottle, configured_rate
from games.models import Seat
from games.rules.registry import GAMES
from games.service.records import export_etag, record_lines

from . import schema
from .conditional import CONDITIONAL, conditional
from .views import PublicFinishedRead, PublicReadView

MAX_LIMIT, DEFAULT_LIMIT = 1000, 100
#: Records read and sent at a time: one SELECT of stored texts and one of seats per piece.
CHUNK = 100


def _instant(raw: str, name: str, end_of_day: bool) -> datetime:
    moment = parse_datetime(raw) if "T" in raw or " " in raw else None
    if moment is None:
        try:
            day = parse_date(raw)
        except ValueError:
            day = None
        if day is None:
            raise ValidationError({name: [refusals.not_a_date(name)]})
        moment = datetime.combine(day, time.max if end_of_day else time.min)
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment, UTC)


_DATE = {"type": "string", "anyOf": [{"format": "date"}, {"format": "date-time"}]}


def parse_filters(query: Any) -> dict[str, Any]:
    """The export's filters from the query string; 400 ``invalid`` (with ``fields``) for bad values."""
    out: dict[str, Any] = {"limit": DEFAULT_LIMIT}
    kind = query.get("kind")
    if kind is not None:
        if kind not in GAMES:
            raise ValidationError({"kind": [f"Unknown game kind {kind!r}; known: {', '.join(sorted(GAMES))}."]})
        out["kind"] = kind
    for name, end in (("since", False), ("until", True)):
        if name in query:  # present but empty is a bad value too (the schema says a date)
            try:
                out[name] = _instant(query[name], name, end)
            except (ValueError, OverflowError):
                raise ValidationError({name: [refusals.not_a_date(name)]}) from None
    rated = query.get("rated")
    if rated is not None:
        if rated not in ("true", "false"):
            raise ValidationError({"rated": [refusals.not_a_boolean("rated")]})
        out["rated"] = rated == "true"
    if "limit" in query:
        try:
            out["limit"] = int(query["limit"])
        except ValueError:
            raise ValidationError({"limit": [refusals.not_an_integer("limit")]}) from None
        if not 1 <= out["limit"] <= MAX_LIMIT:
            raise ValidationError({"limit": [refusals.not_between("limit", 1, MAX_LIMIT)]})
    return out


def finished_game_ids(user: Any, filters: dict[str, Any]) -> list[int]:
    """The ids of the player's finished games matching ``filters``, newest first, at most ``limit``.

    Served by the partial index ``seat_user_finished`` (seat user, finished_at DESC, game DESC; seats of
    finished games only): an index range scan that stops after ``limit`` rows, ``since`` / ``until`` bound the
    range; ``kind`` and ``rated`` are checked on each game's row by its primary key (then the scan goes on
    until ``limit`` games match). One seat per user and game (``seat_unique_user``): no DISTINCT."""
    qs = Seat.objects.filter(user=user, finished_at__isnull=False)
    if "kind" in filters:
        qs = qs.filter(game__kind=filters["kind"])
    if "since" in filters:
        qs = qs.filter(finished_at__gte=filters["since"])
    if "until" in filters:
        qs = qs.filter(finished_at__lte=filters["until"])
    if "rated" in filters:
        qs = qs.filter(game__rated=filters["rated"])
    return list(qs.order_by("-finished_at", "-game_id").values_list("game_id", flat=True)[:filters["limit"]])


def _chunks(game_ids: list[int]) -> Iterator[list[int]]:
    for start in range(0, len(game_ids), CHUNK):
        yield game_ids[start:start + CHUNK]


def _chunk_bytes(ids: list[int]) -> bytes:
    return "".join(record_lines(ids)).encode()


def stream_lines(game_ids: list[int]) -> Iterator[bytes]:
    """The export's body, for a WSGI server (gunicorn, the test client): one piece of ``CHUNK`` records at a
    time, each read when the server asks for it, on the request's thread and its database connection (closed
    by Django's ``request_finished`` when the response is closed)."""
    for ids in _chunks(game_ids):
        yield _chunk_bytes(ids)


async def astream_lines(game_ids: list[int]) -> AsyncIterator[bytes]:
    """The same body for the ASGI server (uvicorn): each piece is read in the request's own thread
    (``sync_to_async``, thread-sensitive: the thread and connection the view used, closed when Django closes
    the response) while the event loop sends the previous one; nothing blocks the loop."""
    read = sync_to_async(_chunk_bytes, thread_sensitive=True)
    for ids in _chunks(game_ids):
        yield await read(ids)


class AnonExportThrottle(AnonRateThrottle):
    """Anonymous exports: their own, lower rate (``export_anon``, ``THROTTLE_EXPORT_ANON``), per address, on
    top of ``anon``; authenticated callers have their ``user`` rate only."""

    scope = "export_anon"

    def get_rate(self) -> str:
        return configured_rate(self.scope) or "10/min"


def _streaming(request: Any, game_ids: list[int], username: str) -> StreamingHttpResponse:
    """The streamed export: an async iterator under ASGI (Django would otherwise read a sync one whole before
    sending a byte), a sync one under WSGI (where an async one would be read whole)."""
    content = astream_lines(game_ids) if isinstance(request, ASGIRequest) else stream_lines(game_ids)
    response = StreamingHttpResponse(content, content_type="application/x-ndjson")
    response["Content-Disposition"] = f'attachment; filename="{username}-games.ndjson"'
    return response


class UserGamesExportView(PublicReadView):
    permission_classes = [PublicFinishedRead]
    throttle_classes = [AnonRateThrottle, UserRateThrottle, AnonExportThrottle]

    @extend_schema(
        tags=["games"], operation_id="users_games_export", summary="Export a player's finished games (NDJSON)",
        description="One record per line (`application/x-ndjson`), newest first: the `GET /games/{id}/record` body "
                    "of each finished game the player sat in, streamed. Public; without credentials the "
                    "`export_anon` rate applies too. `ETag` on every answer: send it back in `If-None-Match` "
                    "and an unchanged export answers 304 with no body. Scope for tokens: `games:read`.",
        parameters=[
            OpenApiParameter("kind", str, enum=sorted(GAMES), description="Only this game kind."),
            OpenApiParameter("since", _DATE, description="Ended at or after (ISO date or date-time)."),
            OpenApiParameter("until", _DATE, description="Ended at or before (ISO date or date-time)."),
            OpenApiParameter("rated", OpenApiTypes.STR, enum=["true", "false"], description="Only rated / unrated."),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                             description=f"At most this many ({DEFAULT_LIMIT}; "
                                                                    f"≤ {MAX_LIMIT})."),
            *CONDITIONAL,
        ],
        responses={(200, "application/x-ndjson"): OpenApiResponse(OpenApiTypes.STR, description="NDJSON records."),
                   304: OpenApiResponse(description="Not modified: `If-None-Match` names this export's `ETag`."),
                   400: schema.E400, 403: schema.E403,
                   404: schema.error("No such player.", "not_found", "No player is called 'nobody'."),
                   429: schema.E429},
    )
    def get(self, request, username: str):
        filters = parse_filters(request.query_params)
        user = User.objects.filter(username__iexact=username).first()
        if user is None:
            raise NotFound(no_player_called(username))
        game_ids = finished_game_ids(user, filters)
        return conditional(request, export_etag(user.username, game_ids),
                           lambda: _streaming(request._request, game_ids, user.username))
