"""Pairing seeks.

Rulings:

* Compatible seeks: same kind, options, seats, days per move and rated flag, different users; each side's
  rating (in the game's pool) inside the other's window and reliability at least the other's minimum;
  neither player at their concurrent-game cap.
* Window = ``rating_range`` + ``SEEK_WIDEN_STEP`` (50) per ``SEEK_WIDEN_MINUTES`` (10) waited, at most
  ``SEEK_WIDEN_MAX`` (600) extra; ``rating_range`` null means any rating.
* Closest rating first, then the oldest seek. For 3-4 seats, the group is filled greedily by closeness.
* A match creates the game through ``games.service.create_game``, started (``seated``: every player sought it;
  seats in random order, the first user its creator), then notifies ``match_found``.
* The periodic round (issue 38) is planned in one pass over the open seeks (:func:`plan_round`: one read each
  of the seeks, their blocks, ratings and running games, whatever their number), then the games are made
  group by group (:func:`pair_groups`; the Celery task shares them out in chunks, ``SEEK_PAIR_CHUNK``); a group
  with a seek no longer open, a player at the cap or a block found when its game is made is skipped.
* Blocks (issue 35): two users with a block (either way) are never paired, nor seated at one table of 3-4.
  A pairing reads the blocks among its seek's user and its candidates' users in one query
  (:func:`blocked_pairs`: bounded by the open seeks of the round, never by users' histories), and
  :func:`compatible` refuses those pairs.
* Watching (issue 35): ``watchable`` is no pairing condition; the game is watchable only when every seek of the
  group allows it (one player's no is enough), and an AI fallback game when its seek does.
* Bots (issue 26): a bot account's seek pairs with another bot's, or with a human's seek that says
  ``bots_welcome``; a human who did not opt in is never paired with a bot (rated or not).
* Cap on concurrent games (open or active): ``SEEK_CAP_BASE`` (6) + finished games, at most
  ``SEEK_CAP_MAX`` (100); the finished games are counted up to what the cap can use, never a whole history.
* At most ``SEEK_MAX_OPEN`` (10) open seeks per user (409 ``too_many_seeks``), counted under a lock on the
  user's row so parallel posts cannot pass it together.
* Races: a pairing locks every seek of its group in one statement, in id order, and pairs only if all are
  still open; so two pairings of the same seek (a post, the periodic run) make one game, two compatible posts
  at once never deadlock, and a cancel either comes first (no game) or finds the seek matched (409 ``seek_matched``).
* Quick pairing: the oldest compatible seek at once, else a quick seek that becomes an unrated game
  against the AI level closest to the player's rating after ``SEEK_AI_FALLBACK_SECONDS`` (120).
"""

from __future__ import annotations

import bisect
import heapq
import logging
import secrets
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Relation, User
from games.ai import LEVELS
from games.clock.reliability import reliability
from games.models import Game, Seat
from games.notify.service import notify_game
from games.ratings.models import Rating
from games.ratings.service import pool_for, rating_for, rating_payload
from games.service import Blocked, create_game

from .models import Seek

log = logging.getLogger("games.seeks")


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def window(seek: Seek, now: datetime) -> float | None:
    if seek.rating_range is None:
        return None
    waited = max((now - seek.created_at).total_seconds() / 60.0, 0.0)
    steps = int(waited // _setting("SEEK_WIDEN_MINUTES", 10))
    return seek.rating_range + min(steps * _setting("SEEK_WIDEN_STEP", 50), _setting("SEEK_WIDEN_MAX", 600))


def game_cap(user: Any) -> int:
    """``SEEK_CAP_BASE`` + finished games, at most ``SEEK_CAP_MAX``: the count stops at the finished games the
    cap can still use (a ``LIMIT`` under the ``COUNT``), so it reads at most ``SEEK_CAP_MAX`` rows."""
    base, most = _setting("SEEK_CAP_BASE", 6), _setting("SEEK_CAP_MAX", 100)
    useful = max(most - base, 0)
    finished = Game.objects.filter(seats__user=user, status=Game.Status.FINISHED).values("pk")[:useful].count()
    return min(base + finished, most)


def current_games(user: Any) -> int:
    return Game.objects.filter(seats__user=user, status__in=[Game.Status.OPEN, Game.Status.ACTIVE]).count()


def at_cap(user: Any) -> bool:
    return current_games(user) >= game_cap(user)


def blocked_pairs(user_ids: set[int]) -> set[frozenset[int]]:
    """The pairs of ``user_ids`` with a block between them, either way: one query on the relation's unique
    index (user, kind, other), bounded by the users asked about."""
    if len(user_ids) < 2:
        return set()
    rows = Relation.objects.filter(kind=Relation.BLOCK, user_id__in=user_ids, other_id__in=user_ids).values_list(
        "user_id", "other_id")
    return {frozenset(row) for row in rows}


class _Ctx:
    """Per-pairing-run caches of ratings and reliabilities, and the blocks among the round's users
    (``blocked``: pairs of user ids, :func:`blocked_pairs`)."""

    def __init__(self) -> None:
        self.ratings: dict[tuple[int, str, int], float] = {}
        self.rel: dict[int, int] = {}
        self.blocked: set[frozenset[int]] = set()
        self.current: dict[int, int] = {}
        self.caps: dict[int, int] = {}
        self.windows: dict[tuple[int, datetime], float | None] = {}

    def window(self, seek: Seek, now: datetime) -> float | None:
        key = (seek.pk, now)
        if key not in self.windows:
            self.windows[key] = window(seek, now)
        return self.windows[key]

    def prefetch_caps(self, user_ids: set[int]) -> None:
        """The running games of ``user_ids`` not cached yet in one grouped query; a cap (:func:`game_cap`, a
        bounded count of finished games) is read only for those with ``SEEK_CAP_BASE`` running games or more,
        as below that no cap can be reached."""
        wanted = user_ids - self.current.keys()
        if not wanted:
            return
        running = dict(Seat.objects.filter(user_id__in=wanted, game__status__in=[Game.Status.OPEN,
                                                                                 Game.Status.ACTIVE])
                       .values("user_id").annotate(n=Count("pk")).values_list("user_id", "n"))
        for uid in wanted:
            self.current[uid] = running.get(uid, 0)

    def at_cap(self, user: Any) -> bool:
        """:func:`at_cap`, with the running games of this pairing run: read once per user (or prefetched),
        then counted up by :meth:`count_game` as the run pairs the user."""
        if user.pk not in self.current:
            self.current[user.pk] = current_games(user)
        if self.current[user.pk] < _setting("SEEK_CAP_BASE", 6):
            return False
        if user.pk not in self.caps:
            self.caps[user.pk] = game_cap(user)
        return self.current[user.pk] >= self.caps[user.pk]

    def count_game(self, user_ids: list[int]) -> None:
        """A game of this run for ``user_ids`` (a group paired or planned): one more running game each."""
        for uid in user_ids:
            if uid in self.current:
                self.current[uid] += 1

    def prefetch_ratings(self, seeks: list[Seek]) -> None:
        """The ratings of ``seeks``' players not cached yet, one query per pool (not one per seek: a round over
        n open seeks compares each with every candidate)."""
        by_pool: dict[tuple[str, int], set[int]] = {}
        for s in seeks:
            if (s.user_id, s.kind, s.seats) not in self.ratings:
                by_pool.setdefault((s.kind, s.seats), set()).add(s.user_id)
        for (kind, seats), users in by_pool.items():
            pool = pool_for(kind, seats)
            rows = {r.user_id: r for r in Rating.objects.filter(user_id__in=users, pool=pool)}
            for uid in users:
                self.ratings[(uid, kind, seats)] = rating_payload(rows.get(uid), pool)["rating"]

    def rating(self, seek: Seek) -> float:
        key = (seek.user_id, seek.kind, seek.seats)
        if key not in self.ratings:
            self.ratings[key] = rating_for(seek.user, seek.kind, seek.seats)["rating"]
        return self.ratings[key]

    def reliability(self, user: Any) -> int:
        if user.pk not in self.rel:
            self.rel[user.pk] = reliability(user)
        return self.rel[user.pk]


def bots_agree(a: Seek, b: Seek) -> bool:
    """A bot meets a human only if the human's seek welcomes bots."""
    if a.user.is_bot == b.user.is_bot:
        return True
    human = b if a.user.is_bot else a
    return human.bots_welcome


def compatible(a: Seek, b: Seek, now: datetime, ctx: _Ctx) -> bool:
    """Whether ``a`` and ``b`` may be paired now (the module's rulings; blocks: those in ``ctx.blocked``)."""
    if a.user_id == b.user_id or not bots_agree(a, b) or frozenset((a.user_id, b.user_id)) in ctx.blocked:
        return False
    if ((a.kind, a.seats, a.days_per_move, a.time_control, a.rated, a.options)
            != (b.kind, b.seats, b.days_per_move, b.time_control, b.rated, b.options)):
        return False
    diff = abs(ctx.rating(a) - ctx.rating(b))
    for s in (a, b):
        w = ctx.window(s, now)
        if w is not None and diff > w:
            return False
    # reliability is 0-100: a minimum of 0 needs no lookup
    return ((not a.min_reliability or ctx.reliability(b.user) >= a.min_reliability)
            and (not b.min_reliability or ctx.reliability(a.user) >= b.min_reliability))


def _candidates(seek: Seek) -> list[Seek]:
    return list(Seek.objects.filter(status=Seek.Status.OPEN, kind=seek.kind, seats=seek.seats,
                                    days_per_move=seek.days_per_move, rated=seek.rated)
                .exclude(pk=seek.pk).exclude(user=seek.user).select_related("user").order_by("created_at", "pk"))


def find_group(seek: Seek, now: datetime, ctx: _Ctx | None = None, oldest_first: bool = False,
               partner: int | None = None, nearest: Iterable[Seek] | None = None) -> list[Seek] | None:
    """The group ``seek`` would be paired with now (``seek`` first), or None. With ``partner`` (a seek id:
    the lobby's accept), that seek is the second of the group, or there is no group.

    The candidates are :func:`_candidates`, closest rating first (then the oldest), or the oldest first with
    ``oldest_first``. ``nearest`` (:func:`plan_round`): those candidates already in the closest-first order,
    their blocks, ratings and running games in ``ctx``; read lazily, so a group found early reads no further."""
    ctx = ctx or _Ctx()
    pool: Iterable[Seek]
    if nearest is not None:
        pool = (c for c in nearest if compatible(seek, c, now, ctx))
    else:
        candidates = _candidates(seek)
        ctx.blocked |= blocked_pairs({seek.user_id} | {c.user_id for c in candidates})
        ctx.prefetch_ratings([seek, *candidates])
        pool = [c for c in candidates if compatible(seek, c, now, ctx)]
        if not oldest_first:
            mine = ctx.rating(seek)
            pool.sort(key=lambda c: (abs(ctx.rating(c) - mine), c.created_at, c.pk))
    group = [seek]
    if partner is not None:
        chosen = next((c for c in pool if c.pk == partner), None)
        if chosen is None or ctx.at_cap(chosen.user):
            return None
        group.append(chosen)
        if len(group) == seek.seats:
            return group
    for cand in pool:
        if any(cand.user_id == g.user_id for g in group):
            continue
        if all(compatible(g, cand, now, ctx) for g in group) and not ctx.at_cap(cand.user):
            group.append(cand)
            if len(group) == seek.seats:
                return group
    return None


#: How often a pairing looks for another group when a seek of the one it found was taken meanwhile.
PAIR_ATTEMPTS = 3


def try_pair(seek_id: int, oldest_first: bool = False, ctx: _Ctx | None = None) -> Game | None:
    """Pair one open seek if a compatible group exists now. Returns the new game or None.

    The group is found without locks, then every seek of it is locked in one ``SELECT … ORDER BY id FOR
    UPDATE`` (the same order in every transaction: no deadlock between two pairings) and paired only if all
    are still open; when one was matched or cancelled meanwhile, another group is looked for."""
    for _ in range(PAIR_ATTEMPTS):
        game, retry = _pair_once(seek_id, oldest_first, ctx=ctx)
        if not retry:
            return game
    return None


def _pair_once(seek_id: int, oldest_first: bool, partner: int | None = None,
               ctx: _Ctx | None = None) -> tuple[Game | None, bool]:
    """One attempt of :func:`try_pair`: ``(game, False)``, ``(None, False)`` (nothing to pair now) or
    ``(None, True)`` (a seek of the group found was no longer open once locked). ``partner``: as
    :func:`find_group`; ``ctx``: caches of the pairing, a new one if None."""
    now = timezone.now()
    ctx = ctx or _Ctx()
    with transaction.atomic():
        seek = Seek.objects.select_related("user").filter(pk=seek_id).first()
        if seek is None or seek.status != Seek.Status.OPEN or ctx.at_cap(seek.user):
            return None, False
        group = find_group(seek, now, ctx, oldest_first=oldest_first, partner=partner)
        if group is None:
            return None, False
        game, taken = _make_game(group, now)
        if game is None:  # a seek taken meanwhile: another group, unless it was this one; a block: another group
            return None, seek.pk not in taken
    log.info("seek %s paired into game %s", seek_id, game.pk)
    return game, False


def _make_game(group: list[Seek], now: datetime) -> tuple[Game | None, set[int]]:
    """The game of ``group`` (found by :func:`find_group`, ``group[0]``'s settings), in the caller's transaction:
    every seek of the group locked in one ``SELECT … ORDER BY id FOR UPDATE`` (one order for every pairing: no
    deadlock between two), and the game made only if all are still open. ``(game, set())``; ``(None, ids)``:
    the seeks of the group no longer open (a cancel or another pairing came first); ``(None, set())``: a block
    added since the group was found (:class:`~games.service.Blocked`, raised before anything is written).

    The game is created started (``create_game(..., seated=True)``: every player sought it, as both sides of an
    accepted challenge agreed), seats in random order, the first user its creator; the seeks are matched and,
    once the transaction commits, every player is told ``match_found``."""
    seek = group[0]
    locked = list(Seek.objects.select_for_update().filter(pk__in=[g.pk for g in group]).order_by("pk"))
    gone = {g.pk for g in group} - {s.pk for s in locked if s.status == Seek.Status.OPEN}
    if gone:
        return None, gone
    users = [g.user for g in group]
    order = list(range(len(users)))
    secrets.SystemRandom().shuffle(order)
    seated = [users[i] for i in order]
    creator, others = seated[0], seated[1:]
    try:  # create_game refuses a block before it writes anything: no savepoint needed
        game = create_game(creator, seek.kind, seek.options, seek.seats,
                           opponents=[{"type": "user", "user": u} for u in others],
                           days_per_move=None if seek.time_control else seek.days_per_move,
                           rated=seek.rated, seat=0, time_control=seek.time_control, seated=True,
                           watchable=all(g.watchable for g in group))
    except Blocked:
        return None, set()
    Seek.objects.filter(pk__in=[g.pk for g in group]).update(status=Seek.Status.MATCHED, game=game, matched_at=now)
    gid = game.pk
    uids = [u.pk for u in users]
    transaction.on_commit(lambda: _announce(gid, uids), robust=True)
    return game, set()


def _announce(game_id: int, user_ids: list[int]) -> None:
    notify_game("match_found", game_id, user_ids, "match.title", "match.body")


class TooManySeeks(Exception):
    """The user already has :func:`max_open` open seeks."""

    def __init__(self, open_seeks: int, most: int) -> None:
        super().__init__(gettext("You have {count} open seeks, the most allowed ({most}): cancel one first, or "
                                 "wait for a pairing.").format(count=open_seeks, most=most))


def max_open() -> int:
    return _setting("SEEK_MAX_OPEN", 10)


def create_seek(user: Any, **fields: Any) -> tuple[Seek, Game | None]:
    """A new seek, paired at once if possible. Raises :class:`TooManySeeks` past :func:`max_open` open seeks:
    counted after locking the user's row (``FOR NO KEY UPDATE``, so parallel posts of one user take turns),
    on the ``seek_open`` index."""
    with transaction.atomic():
        seek = _new_seek(user, fields)
    return seek, try_pair(seek.pk, oldest_first=seek.quick)


def _new_seek(user: Any, fields: dict[str, Any]) -> Seek:
    """Insert a seek of ``user`` (in the caller's transaction) after counting their open seeks under a lock
    on their row: :class:`TooManySeeks` past :func:`max_open`."""
    list(User.objects.select_for_update(no_key=True).filter(pk=user.pk).values_list("pk", flat=True))
    open_seeks = Seek.objects.filter(user=user, status=Seek.Status.OPEN).count()
    if open_seeks >= max_open():
        raise TooManySeeks(open_seeks, max_open())
    return Seek.objects.create(user=user, **fields)


class SeekMatched(Exception):
    """Cancelling a seek that a pairing took first."""

    def __init__(self, seek: Seek) -> None:
        self.seek = seek
        super().__init__(gettext("This seek was already paired: your game is {game} (/api/v1/games/{game}); "
                                 "resign or abort it there.").format(game=seek.game_id))


def cancel_seek(user: Any, seek_id: int) -> bool:
    """Cancel ``user``'s open seek: True; False when the user has no open seek of this id. Raises
    :class:`SeekMatched` when a pairing took it (one that held its lock first: the cancel waits, then sees it)."""
    with transaction.atomic():
        seek = Seek.objects.select_for_update().filter(pk=seek_id, user=user).first()
        if seek is None or seek.status == Seek.Status.CANCELLED:
            return False
        if seek.status == Seek.Status.MATCHED:
            raise SeekMatched(seek)
        seek.status = Seek.Status.CANCELLED
        seek.save(update_fields=["status"])
    return True


def quick_pair(user: Any, kind: str, seats: int = 2, days_per_move: int | None = 3, options: dict | None = None,
               rated: bool = False, time_control: dict | None = None,
               bots_welcome: bool = False, watchable: bool = False) -> tuple[Seek, Game | None]:
    """'Play now': the oldest compatible seek, else a quick seek with an AI fallback."""
    fallback = timezone.now() + timedelta(seconds=_setting("SEEK_AI_FALLBACK_SECONDS", 120))
    return create_seek(user, kind=kind, seats=seats, days_per_move=days_per_move, options=options or {},
                       rated=rated, rating_range=None, quick=True, ai_fallback_at=fallback,
                       time_control=time_control, bots_welcome=bots_welcome, watchable=watchable)


def ai_level_for(user: Any, kind: str, seats: int) -> int:
    mine = rating_for(user, kind, seats)["rating"]
    return min(LEVELS, key=lambda lvl: (abs(rating_for(lvl, kind, seats)["rating"] - mine), lvl))


def fallback_to_ai(seek_id: int) -> Game | None:
    with transaction.atomic():
        seek = Seek.objects.select_for_update().select_related("user").filter(pk=seek_id).first()
        if seek is None or seek.status != Seek.Status.OPEN or not seek.quick:
            return None
        level = ai_level_for(seek.user, seek.kind, seek.seats)
        game = create_game(seek.user, seek.kind, seek.options, seek.seats,
                           opponents=[{"type": "ai", "level": level}] * (seek.seats - 1),
                           days_per_move=None if seek.time_control else seek.days_per_move, rated=False, seat=0,
                           time_control=seek.time_control, watchable=seek.watchable)
        seek.status, seek.game, seek.matched_at = Seek.Status.MATCHED, game, timezone.now()
        seek.save(update_fields=["status", "game", "matched_at"])
    return game


class _ByRating:
    """The open seeks of one kind, seats, days per move and rated flag (what :func:`_candidates` filters on),
    sorted by rating: a seek's candidates closest rating first, then the oldest (:func:`find_group`'s order),
    found by bisection and read outwards, so a pairing reads the seeks near its rating, not all of them."""

    def __init__(self, seeks: list[Seek], ctx: _Ctx) -> None:
        self.ctx = ctx
        self._keep(seeks)

    def _keep(self, seeks: list[Seek]) -> None:
        self.rows = sorted(seeks, key=lambda s: (self.ctx.rating(s), s.created_at, s.pk))
        self.keys = [self.ctx.rating(s) for s in self.rows]
        self.gone = 0

    def taken(self, count: int, taken: set[int]) -> None:
        """``count`` more seeks of this bucket are planned (in ``taken``): past an eighth of it, they are dropped,
        so the seeks read around a rating stay mostly open ones."""
        self.gone += count
        if self.gone * 8 > len(self.rows):
            self._keep([s for s in self.rows if s.pk not in taken])

    def nearest(self, seek: Seek, now: datetime, taken: set[int]) -> Iterator[Seek]:
        """The open seeks of other users, not in ``taken``, closest rating to ``seek``'s first, then the oldest;
        it stops past ``seek``'s own window (no seek further away is compatible)."""
        mine, limit = self.ctx.rating(seek), self.ctx.window(seek, now)
        rows, keys = self.rows, self.keys
        lo = bisect.bisect_left(keys, mine)

        def below() -> Iterator[Seek]:  # ratings under ``mine``, nearest first; equal ratings oldest first
            i = lo - 1
            while i >= 0:
                j = i
                while j > 0 and keys[j - 1] == keys[i]:
                    j -= 1
                yield from rows[j:i + 1]
                i = j - 1

        above = (rows[i] for i in range(lo, len(rows)))
        for cand in heapq.merge(below(), above, key=lambda c: (abs(self.ctx.rating(c) - mine), c.created_at, c.pk)):
            if limit is not None and abs(self.ctx.rating(cand) - mine) > limit:
                return
            if cand.pk not in taken and cand.user_id != seek.user_id:
                yield cand


def plan_round(now: datetime | None = None) -> list[list[int]]:
    """The groups of a pairing round (seek ids, each group in :func:`find_group`'s order), found in memory
    without a lock: every open seek read once (with its user), the blocks among their users in one query
    (:func:`blocked_pairs`), their ratings in one query per pool, their running games in one grouped query
    (a cap only for players with ``SEEK_CAP_BASE`` of them). Then each seek, oldest first (their windows have
    widened), looks for a group among the seeks not planned yet, exactly as :func:`try_pair` would; a planned
    game counts for its players' caps. Reads are bounded by the open seeks, never by users' histories."""
    now = now or timezone.now()
    seeks = list(Seek.objects.filter(status=Seek.Status.OPEN).select_related("user").order_by("created_at", "pk"))
    ctx = _Ctx()
    ctx.blocked = blocked_pairs({s.user_id for s in seeks})
    ctx.prefetch_ratings(seeks)
    ctx.prefetch_caps({s.user_id for s in seeks})
    by_key: dict[tuple[str, int, int | None, bool], list[Seek]] = {}
    for s in seeks:  # what _candidates filters on; compatible() compares the rest
        by_key.setdefault((s.kind, s.seats, s.days_per_move, s.rated), []).append(s)
    buckets = {key: _ByRating(rows, ctx) for key, rows in by_key.items()}
    taken: set[int] = set()
    groups: list[list[int]] = []
    for seek in seeks:
        if seek.pk in taken or ctx.at_cap(seek.user):
            continue
        bucket = buckets[(seek.kind, seek.seats, seek.days_per_move, seek.rated)]
        group = find_group(seek, now, ctx, nearest=bucket.nearest(seek, now, taken))
        if group is None:
            continue
        taken.update(g.pk for g in group)
        ctx.count_game([g.user_id for g in group])
        groups.append([g.pk for g in group])
        bucket.taken(len(group), taken)
    return groups


def pair_groups(groups: list[list[int]]) -> int:
    """Make the games of planned groups (:func:`plan_round`), one transaction each (:func:`_make_game`: the
    group's seeks locked, the game made only if all are still open). Returns the games made.

    Safe to run late, twice or in parallel (the Celery chunks of :func:`games.seeks.tasks.pair_all_task`): a
    group is skipped, its other seeks left open for the next round, when one of its seeks is no longer open
    (cancelled, or paired meanwhile: a chunk run again makes no second game), when a player has reached the
    game cap since (running games read again here, in one query for the chunk) or when a block now stands
    between two of its players. Ratings and windows are as planned (the plan is at most one round old)."""
    seeks = {s.pk: s for s in Seek.objects.filter(pk__in=[i for g in groups for i in g], status=Seek.Status.OPEN)
             .select_related("user")}
    ctx = _Ctx()
    ctx.prefetch_caps({s.user_id for s in seeks.values()})
    now = timezone.now()
    made = 0
    for ids in groups:
        group = [seeks[i] for i in ids if i in seeks]
        if len(group) != len(ids) or not group or any(ctx.at_cap(g.user) for g in group):
            continue
        with transaction.atomic():
            game, _gone = _make_game(group, now)
        if game is not None:
            made += 1
            ctx.count_game([g.user_id for g in group])
            log.info("seeks %s paired into game %s", ids, game.pk)
    return made


def fallback_due(planned: set[int] | None = None) -> int:
    """The AI games of the quick seeks whose fallback time has come (:func:`fallback_to_ai`), except those of
    ``planned`` (seek ids of the round's groups, whose games may still be in the queue). Returns how many."""
    now = timezone.now()
    due = Seek.objects.filter(status=Seek.Status.OPEN, quick=True, ai_fallback_at__lte=now).values_list("pk", flat=True)
    return sum(fallback_to_ai(sid) is not None for sid in list(due) if sid not in (planned or set()))


def pair_all() -> int:
    """A whole pairing round in this process: :func:`plan_round`, the games of every group (:func:`pair_groups`),
    then the AI fallbacks (:func:`fallback_due`). Returns the games made. The periodic task shares the games
    out in chunks instead (:func:`games.seeks.tasks.pair_all_task`)."""
    return pair_groups(plan_round()) + fallback_due()
