"""``tournament_starting``: the entrants of an open tournament hear once that it starts within the hour (issue 36).

The beat task (``tournaments.tick``) calls :func:`remind_due`; each tournament is claimed by a conditional
``UPDATE`` of ``reminded_at`` (two beats at once: one wins), and the claim sends
:data:`games.tournaments.signals.starting_soon` in the same transaction; the receivers tell the entrants after its
commit. A tournament without a start time (it starts when full) has no reminder: its start is the news.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from . import signals
from .models import Tournament

#: How long before ``starts_at`` the entrants are told.
REMIND_AHEAD = timedelta(hours=1)
#: Tournaments reminded per run of the beat (the next run takes the rest).
BATCH = 50


def remind_due(now: datetime | None = None) -> int:
    """Tell the entrants of the open tournaments starting within :data:`REMIND_AHEAD` that were not told yet;
    returns how many tournaments were reminded."""
    now = now or timezone.now()
    due = list(Tournament.objects.filter(status=Tournament.Status.OPEN, reminded_at__isnull=True, starts_at__gt=now,
                                         starts_at__lte=now + REMIND_AHEAD)
               .order_by("starts_at").values_list("pk", flat=True)[:BATCH])
    sent = 0
    for pk in due:
        with transaction.atomic():
            claimed = Tournament.objects.filter(pk=pk, status=Tournament.Status.OPEN,
                                                reminded_at__isnull=True).update(reminded_at=now)
            if claimed:
                signals.starting_soon.send(sender=Tournament, tournament_id=pk)
                sent += 1
    return sent
