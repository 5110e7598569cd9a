"""Response shapes of the clock and vacation endpoints (documentation: the OpenAPI schema)."""

from __future__ import annotations

from rest_framework import serializers

from games.api import schema
from games.api.serializers import ClockSeatSerializer, TimeControlSerializer


class ClockPayloadSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    control = serializers.ChoiceField(choices=["days", "bank", "unlimited"])
    description = serializers.CharField(help_text='For people, e.g. "3 days per move".')
    time_control = TimeControlSerializer()
    days_per_move = serializers.IntegerField(allow_null=True)
    initial_seconds = serializers.IntegerField(allow_null=True)
    increment_seconds = serializers.IntegerField(allow_null=True)
    cap_seconds = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True, help_text="The earliest deadline of the seats to act.")
    remaining_seconds = serializers.ListField(child=serializers.FloatField(allow_null=True),
                                              help_text="Per seat, at the moment of the answer (null: no clock).")
    seats = ClockSeatSerializer(many=True)
    paused = serializers.BooleanField()
    paused_at = serializers.DateTimeField(allow_null=True)
    pause_requests = serializers.ListField(child=serializers.IntegerField())
    rated_allowed = serializers.BooleanField(help_text="The time control allows rated games (not unlimited).")


class VacationPeriodOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()
    days = serializers.IntegerField()
    started = serializers.BooleanField(help_text="Under way: it can be shortened, no longer cancelled.")
    days_begun = serializers.IntegerField(help_text="Whole days begun (today's included): the least it can keep.")


class VacationPayloadSerializer(serializers.Serializer):
    balance_days = serializers.FloatField(help_text="Vacation days left to use (fractions accrue weekly).")
    auto_use = serializers.BooleanField(help_text="Days are used automatically when a deadline would pass.")
    next_accrual = serializers.DateTimeField(allow_null=True)
    periods = VacationPeriodOutSerializer(many=True, help_text="Booked periods not yet over.")


class VacationChangeSerializer(VacationPayloadSerializer):
    given_back_days = serializers.FloatField(help_text="Days the change gave back to the balance.")


CLOCK_409 = schema.errors("The clock cannot do this now.",
                          ("not_active", "Only a game in play has a clock."),
                          ("own_turn", "You cannot give yourself more time."),
                          ("no_clock", "Nobody's clock is running."),
                          ("give_time_limit", "You have given 7 days in this game, the most one player may give."),
                          ("time_left_limit", "That would leave 14 days 3 hours for this move; a gift may not "
                                              "leave anyone more than 14 days."),
                          ("not_paused", "This game is not paused."),
                          ("tournament_game", "A tournament game cannot be paused: every game of a tournament runs "
                                              "on its time control, without pauses or vacation."))
CLOCK_READ = {200: ClockPayloadSerializer, **schema.STANDARD}
CLOCK_ACTION = {200: ClockPayloadSerializer, 409: CLOCK_409, **schema.STANDARD}
VACATION = {401: schema.E401, 403: schema.E403, 429: schema.E429}
PERIOD_404 = schema.errors("No such period of yours.",
                           ("not_found", "No such vacation period of yours (it may have been cancelled)."))
PERIOD_409 = schema.errors("The period cannot be changed this way now.",
                           ("period_started", "This vacation period has started, so it cannot be cancelled: "
                                              "shorten it instead (the days already begun are used)."),
                           ("period_last_day", "This vacation period is in its last day (until "
                                               "2026-12-12T00:00:00Z); there is no whole day left to give back."),
                           ("period_over", "This vacation period is over; it cannot be changed."))
