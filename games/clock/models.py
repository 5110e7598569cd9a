"""A game's clock beyond days-per-move (bank, pause, extra time), seats that left on time, vacation."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class GameClock(models.Model):
    """Optional companion of a game. Days per move live on ``Game.days_per_move`` (the service sets
    ``Game.deadline``); a bank clock is kept here and its deadline is written by the clock receiver."""

    class Control(models.TextChoices):
        DAYS = "days", "Days per move"
        BANK = "bank", "Bank with increment"
        UNLIMITED = "unlimited", "Unlimited"

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="clock")
    control = models.CharField(max_length=10, choices=Control.choices, default=Control.DAYS)
    initial_seconds = models.PositiveIntegerField(default=0, help_text="Bank: starting time per seat.")
    increment_seconds = models.PositiveIntegerField(default=0, help_text="Bank: added after each own move.")
    cap_seconds = models.PositiveIntegerField(default=0, help_text="Bank: the bank never grows above this.")
    bonus_seconds = models.JSONField(default=list, blank=True, help_text="Bank: time given per seat (+time).")
    pause_requests = models.JSONField(default=list, blank=True, help_text="Seats that asked for a pause.")
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_remaining = models.FloatField(null=True, blank=True, help_text="Seconds left when the pause began.")
    paused_version = models.PositiveIntegerField(null=True, blank=True)
    # Bank snapshot, rewritten after every version by the clock receiver (games.service.clock.sync_bank):
    # each seat's bank (bonus excluded) when the current turn started, that instant, and the version.
    # The game payload extends it by one version in memory, so a move's answer needs no history query.
    banks = models.JSONField(default=list, blank=True, help_text="Bank: seconds per seat at the turn start.")
    turn_started_at = models.DateTimeField(null=True, blank=True)
    synced_version = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"Clock of game {self.game_id} ({self.control})"


class SeatDeparture(models.Model):
    """A user who left a game: timed out in a 3-4 player game and replaced by an AI."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="departures")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="departures")
    reason = models.CharField(max_length=16, default="timeout")
    replaced_by_ai = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="departure_unique_seat")]


class VacationAccount(models.Model):
    """Vacation days: accrue 1 per 7 days of membership (max 30); used automatically when a deadline
    would pass (``auto_use``) or taken ahead as explicit periods."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacation")
    balance = models.FloatField(default=0.0)
    accrued_until = models.DateTimeField(default=timezone.now)
    auto_use = models.BooleanField(default=True)


class VacationPeriod(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacation_periods")
    start = models.DateTimeField()
    end = models.DateTimeField()
    days = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["start"]


class VacationUse(models.Model):
    """A day of vacation spent automatically on a game (shown as a notice)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacation_uses")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField()
    days = models.FloatField(default=1.0)
    created_at = models.DateTimeField(default=timezone.now)
