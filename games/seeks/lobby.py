"""The lobby (issue 33): other players' open seeks that would pair with me, and joining one.

Rulings:

* Listed: other users' open seeks, oldest first (who waited longest), that would pair with me now: my rating
  in the seek's pool inside its window (``service.window``: it widens while the seek waits), my reliability at
  least its minimum; a bot account sees only seeks that welcome bots, a human also sees bots' seeks
  (``is_bot``): choosing one is the human's opt-in. Caps are not checked in the list (joining answers 409).
* Blocks (issue 35): a seek of a user who has a block with me (either way) is never listed (one query per page
  over the users of the seeks read, ``accounts.relations.blocked_among``), and joining it by its id is 403
  ``blocked`` (:class:`Blocked`; the pairing would refuse the pair anyway).
* Pages: keyset on the partial index ``seek_lobby`` (created_at, id; open seeks only); a page reads at most
  ``SCAN`` open seeks and returns those that fit, with the cursor (the id) of the last one read: cost per page is
  bounded whatever the number of seeks ever posted (matched and cancelled ones are not in the index).
* Joining: a seek of mine with the chosen seek's terms (kind, options, seats, time control, rated; any
  rating; welcoming bots only when the chosen seek is a bot's; watchable, the requests' default, so the game is
  watchable when the chosen seek, and any other of a 3-4 seat table, allows it), paired by
  ``service._pair_once`` with the chosen seek as the second of the group: the pairing's compatibility rules
  both ways and its locks (every seek of the group in one ``SELECT … ORDER BY id FOR UPDATE``). Two seats: the
  game at once, or nothing (409 ``seek_taken``: my seek is rolled back). Three or four: the rest of the table
  from other compatible open seeks, closest rating first; when too few wait, my seek stays open and the
  periodic pairing completes a table later (with the chosen seek if it still waits).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from accounts.relations import blocked_among, blocked_between
from games.clock.reliability import reliability
from games.models import Game
from games.ratings.models import Rating
from games.ratings.service import pool_for, rating_payload

from . import service
from .models import Seek

#: Open seeks read for one lobby page at most.
SCAN = 200


class Blocked(Exception):
    """A seek of a user who has a block with this user, either way (never listed for them)."""


class NotJoinable(Exception):
    """A seek of the lobby that this user cannot join (``code``: ``own_seek``, ``not_compatible``,
    ``seek_taken``)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


def _ratings(user: Any, seeks: list[Seek]) -> dict[tuple[int, str], int]:
    """The rating of every seek's user and of ``user`` in every pool of ``seeks``: one query."""
    pools = {pool_for(s.kind, s.seats) for s in seeks}
    uids = {s.user_id for s in seeks} | {user.pk}
    rows = {(r.user_id, r.pool): r for r in Rating.objects.filter(pool__in=pools, user_id__in=uids)}
    return {(uid, pool): rating_payload(rows.get((uid, pool)), pool)["rating"] for uid in uids for pool in pools}


def refusal(user: Any, seek: Seek, mine: int, theirs: int, now: datetime, reliability: Callable[[], int]) -> str | None:
    """Why ``user`` (rating ``mine`` in the seek's pool) may not join ``seek`` (its player's ``theirs``) now,
    or None."""
    if seek.user.is_bot and not user.is_bot:
        pass  # a human choosing a bot's seek opts in
    elif user.is_bot and not seek.user.is_bot and not seek.bots_welcome:
        return gettext("This player's seek does not welcome bot accounts.")
    w = service.window(seek, now)
    if w is not None and abs(mine - theirs) > w:
        return gettext("Your rating ({mine}) is outside this seek's window ({theirs} ± {window}).").format(
            mine=mine, theirs=theirs, window=round(w))
    if seek.min_reliability and reliability() < seek.min_reliability:
        return gettext("This seek asks for a reliability of at least {least}.").format(least=seek.min_reliability)
    return None


def _attach_users(seeks: list[Seek]) -> None:
    """Their users by primary key, one query (a join could hash the whole user table for a page of seeks)."""
    users = User.objects.in_bulk({s.user_id for s in seeks})
    for s in seeks:
        s.user = users[s.user_id]


def _reliability_of(user: Any) -> Callable[[], int]:
    cache: list[int] = []

    def get() -> int:
        if not cache:
            cache.append(reliability(user))
        return cache[0]

    return get


def lobby_page(user: Any, after: tuple[datetime, int] | None, limit: int, kind: str | None = None,
               ) -> tuple[list[tuple[Seek, int]], int | None]:
    """Up to ``limit`` open seeks of others that ``user`` may join, oldest first, after ``after`` (the
    ``(created_at, id)`` of the cursor's seek), each with its player's rating; and the cursor of the next page
    (the id of the last seek read; None: no more). Seeks of users who have a block with ``user`` are left out."""
    qs = Seek.objects.filter(status=Seek.Status.OPEN).exclude(user=user)
    if kind is not None:
        qs = qs.filter(kind=kind)
    if after is not None:
        moment, pk = after
        qs = qs.filter(created_at__gte=moment).filter(Q(created_at__gt=moment) | Q(pk__gt=pk))
    read = list(qs.order_by("created_at", "pk")[:SCAN])
    _attach_users(read)
    now = timezone.now()
    ratings = _ratings(user, read)
    reliability = _reliability_of(user)
    blocked = blocked_among(user.pk, {s.user_id for s in read})
    out: list[tuple[Seek, int]] = []
    for i, seek in enumerate(read):
        if seek.user_id in blocked:
            continue
        pool = pool_for(seek.kind, seek.seats)
        theirs = ratings[(seek.user_id, pool)]
        if refusal(user, seek, ratings[(user.pk, pool)], theirs, now, reliability) is None:
            out.append((seek, theirs))
            if len(out) == limit:
                more = i + 1 < len(read) or len(read) == SCAN
                return out, seek.pk if more else None
    return out, read[-1].pk if len(read) == SCAN else None


def cursor_row(seek_id: int | None) -> tuple[datetime, int] | None:
    """``(created_at, id)`` of the cursor's seek, whatever became of it (paired or cancelled since: its place
    in the order does not change); ``LookupError`` when there is no such seek."""
    if seek_id is None:
        return None
    created = Seek.objects.filter(pk=seek_id).values_list("created_at", flat=True).first()
    if created is None:
        raise LookupError(seek_id)
    return created, seek_id


def accept(user: Any, seek_id: int) -> tuple[Seek, Game | None]:
    """Join the open seek ``seek_id`` of another player (see the module's rulings): my new seek and the game
    (None: a 3-4 seat table still waiting). Raises ``LookupError`` (no such open seek), :class:`Blocked`,
    :class:`NotJoinable`, ``service.TooManySeeks``."""
    target = Seek.objects.select_related("user").filter(pk=seek_id, status=Seek.Status.OPEN).first()
    if target is None:
        raise LookupError(seek_id)
    if target.user_id == user.pk:
        raise NotJoinable("own_seek", gettext("This is your own seek: it waits for another player (cancel it from "
                                              "your inbox)."))
    if blocked_between(user.pk, target.user_id):
        raise Blocked()
    pool = pool_for(target.kind, target.seats)
    ratings = _ratings(user, [target])
    why = refusal(user, target, ratings[(user.pk, pool)], ratings[(target.user_id, pool)], timezone.now(),
                  _reliability_of(user))
    if why is not None:
        raise NotJoinable("not_compatible", why)
    fields = {"kind": target.kind, "options": target.options, "seats": target.seats,
              "days_per_move": target.days_per_move, "time_control": target.time_control, "rated": target.rated,
              "rating_range": None, "min_reliability": 0, "bots_welcome": target.user.is_bot,
              "watchable": True}  # the request's default: the game is watchable when the chosen seek allows it
    with transaction.atomic():
        mine = service._new_seek(user, fields)
        game, _ = service._pair_once(mine.pk, False, partner=target.pk)
        if game is None and target.seats == 2:
            raise NotJoinable("seek_taken", gettext("This seek can no longer be joined (it was just paired or "
                                                    "cancelled, or its player has no room for another game): "
                                                    "choose another."))
    mine.refresh_from_db()
    return mine, game
