"""Clock endpoints: ``/api/v1/games/{id}/clock`` (+time, pause, resume) and ``/api/v1/vacation`` (balance,
booking, cancelling and shortening periods)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from claim.strict_fields import ClosedSerializer, StrictBooleanField, StrictIntegerField
from claim.throttling import ScopedRateThrottle, UserRateThrottle
from games.api.schema import E400
from games.api.views import call
from games.models import Game, GameClock
from games.service import clock as game_clock
from games.service import seats_of
from games.service.access import require_visible
from games.service.queries import get_game

from . import schema
from . import service as clock_service
from .bookings import cancel_period, days_started, shorten_period, take_period
from .models import VacationPeriod
from .vacation import account_for

TAGS = ["clock"]


def _iso(dt: Any) -> str | None:
    return dt.isoformat().replace("+00:00", "Z") if dt else None


def clock_payload(game: Game) -> dict[str, Any]:
    """Time control and remaining time per seat (UTC instants; clients show them in the viewer's zone).

    The same clock as ``clock`` in the game payload (:func:`games.service.clock.clock_view`), plus
    ``remaining_seconds`` per seat counted at the moment of the answer."""
    seats = seats_of(game)
    clock = game_clock.clock_row(game)
    tc = game_clock.time_control_of(game, clock)
    to_act = {s.index for s in seats if s.to_act}
    view = game_clock.clock_view(game, seats, to_act, clock)
    now = timezone.now()
    remaining: list[float | None] = [None] * game.seat_count
    for row in view["seats"]:
        if row["running"]:
            end = datetime.fromisoformat(row["deadline"].replace("Z", "+00:00"))
            remaining[row["index"]] = max((end - now).total_seconds(), 0)
        elif row["left_seconds"] is not None:
            remaining[row["index"]] = row["left_seconds"]
    control = {"days": GameClock.Control.DAYS, "bank": GameClock.Control.BANK}.get(tc.control,
                                                                                  GameClock.Control.UNLIMITED)
    return {
        "game_id": game.pk,
        "control": control,
        "description": tc.describe(),
        "time_control": tc.payload(),
        "days_per_move": game.days_per_move,
        "initial_seconds": clock.initial_seconds if clock else None,
        "increment_seconds": clock.increment_seconds if clock else None,
        "cap_seconds": clock.cap_seconds if clock else None,
        "deadline": view["deadline"],
        "remaining_seconds": remaining,
        "seats": view["seats"],
        "paused": view["paused"],
        "paused_at": view["paused_at"],
        "pause_requests": view["pause_requests"],
        "rated_allowed": tc.timed,
    }


class ClockView(APIView):
    @extend_schema(tags=TAGS, responses=schema.CLOCK_READ, summary="The game's clock",
                   description="Time control and time left per seat (UTC instants). Scope: `games:read`.")
    def get(self, request, game_id: int):
        game = call(get_game, game_id)  # unknown: the same 404 as a game that is not visible
        call(require_visible, game, seats_of(game), request.user)
        return Response(clock_payload(game))


class ClockThrottle(ScopedRateThrottle):
    """The ``clock`` scope: +time, pause, resume and vacation bookings together (default 30/hour per user); the
    rate is read when a request comes (settings may change after import)."""

    def get_rate(self) -> str | None:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope or "clock")
        return str(rate) if rate is not None else None


class _ClockAction(APIView):
    action_fn: Any = None  # the service function (user, game_id) -> Game, a staticmethod of each view
    throttle_classes = [UserRateThrottle, ClockThrottle]
    throttle_scope = "clock"

    @extend_schema(tags=TAGS, request=None, responses=schema.CLOCK_ACTION,
                   description="Answers the clock after the change. A new version, but a clock change never "
                               "makes a move stale: a move made against the version before it is still taken. "
                               "+time gives the seats to act one day; one player may give at most 7 days in a "
                               "game, and never leave anyone more than 14 days for a move (409). Scope: "
                               "`games:play`. Rate limit: `clock` scope (+time, pause and resume together).")
    def post(self, request, game_id: int):
        game = call(type(self).action_fn, request.user, game_id)
        return Response(clock_payload(game))


class GiveTimeView(_ClockAction):
    """One tap: the seat(s) to act get one more day (only an opponent may give it)."""

    action_fn = staticmethod(clock_service.give_time)


class PauseView(_ClockAction):
    """Ask for a pause; the clock stops when every human seat has asked."""

    action_fn = staticmethod(clock_service.request_pause)


class ResumeView(_ClockAction):
    """End a pause."""

    action_fn = staticmethod(clock_service.resume)


class VacationSerializer(ClosedSerializer):
    auto_use = StrictBooleanField(required=False)


#: How far ahead a vacation period may be booked.
BOOK_AHEAD_DAYS = 365


class VacationPeriodSerializer(ClosedSerializer):
    start = serializers.DateTimeField(help_text=f"From the day before today (a period starting earlier today, in "
                                                f"any time zone) to {BOOK_AHEAD_DAYS} days ahead.")
    days = StrictIntegerField(min_value=1, max_value=30)

    def validate_start(self, value: Any) -> Any:
        now = timezone.now()
        if value < now - timedelta(days=1):
            raise ValidationError(gettext("A vacation period cannot start in the past: pick today or a later day."))
        if value > now + timedelta(days=BOOK_AHEAD_DAYS):
            raise ValidationError(gettext("A vacation period can be booked at most {days} days ahead.").format(
                days=BOOK_AHEAD_DAYS))
        return value


def vacation_payload(user: Any) -> dict[str, Any]:
    """The balance and the periods not yet over (a user has at most a few dozen: 30 days at most a year)."""
    acc = account_for(user)
    now = timezone.now()
    periods = VacationPeriod.objects.filter(user=user, end__gt=now)
    return {"balance_days": acc.balance, "auto_use": acc.auto_use,
            "next_accrual": _iso(acc.accrued_until + timedelta(days=7)),
            "periods": [{"id": p.pk, "start": _iso(p.start), "end": _iso(p.end), "days": p.days,
                         "started": p.start <= now, "days_begun": days_started(p, now)} for p in periods]}


class VacationView(APIView):
    @extend_schema(tags=TAGS, responses={200: schema.VacationPayloadSerializer, **schema.VACATION},
                   summary="Your vacation balance and periods")
    def get(self, request):
        return Response(vacation_payload(request.user))

    @extend_schema(tags=TAGS, request=VacationSerializer,
                   responses={200: schema.VacationPayloadSerializer, 400: E400, **schema.VACATION},
                   summary="Switch automatic vacation use on or off")
    def patch(self, request):
        ser = VacationSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        acc = account_for(request.user)
        if "auto_use" in ser.validated_data:
            acc.auto_use = ser.validated_data["auto_use"]
            acc.save(update_fields=["auto_use"])
        return Response(vacation_payload(request.user))


class VacationPeriodsView(APIView):
    throttle_classes = [UserRateThrottle, ClockThrottle]
    throttle_scope = "clock"

    @extend_schema(tags=TAGS, request=VacationPeriodSerializer,
                   responses={201: schema.VacationPayloadSerializer, 400: E400, **schema.VACATION},
                   summary="Book a vacation period ahead (days come from the balance)",
                   description="The period shows on the clocks of your active games (a `vacation` version of "
                               "each). Rate limit: `clock` scope (with +time, pause, resume and the other "
                               "vacation changes).")
    def post(self, request):
        ser = VacationPeriodSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        try:
            take_period(request.user, ser.validated_data["start"], ser.validated_data["days"])
        except ValueError as exc:
            raise ValidationError({"days": [str(exc)]}) from None
        return Response(vacation_payload(request.user), status=status.HTTP_201_CREATED)


class VacationShortenSerializer(ClosedSerializer):
    """The body of a shortening: ``days`` or ``end``, exactly one (the schema: one of the two shapes below)."""

    days = StrictIntegerField(min_value=1, max_value=30, required=False,
                              help_text="The period's new length in whole days from its start (fewer than booked).")
    end = serializers.DateTimeField(required=False, help_text="Or the new end: the period keeps the whole days "
                                                              "from its start that reach it (a day begun counts).")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("days" in attrs) == ("end" in attrs):
            raise ValidationError({"days": ["Give either days (the new length) or end (the new end), not both."]})
        return attrs


#: The body of a shortening, one of two shapes (a PATCH that is not partial: each shape needs its one field).
SHORTEN_REQUEST = {"application/json": {"oneOf": [
    {"type": "object", "title": "ShortenToDays", "required": ["days"], "additionalProperties": False,
     "properties": {"days": {"type": "integer", "minimum": 1, "maximum": 30,
                             "description": "The period's new length in whole days from its start (fewer than "
                                            "booked)."}}},
    {"type": "object", "title": "ShortenToEnd", "required": ["end"], "additionalProperties": False,
     "properties": {"end": {"type": "string", "format": "date-time",
                            "description": "The new end: the period keeps the whole days from its start that reach "
                                           "it (a day begun counts)."}}},
]}}


def _changed(user: Any, given: float) -> Response:
    return Response({**vacation_payload(user), "given_back_days": given})


class VacationPeriodView(APIView):
    """One booked period: shorten it (PATCH) or cancel it before it starts (DELETE)."""

    throttle_classes = [UserRateThrottle, ClockThrottle]
    throttle_scope = "clock"

    @extend_schema(tags=TAGS, request=SHORTEN_REQUEST,
                   responses={200: schema.VacationChangeSerializer, 400: E400, 404: schema.PERIOD_404,
                              409: schema.PERIOD_409, **schema.VACATION},
                   summary="Shorten a vacation period (the days cut off go back to the balance)",
                   description="A period is whole days from its start; it keeps at least the days already begun "
                               "(today's included) and can never be made longer (book another period). The whole "
                               "days cut off go back to the balance (at most 30). Deadlines of your games it had "
                               "moved now end with it (at least an hour from now); your active games show the "
                               "change live. Rate limit: `clock` scope.")
    def patch(self, request, period_id: int):
        ser = VacationShortenSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        _, given = call(shorten_period, request.user, period_id, days=d.get("days"), end=d.get("end"))
        return _changed(request.user, given)

    @extend_schema(tags=TAGS, request=None,
                   responses={200: schema.VacationChangeSerializer, 404: schema.PERIOD_404, 409: schema.PERIOD_409,
                              **schema.VACATION},
                   summary="Cancel a vacation period that has not started (all its days go back)",
                   description="Only before its start; a period under way can be shortened (PATCH). Your "
                               "active games show the change live. Rate limit: `clock` scope.")
    def delete(self, request, period_id: int):
        given = call(cancel_period, request.user, period_id)
        return _changed(request.user, given)

