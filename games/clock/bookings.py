"""Booking, cancelling and shortening vacation periods; each change is shown on the user's active games.

Days given back (docs/correspondence.md): a period is whole days from its start. Cancelling one that has
not started gives back all its days; shortening keeps at least the days already begun (the current one
included: it is used) and gives back the whole days cut off. The balance never goes above
:func:`~games.clock.vacation.max_days` by it.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

import claim.tasks
from games.service import Conflict, InvalidRequest, ServiceError

from .models import VacationAccount, VacationPeriod
from .tasks import announce_vacation_task
from .vacation import DAY, account_for, accrual_every_days, forget, max_days


class PeriodNotFound(ServiceError):
    status = 404
    code = "not_found"


def take_period(user: Any, start: datetime, days: int) -> VacationPeriod:
    """Book ``days`` of vacation from ``start``; the days are taken from the balance now. The user's active
    games show it (:func:`changed`)."""
    with transaction.atomic():
        acc = account_for(user, lock=True)
        if days < 1 or days > acc.balance:
            left = math.floor(acc.balance)
            message = ngettext("You have {count} vacation day left and asked for {days}: book fewer days, or wait: "
                               "one more day comes every {every} days.",
                               "You have {count} vacation days left and asked for {days}: book fewer days, or "
                               "wait: one more day comes every {every} days.", left)
            raise ValueError(message.format(count=left, days=days, every=accrual_every_days()))
        acc.balance -= days
        acc.save(update_fields=["balance"])
        period = VacationPeriod.objects.create(user=user, start=start, end=start + days * DAY, days=days)
        changed(user.pk, new=(period.start, period.end))
        return period


def _locked_period(user: Any, period_id: int) -> VacationPeriod:
    """The user's period ``period_id``, locked (caller holds the account lock); 404 for anyone else's."""
    found = VacationPeriod.objects.select_for_update().filter(pk=period_id, user=user).first()
    if found is None:
        raise PeriodNotFound(gettext("No such vacation period of yours (it may have been cancelled)."))
    return found


def _give_back(acc: VacationAccount, days: int) -> float:
    """Days back to the balance (never above the maximum); returns how many the balance really gained."""
    before = acc.balance
    acc.balance = min(max_days(), acc.balance + days)
    acc.save(update_fields=["balance"])
    return acc.balance - before


def days_started(period: VacationPeriod, now: datetime) -> int:
    """Whole days of ``period`` begun by ``now`` (the current one counts)."""
    if now < period.start:
        return 0
    return min(period.days, math.floor((now - period.start) / DAY) + 1)


def cancel_period(user: Any, period_id: int) -> float:
    """Cancel a period that has not started: all its days go back to the balance. Returns the days given back.
    409 if it has started (shorten it instead) or is over."""
    now = timezone.now()
    with transaction.atomic():
        acc = account_for(user, lock=True)
        period = _locked_period(user, period_id)
        if period.end <= now:
            raise Conflict(gettext("This vacation period is over; there is nothing left to cancel."),
                           code="period_over")
        if period.start <= now:
            raise Conflict(gettext("This vacation period has started, so it cannot be cancelled: shorten it instead "
                                   "(the days already begun are used)."), code="period_started")
        given = _give_back(acc, period.days)
        old = (period.start, period.end)
        period.delete()
        changed(user.pk, old=old, new=None)
    return given


def shorten_period(user: Any, period_id: int, days: int | None = None,
                   end: datetime | None = None) -> tuple[VacationPeriod, float]:
    """Shorten a period to ``days`` whole days from its start, or to the whole days that reach ``end`` (fewer
    than booked, at least the days begun, at least 1); the days cut off go back to the balance. Returns the
    period and the days given back."""
    now = timezone.now()
    with transaction.atomic():
        acc = account_for(user, lock=True)
        period = _locked_period(user, period_id)
        if period.end <= now:
            raise Conflict(gettext("This vacation period is over; it cannot be changed."), code="period_over")
        least = max(1, days_started(period, now))
        if least >= period.days:
            raise Conflict(gettext("This vacation period is in its last day (until {end}); there is no whole day "
                                   "left to give back.").format(end=_iso(period.end)), code="period_last_day")
        if days is None:
            if end is None:
                raise InvalidRequest(gettext("Give the new length (days) or the new end."), field="days")
            if end <= period.start:
                raise InvalidRequest(gettext("The new end must be after the period's start ({start}); to drop a "
                                             "period that has not started, cancel it.").format(
                    start=_iso(period.start)), field="end")
            days = days_until(period, end)
        if days >= period.days:
            message = ngettext("A period can only be shortened: it has {count} day, so ask for fewer (to make it "
                               "longer, book another period).",
                               "A period can only be shortened: it has {count} days, so ask for fewer (to make it "
                               "longer, book another period).", period.days)
            raise InvalidRequest(message.format(count=period.days), field="days")
        if days < least:
            if period.start > now:
                raise InvalidRequest(gettext("A period has at least 1 day; to drop it altogether, cancel it."),
                                     field="days")
            message = ngettext("{count} day of this period has begun and is used: it can end after day {count} at "
                               "the earliest ({end}).",
                               "{count} days of this period have begun and are used: it can end after day {count} "
                               "at the earliest ({end}).", least)
            raise InvalidRequest(message.format(count=least, end=_iso(period.start + least * DAY)), field="days")
        old = (period.start, period.end)
        given = _give_back(acc, period.days - days)
        period.days, period.end = days, period.start + days * DAY
        period.save(update_fields=["days", "end"])
        changed(user.pk, old=old, new=(period.start, period.end))
    return period, given


def days_until(period: VacationPeriod, end: datetime) -> int:
    """The whole days from the period's start that reach ``end`` (a day begun counts whole)."""
    return max(0, math.ceil((end - period.start) / DAY - 1e-9))


def _iso(dt: datetime) -> str:
    return dt.isoformat().replace("+00:00", "Z")


def changed(user_id: int, old: tuple[datetime, datetime] | None = None,
            new: tuple[datetime, datetime] | None = None) -> None:
    """Inside the transaction that changed the user's periods: the cached periods are cleared now and on
    commit, then the user's active games get a ``vacation`` version (:func:`games.clock.service.announce_vacation`,
    in the background). ``old``/``new``: a period cancelled or shortened (deadlines it had moved come back)."""
    forget(user_id)
    args = [user_id, [_iso(t) for t in old] if old else None, [_iso(t) for t in new] if new else None]

    def after() -> None:
        forget(user_id)
        claim.tasks.enqueue(announce_vacation_task, *args)

    transaction.on_commit(after, robust=True)
