"""Vacation: each user's balance, booked periods and the days spent automatically. (A game's own clock
row and the seats that left on time are part of the game: :mod:`games.models`.)"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


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
