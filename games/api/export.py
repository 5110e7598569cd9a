"""``GET /api/v1/users/{username}/games/export``: a player's finished games as NDJSON records (issue 26).

Public, like every finished game: one line per game, the body of ``GET /games/{id}/record`` (deal, every
move, seed, result, how it ended), newest first. Filters: ``kind``, ``since`` / ``until`` (the end, ISO
date or date-time, inclusive), ``rated`` (true/false), ``limit`` (default 100, at most 1000).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, time
from typing import Any

from django.http import HttpResponse
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound, ValidationError

from games.models import Game
from games.rules.registry import GAMES

from . import schema
from .views import PublicFinishedRead, PublicReadView

MAX_LIMIT, DEFAULT_LIMIT = 1000, 100


def _instant(raw: str, name: str, end_of_day: bool) -> datetime:
    moment = parse_datetime(raw) if "T" in raw or " " in raw else None
    if moment is None:
        try:
            day = parse_date(raw)
        except ValueError:
            day = None
        if day is None:
            raise ValidationError({name: [f"{name} must be an ISO date (2026-11-29) or date-time."]})
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
                raise ValidationError({name: [f"{name} must be an ISO date (2026-11-29) or date-time."]}) from None
    rated = query.get("rated")
    if rated is not None:
        if rated not in ("true", "false"):
            raise ValidationError({"rated": ["rated must be true or false."]})
        out["rated"] = rated == "true"
    if "limit" in query:
        try:
            out["limit"] = int(query["limit"])
        except ValueError:
            raise ValidationError({"limit": ["limit must be an integer."]}) from None
        if not 1 <= out["limit"] <= MAX_LIMIT:
            raise ValidationError({"limit": [f"limit must be between 1 and {MAX_LIMIT}."]})
    return out


def finished_games(user: Any, filters: dict[str, Any]) -> list[int]:
    qs = Game.objects.filter(seats__user=user, status=Game.Status.FINISHED)
    if "kind" in filters:
        qs = qs.filter(kind=filters["kind"])
    if "since" in filters:
        qs = qs.filter(finished_at__gte=filters["since"])
    if "until" in filters:
        qs = qs.filter(finished_at__lte=filters["until"])
    if "rated" in filters:
        qs = qs.filter(rated=filters["rated"])
    return list(qs.order_by("-finished_at", "-pk").values_list("pk", flat=True).distinct()[:filters["limit"]])


def _lines(game_ids: list[int]):
    from games.service import record_payload

    for chunk in range(0, len(game_ids), 50):
        for game in Game.objects.filter(pk__in=game_ids[chunk:chunk + 50]).order_by("-finished_at", "-pk"):
            yield json.dumps(record_payload(game), separators=(",", ":")) + "\n"


class UserGamesExportView(PublicReadView):
    permission_classes = [PublicFinishedRead]

    @extend_schema(
        tags=["games"], operation_id="users_games_export", summary="Export a player's finished games (NDJSON)",
        auth=[{"tokenAuth": []}, {"cookieAuth": []}, {}],  # public: credentials are optional
        description="One record per line (`application/x-ndjson`), newest first: the `GET /games/{id}/record` body "
                    "of each finished game the player sat in. Public. Scope for tokens: `games:read`.",
        parameters=[
            OpenApiParameter("kind", str, enum=sorted(GAMES), description="Only this game kind."),
            OpenApiParameter("since", _DATE, description="Ended at or after (ISO date or date-time)."),
            OpenApiParameter("until", _DATE, description="Ended at or before (ISO date or date-time)."),
            OpenApiParameter("rated", OpenApiTypes.STR, enum=["true", "false"], description="Only rated / unrated."),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                             description=f"At most this many ({DEFAULT_LIMIT}; "
                                                                    f"≤ {MAX_LIMIT})."),
        ],
        responses={(200, "application/x-ndjson"): OpenApiResponse(OpenApiTypes.STR, description="NDJSON records."),
                   400: schema.E400, 403: schema.E403,
                   404: schema.error("No such player.", "not_found", "No player is called 'nobody'."),
                   429: schema.E429},
    )
    def get(self, request, username: str):
        from accounts.models import User

        filters = parse_filters(request.query_params)
        user = User.objects.filter(username__iexact=username).first()
        if user is None:
            raise NotFound(f"No player is called {username!r}.")
        # One body (at most MAX_LIMIT records).
        body = "".join(_lines(finished_games(user, filters)))
        response = HttpResponse(body, content_type="application/x-ndjson")
        response["Content-Disposition"] = f'attachment; filename="{user.username}-games.ndjson"'
        return response
