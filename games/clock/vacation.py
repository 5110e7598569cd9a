"""Vacation days: accrual, explicit periods, and the automatic use when a deadline would pass."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from .models import VacationAccount, VacationPeriod, VacationUse

DAY = timedelta(days=1)


def accrual_every_days() -> int:
    return int(getattr(settings, "VACATION_ACCRUAL_EVERY_DAYS", 7))


def start_days() -> float:
    """What a newcomer starts with (docs/correspondence.md: a week, so a first trip costs no game)."""
    return float(getattr(settings, "VACATION_START_DAYS", 7))


def max_days() -> float:
    return float(getattr(settings, "VACATION_MAX_DAYS", 30))


def account_for(user: Any, lock: bool = False) -> VacationAccount:
    """The user's vacation account with accrual brought up to date (1 day per 7 since joining, max 30)."""
    acc, _ = VacationAccount.objects.get_or_create(user=user, defaults={"accrued_until": user.date_joined,
                                                                         "balance": start_days()})
    if lock:
        acc = VacationAccount.objects.select_for_update().get(pk=acc.pk)
    now = timezone.now()
    step = timedelta(days=accrual_every_days())
    periods = int((now - acc.accrued_until) / step) if now > acc.accrued_until else 0
    if periods:
        acc.balance = min(max_days(), acc.balance + periods)
        acc.accrued_until = acc.accrued_until + periods * step
        acc.save(update_fields=["balance", "accrued_until"])
    return acc


def period_covering(user: Any, when: datetime) -> VacationPeriod | None:
    return VacationPeriod.objects.filter(user=user, start__lte=when, end__gt=when).order_by("-end").first()


def take_period(user: Any, start: datetime, days: int) -> VacationPeriod:
    """Book ``days`` of vacation from ``start``; the days are taken from the balance now."""
    from django.db import transaction

    with transaction.atomic():
        acc = account_for(user, lock=True)
        if days < 1 or days > acc.balance:
            raise ValueError(f"You have {math.floor(acc.balance)} vacation day(s) left and asked for {days}: book "
                             f"fewer days, or wait: one more day comes every {accrual_every_days()} days.")
        acc.balance -= days
        acc.save(update_fields=["balance"])
        return VacationPeriod.objects.create(user=user, start=start, end=start + days * DAY, days=days)


def extension_for(user: Any, game: Any, deadline: datetime, now: datetime) -> datetime | None:
    """Vacation that saves ``user`` from a deadline that passed: a booked period covering the deadline
    (free: its days were paid when booked), or, with ``auto_use``, as many whole days from the balance as
    it takes to move the deadline past now. None: no vacation applies (the seat times out)."""
    period = period_covering(user, deadline) or period_covering(user, now)
    if period is not None:
        return max(period.end, now + timedelta(hours=1))
    acc = account_for(user, lock=True)
    if not acc.auto_use:
        return None
    needed = max(1, math.ceil((now - deadline) / DAY + 1e-9))
    if acc.balance < needed:
        return None
    acc.balance -= needed
    acc.save(update_fields=["balance"])
    VacationUse.objects.create(user=user, game=game, version=game.version, days=needed)
    return deadline + needed * DAY
