"""What the games app holds about a person, for the export of one's data and the deletion of an account
(docs/accounts.md, "Your data"; the accounts side: accounts/privacy.py and accounts.services.delete_account).

* :func:`personal_data_sections` answers ``accounts.signals.personal_data_requested``: one
  :class:`accounts.privacy.Section` per table of the games app that has rows of the user. Games are listed by id
  with their links (the records themselves: ``GET /api/v1/games/{id}/record`` and the game export).
* :func:`on_account_deleting` answers ``accounts.signals.account_deleting``, inside the deletion's transaction:
  the user's open seeks are cancelled and pending challenges cancelled or declined through their services (both
  sides hear of it), open games aborted and active games resigned through the game service (the opponents see
  the usual versions and events), then the user's seeks, challenges, notifications, deliveries, preferences,
  push subscriptions, reminders, vacation and ratings are deleted. Seats, moves and departures stay: finished games
  keep their players, the deleted one now shown as the anonymous account (accounts.services.DELETED_NAME).

``games.apps`` connects both.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from django.db import models as djmodels
from django.db.models import Q

from accounts.privacy import Section, below, iso

from .challenges import service as challenges
from .challenges.models import Challenge
from .clock.models import VacationAccount, VacationPeriod, VacationUse
from .models import Game, Seat, SeatDeparture
from .notify.models import Delivery, Notification, NotifySettings, Preference, PushSubscription, ReminderLog
from .ratings.models import Rating, RatingHistory
from .seeks.models import Seek
from .seeks.service import SeekMatched, cancel_seek
from .service import ServiceError, offer_abort, resign

logger = logging.getLogger(__name__)


def row(obj: Any, exclude: frozenset[str] = frozenset({"user"})) -> dict[str, Any]:
    """A model row as JSON-ready data: its concrete fields (a foreign key as ``<name>_id``), datetimes in ISO 8601."""
    out: dict[str, Any] = {}
    for field in obj._meta.concrete_fields:
        if field.name in exclude:
            continue
        value = getattr(obj, field.attname)
        out["id" if field.primary_key else field.attname] = iso(value) if isinstance(
            field, djmodels.DateTimeField) else value
    return out


def _rows(queryset: Any, exclude: frozenset[str] = frozenset({"user"})):
    def page(user: Any, before: Any, limit: int) -> list[dict[str, Any]]:
        return [row(obj, exclude) for obj in below(queryset(user), before, limit)]
    return page


def _games(user: Any, before: Any, limit: int) -> list[dict[str, Any]]:
    """The user's seats, by game id: the seat's facts and the game's addresses."""
    seats = below(Seat.objects.filter(user=user).select_related("game"), before, limit, field="game_id")
    return [{"id": s.game_id, "kind": s.game.kind, "status": s.game.status, "seat": s.index,
             "joined_at": iso(s.joined_at), "outcome": s.outcome or None, "rank": s.rank,
             "created_at": iso(s.game.created_at), "finished_at": iso(s.game.finished_at),
             "view": f"/api/v1/games/{s.game_id}", "record": f"/api/v1/games/{s.game_id}/record"} for s in seats]


def personal_data_sections(sender: Any, **kwargs: Any) -> list[Section]:
    """``personal_data_requested`` receiver: the games app's sections of the export."""
    return [
        Section("games", "Your seats in games, by game id, with each game's addresses (its record: /record).",
                _games),
        Section("ratings", "Your ratings, one per pool.", _rows(lambda u: Rating.objects.filter(user=u))),
        Section("rating_history", "Each rated game's change of your rating.",
                _rows(lambda u: RatingHistory.objects.filter(rating__user=u), frozenset())),
        Section("seat_departures", "Games you left on time, your seat handed to an AI.",
                _rows(lambda u: SeatDeparture.objects.filter(user=u))),
        Section("seeks", "Your seeks (matchmaking requests).", _rows(lambda u: Seek.objects.filter(user=u))),
        Section("challenges", "Challenges you made or were sent.", _rows(_challenges, frozenset()), text_ids=True),
        Section("notifications", "Your notifications.", _rows(lambda u: Notification.objects.filter(user=u))),
        Section("notification_deliveries", "Each push or e-mail delivery of a notification to you.",
                _rows(lambda u: Delivery.objects.filter(user=u))),
        Section("notification_preferences", "Your notification preferences, per event.",
                _rows(lambda u: Preference.objects.filter(user=u))),
        Section("notification_settings", "Your notification settings.",
                _rows(lambda u: NotifySettings.objects.filter(user=u))),
        Section("push_subscriptions", "Your Web Push subscriptions (their endpoints; never their keys).",
                _rows(lambda u: PushSubscription.objects.filter(user=u), frozenset({"user", "p256dh", "auth"}))),
        Section("reminders", "The deadline reminders sent to you.",
                _rows(lambda u: ReminderLog.objects.filter(user=u))),
        Section("vacation", "Your vacation balance.", _rows(lambda u: VacationAccount.objects.filter(user=u))),
        Section("vacation_periods", "Your booked vacation.", _rows(lambda u: VacationPeriod.objects.filter(user=u))),
        Section("vacation_uses", "Vacation days spent automatically in your games.",
                _rows(lambda u: VacationUse.objects.filter(user=u))),
    ]


def _challenges(user: Any):
    return Challenge.objects.filter(Q(challenger=user) | Q(to=user))


def _end_games(user: Any) -> None:
    """Abort the user's open games and resign their active ones, each through the game service."""
    current = (Seat.objects.filter(user=user, game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
               .values_list("game_id", "game__status", "joined_at"))
    for game_id, status, joined_at in current:
        try:
            if status == Game.Status.ACTIVE and joined_at is not None:
                resign(user, game_id)
            else:
                offer_abort(user, game_id)
        except ServiceError as exc:  # it ended meanwhile: nothing left to end
            logger.info("account deletion: game %s not ended (%s)", game_id, exc)


def _end_seeks_and_challenges(user: Any) -> None:
    for seek_id in Seek.objects.filter(user=user, status=Seek.Status.OPEN).values_list("pk", flat=True):
        with contextlib.suppress(SeekMatched):  # paired meanwhile: its game is ended next (_end_games)
            cancel_seek(user, seek_id)
    pending = _challenges(user).filter(status=Challenge.Status.PENDING).values_list("pk", "challenger_id")
    for challenge_id, challenger_id in pending:
        try:
            if challenger_id == user.pk:
                challenges.cancel(user, challenge_id)
            else:
                challenges.decline(user, challenge_id)
        except ServiceError as exc:  # answered or expired meanwhile
            logger.info("account deletion: challenge %s not ended (%s)", challenge_id, exc)


def on_account_deleting(sender: Any, user: Any, **kwargs: Any) -> None:
    """``account_deleting`` receiver (module docstring): end the user's play, then delete their games-app data."""
    _end_seeks_and_challenges(user)  # first: a seek or challenge taken meanwhile has made a game, ended next
    _end_games(user)
    for queryset in (Seek.objects.filter(user=user), _challenges(user), Delivery.objects.filter(user=user),
                     Notification.objects.filter(user=user), Preference.objects.filter(user=user),
                     NotifySettings.objects.filter(user=user), PushSubscription.objects.filter(user=user),
                     ReminderLog.objects.filter(user=user), VacationUse.objects.filter(user=user),
                     VacationPeriod.objects.filter(user=user), VacationAccount.objects.filter(user=user),
                     Rating.objects.filter(user=user)):
        queryset.delete()
