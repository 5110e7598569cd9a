"""Vacation days: accrual, the periods the clocks show (cached), and the use of vacation when a deadline
would pass. Booking, cancelling and shortening periods: :mod:`games.clock.bookings`."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from .models import VacationAccount, VacationPeriod, VacationUse

DAY = timedelta(days=1)
#: How long the periods of a user stay cached for the clocks (every change of them also clears the entry).
PERIODS_CACHE_SECONDS = 600


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


# ----------------------------------------------------------------------------------------- what the clocks show

def _key(user_id: int) -> str:
    return f"vacation:periods:{user_id}"


def periods_of(user_ids: Sequence[int]) -> dict[int, list[tuple[datetime, datetime]]]:
    """The booked periods not yet over of each user, ordered by start (``set_vacation_reader`` of the game
    clocks): one cache read for all; the users missing from the cache in one query (``user`` index)."""
    found = cache.get_many([_key(u) for u in user_ids])
    out: dict[int, list[tuple[datetime, datetime]]] = {}
    missing = []
    for uid in user_ids:
        cached = found.get(_key(uid))
        if cached is None:
            missing.append(uid)
        else:
            out[uid] = [(datetime.fromisoformat(s), datetime.fromisoformat(e)) for s, e in cached]
    if missing:
        now = timezone.now()
        for uid in missing:
            out[uid] = []
        for uid, start, end in (VacationPeriod.objects.filter(user_id__in=missing, end__gt=now)
                                .order_by("start").values_list("user_id", "start", "end")):
            out[uid].append((start, end))
        for uid in missing:
            cache.add(_key(uid), [(s.isoformat(), e.isoformat()) for s, e in out[uid]], PERIODS_CACHE_SECONDS)
    return {uid: periods for uid, periods in out.items() if periods}


def forget(user_id: int) -> None:
    cache.delete(_key(user_id))


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
