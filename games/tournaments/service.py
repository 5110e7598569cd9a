"""The tournaments' service (issue 36): create, join, leave, start, follow the games, withdraw, adjudicate.

Plain functions, one transaction each, the tournament row locked (``SELECT ... FOR UPDATE``) whenever entries,
games or rounds change: two games ending at once record their results one after the other, and only the second
sees its round complete and pairs the next one. The rules are the pure core's (:mod:`games.tournaments.core`,
docs/tournaments.md); the games are the game service's (created started and watchable through
``games.service.create_game``, resigned through ``resign``, adjudicated through ``adjudicate``), so every game
of a tournament is published, rated and recorded like any other.

Lock order: the tournament, then its games (the game service's locks). Nothing here holds a game lock and then
asks for the tournament's: the end of a game reaches the tournament after the game's commit
(:mod:`games.tournaments.receivers`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext

from accounts.relations import blocked_among
from games import service as games
from games.clock.reliability import reliability
from games.models import Game, GameEvent, Seat, SeatDeparture
from games.ratings.models import Rating
from games.ratings.service import pool_for, rating_payload
from games.rules.base import RulesError
from games.rules.registry import get_rules
from games.service import Blocked, Conflict, Forbidden, InvalidRequest, ServiceError
from games.service.clock import CLOCK_EVENT_TYPES, TimeControl, parse_time_control

from . import signals as announce
from .core import roundrobin, standings, swiss, tables
from .core.adjudication import adjudicate as adjudicate_places
from .core.standings import TIMEOUTS_OUT
from .models import Bye, Entry, League, Tournament, TournamentGame

log = logging.getLogger("games.tournaments")

#: Sent (``tournament_id``) once the entry that fills a tournament without a start time has committed.
tournament_full = Signal()

Format = Tournament.Format
Status = Tournament.Status

#: Tournaments one user may have open or running at once (operators: no limit).
MAX_NOT_FINISHED = 3
#: The most players each format takes (a round robin of 20 is 190 games at once).
MAX_PLAYERS = {Format.ROUND_ROBIN: 20, Format.SWISS: 256, Format.TABLES: 128}
#: The fewest players each format can start with.
LEAST_PLAYERS = {Format.ROUND_ROBIN: 2, Format.SWISS: 2, Format.TABLES: 3}
MAX_ROUNDS = 20
MIN_GAME_DAYS, MAX_GAME_DAYS, DEFAULT_GAME_DAYS = 7, 365, 30
MAX_RATING = 4000
MAX_RELIABILITY = 100
#: How far ahead a start time may be.
MAX_START_AHEAD = timedelta(days=90)
#: The names of the tie-breaks of each format, in order (the values of ``Standing.tiebreaks``).
TIEBREAKS = {Format.SWISS: ["buchholz", "sonneborn_berger", "wins"],
             Format.ROUND_ROBIN: ["head_to_head", "sonneborn_berger", "wins"],
             Format.TABLES: ["first_places", "opponents_points"]}
#: Games looked at per run of the beat task (adjudication, missed results).
BEAT_BATCH = 200


class TournamentNotFound(ServiceError):
    status = 404
    code = "not_found"

    def __init__(self, message: str | None = None, **kw: Any) -> None:
        super().__init__(gettext("No such tournament.") if message is None else message, **kw)


class EntryRefused(Forbidden):
    """403: the entry conditions keep this user out (bots, rating range)."""

    code = "entry_refused"


class TournamentConflict(Conflict):
    """409: the tournament is not in a state that allows this (started, full, the creator's limit...)."""

    code = "conflict"


# ----------------------------------------------------------------------------------------------- helpers

def _lock(tournament_id: int) -> Tournament:
    found = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if found is None:
        raise TournamentNotFound()
    return found


def get(tournament_id: int) -> Tournament:
    found = Tournament.objects.select_related("created_by").filter(pk=tournament_id).first()
    if found is None:
        raise TournamentNotFound()
    return found


def seat_sizes(fmt: str, kind: str) -> list[int]:
    """The seat counts of the games of a format for a kind (2 for Swiss and round robin; 3 and/or 4 for tables);
    400 when the kind is not played that way."""
    try:
        info = get_rules(kind).info
    except RulesError as exc:
        raise InvalidRequest(str(exc), field="kind") from None
    if fmt == Format.TABLES:
        sizes = [n for n in (3, 4) if info.min_seats <= n <= info.max_seats]
        if not sizes:
            raise InvalidRequest(gettext("{game} is not played by 3 or 4 players: a table tournament needs a kind "
                                         "for 3-4 players (Swiss or round robin are for 2).").format(game=info.title),
                                 field="format")
        return sizes
    if not info.min_seats <= 2 <= info.max_seats:
        raise InvalidRequest(gettext("{game} is not played by 2 players: choose the tables format.").format(
            game=info.title), field="format")
    return [2]


def time_control_of(t: Tournament | League) -> TimeControl:
    """The time control of every game of a tournament or a league (their columns are the same)."""
    if t.control == Tournament.Control.BANK:
        return TimeControl("bank", initial_seconds=t.initial_seconds, increment_seconds=t.increment_seconds,
                           cap_seconds=t.cap_seconds)
    return TimeControl("days", days_per_move=t.days_per_move)


def rating_pool(t: Tournament) -> str:
    """The pool whose ratings the entry range and the seeding read (tables: the largest table's)."""
    return pool_for(t.kind, max(seat_sizes(t.format, t.kind)))


def ratings(pool: str, user_ids: Iterable[int]) -> dict[int, int]:
    """Each user's rating in the pool (the pool's starting rating for those without one): one query."""
    ids = list(user_ids)
    start = int(rating_payload(None, pool)["rating"])
    found = dict(Rating.objects.filter(pool=pool, user_id__in=ids).values_list("user_id", "rating"))
    return {uid: round(found[uid]) if uid in found else start for uid in ids}


def clock_day() -> timedelta:
    return timedelta(seconds=settings.CLOCK_DAY_SECONDS)


# ----------------------------------------------------------------------------------------------- create

def create(user: Any, *, name: str, kind: str, format: str, max_players: int, time_control: Mapping[str, Any] | None,
           options: Mapping[str, Any] | None = None, rounds: int | None = None, rated: bool = True,
           min_players: int | None = None, rating_min: int | None = None, rating_max: int | None = None,
           bots_allowed: bool = False, starts_at: datetime | None = None,
           max_game_days: int = DEFAULT_GAME_DAYS, min_reliability: int = 0) -> Tournament:
    """A new open tournament by ``user`` (who does not enter it by creating it). 400 for terms that cannot be
    played (each names its field); 409 ``too_many_tournaments`` past :data:`MAX_NOT_FINISHED` not finished."""
    name = (name or "").strip()
    if not name:
        raise InvalidRequest(gettext("Give the tournament a name."), field="name")
    if len(name) > 80:
        raise InvalidRequest(gettext("A tournament's name has at most 80 characters."), field="name")
    if format not in Format.values:
        raise InvalidRequest(gettext("format must be one of {values}.").format(values=", ".join(Format.values)),
                             field="format")
    fmt = Format(format)
    sizes = seat_sizes(fmt, kind)
    rules = get_rules(kind)
    for n in sizes:  # the engine checks the options for every table size the tournament can seat
        try:
            rules.normalize_options(dict(options or {}), n)
        except RulesError as exc:
            raise InvalidRequest(str(exc), field="options", code="invalid_options") from None
    if time_control is None:
        raise InvalidRequest(gettext('A tournament needs a time control, e.g. {"type": "days", "days_per_move": 3}.'),
                             field="time_control")
    control = parse_time_control(time_control)
    if not control.timed:
        raise InvalidRequest(gettext("Tournament games need a time control: days per move or a bank clock, not "
                                     "unlimited."), field="time_control")
    low, high = LEAST_PLAYERS[fmt], MAX_PLAYERS[fmt]
    if not low <= max_players <= high:
        raise InvalidRequest(gettext("A tournament of this format takes {low} to {high} players "
                                     "(max_players).").format(low=low, high=high), field="max_players")
    min_players = low if min_players is None else min_players
    if not low <= min_players <= max_players:
        raise InvalidRequest(gettext("min_players must be between {low} and max_players ({most}).").format(
            low=low, most=max_players), field="min_players")
    if fmt == Format.ROUND_ROBIN:
        if rounds is not None:
            raise InvalidRequest(gettext("A round robin plays every pair once: it takes no rounds."), field="rounds")
    else:
        if rounds is None:
            raise InvalidRequest(gettext("How many rounds? A tournament of this format needs rounds (1 to "
                                         "{most}).").format(most=MAX_ROUNDS), field="rounds")
        most = MAX_ROUNDS
        if fmt == Format.SWISS:  # no repeat pairing: n - 1 rounds for an even n, n for an odd one (a bye each)
            most = min(most, max_players - 1 if max_players % 2 == 0 else max_players)
        if not 1 <= rounds <= most:
            raise InvalidRequest(gettext("rounds must be between 1 and {most} for {players} players.").format(
                most=most, players=max_players), field="rounds")
    for field, value in (("rating_min", rating_min), ("rating_max", rating_max)):
        if value is not None and not 0 <= value <= MAX_RATING:
            raise InvalidRequest(gettext("{field} must be between {low} and {high}.").format(
                field=field, low=0, high=MAX_RATING), field=field)
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        raise InvalidRequest(gettext("rating_min ({low}) cannot be above rating_max ({high}).").format(
            low=rating_min, high=rating_max), field="rating_min")
    check_reliability_term(min_reliability)
    now = timezone.now()
    if starts_at is not None and not now < starts_at <= now + MAX_START_AHEAD:
        raise InvalidRequest(gettext("starts_at must be in the future, at most {days} days ahead (or null: the "
                                     "tournament starts when full).").format(days=MAX_START_AHEAD.days),
                             field="starts_at")
    if not MIN_GAME_DAYS <= max_game_days <= MAX_GAME_DAYS:
        raise InvalidRequest(gettext("{field} must be between {low} and {high}.").format(
            field="max_game_days", low=MIN_GAME_DAYS, high=MAX_GAME_DAYS), field="max_game_days")
    if control.control == "days" and (control.days_per_move or 0) * 2 > max_game_days:
        raise InvalidRequest(gettext("With {days} days per move a game needs more than {most} days: raise "
                                     "max_game_days or shorten the time control.").format(
            days=control.days_per_move, most=max_game_days), field="max_game_days")
    with transaction.atomic():
        User = get_user_model()
        User.objects.select_for_update().filter(pk=user.pk).values_list("pk").first()  # one creation at a time
        if not user.is_staff:
            count = Tournament.objects.filter(created_by=user, status__in=[Status.OPEN, Status.RUNNING],
                                              league_division__isnull=True).count()  # a league's divisions: not
            if count >= MAX_NOT_FINISHED:
                raise TournamentConflict(gettext("You have {count} tournaments open or running, the most allowed: "
                                                 "wait until one finishes.").format(count=count),
                                         code="too_many_tournaments")
        return Tournament.objects.create(
            name=name, kind=kind, options=dict(options or {}), format=fmt, rounds=rounds,
            control=control.control, days_per_move=control.days_per_move, initial_seconds=control.initial_seconds,
            increment_seconds=control.increment_seconds, cap_seconds=control.cap_seconds, rated=bool(rated),
            max_players=max_players, min_players=min_players, rating_min=rating_min, rating_max=rating_max,
            bots_allowed=bool(bots_allowed), starts_at=starts_at, max_game_days=max_game_days, created_by=user,
            created_at=now, min_reliability=min_reliability)


# ----------------------------------------------------------------------------------------------- entries

def join(user: Any, tournament_id: int) -> Tournament:
    """Enter an open tournament. 409 ``not_open`` (started or over), ``full`` or ``withdrawn``; 403
    ``bots_not_allowed``, ``rating_out_of_range`` or ``blocked`` (a block between the user and an entrant, either
    way: it names nobody). Entering twice changes nothing. The entry that fills a tournament without a start time
    starts it."""
    with transaction.atomic():
        t = _lock(tournament_id)
        mine = Entry.objects.filter(tournament=t, user=user).first()
        if mine is not None and mine.withdrawn_at is not None:
            raise TournamentConflict(gettext("You are out of this tournament (withdrawn, or two games lost on "
                                             "time): you cannot enter it again."), code="withdrawn")
        if mine is not None:
            return t
        if t.status != Status.OPEN:
            raise TournamentConflict(_closed(t), code="not_open")
        if getattr(user, "is_bot", False) and not t.bots_allowed:
            raise EntryRefused(gettext("This tournament takes no bots."), code="bots_not_allowed")
        if t.rating_min is not None or t.rating_max is not None:
            pool = rating_pool(t)
            rating = ratings(pool, [user.pk])[user.pk]
            if ((t.rating_min is not None and rating < t.rating_min)
                    or (t.rating_max is not None and rating > t.rating_max)):
                message = gettext("Your rating in {pool} is {rating}; this tournament takes players rated {span}.")
                raise EntryRefused(message.format(pool=pool, rating=rating, span=_span(t.rating_min, t.rating_max)),
                                   code="rating_out_of_range")
        refuse_unreliable(user, t.min_reliability, league=False)
        if t.player_count >= t.max_players:
            raise TournamentConflict(gettext("This tournament is full ({count} players).").format(
                count=t.max_players), code="full")
        others = list(Entry.objects.filter(tournament=t).values_list("user_id", flat=True))
        if blocked_among(user.pk, others):
            raise Blocked(gettext("You cannot join this tournament: a block stands between you and one of its "
                                  "players."))
        Entry.objects.create(tournament=t, user=user)
        t.player_count += 1
        t.save(update_fields=["player_count"])
        if t.starts_at is None and t.player_count >= t.max_players:
            transaction.on_commit(partial(_enqueue_start, t.pk), robust=True)
    return t


def check_reliability_term(min_reliability: int) -> None:
    """400 unless ``min_reliability`` is a reliability (0-100)."""
    if isinstance(min_reliability, bool) or not isinstance(min_reliability, int) or not (
            0 <= min_reliability <= MAX_RELIABILITY):
        raise InvalidRequest(gettext("{field} must be between {low} and {high}.").format(
            field="min_reliability", low=0, high=MAX_RELIABILITY), field="min_reliability")


def refuse_unreliable(user: Any, least: int, *, league: bool) -> None:
    """403 ``reliability_too_low`` when ``least`` is set and the user's reliability (games/clock/reliability.py)
    is below it (entering a tournament, or a league); the message says both values."""
    if least:
        mine = reliability(user)
        if mine < least:
            message = (gettext("Your reliability is {mine}; this league takes players with a reliability of at "
                               "least {least}.") if league else
                       gettext("Your reliability is {mine}; this tournament takes players with a reliability of "
                               "at least {least}."))
            raise EntryRefused(message.format(mine=mine, least=least), code="reliability_too_low")


def _span(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return gettext("{low} to {high}").format(low=low, high=high)
    return gettext("{low} or more").format(low=low) if low is not None else gettext("{high} or less").format(high=high)


def _closed(t: Tournament) -> str:
    if t.status == Status.RUNNING:
        return gettext("This tournament has started: entries are closed.")
    if t.status == Status.CANCELLED:
        return gettext("This tournament was cancelled: entries are closed.")
    return gettext("This tournament is over: entries are closed.")


def _enqueue_start(tournament_id: int) -> None:
    """After the commit of the entry that filled it: the start goes to the background (a round robin of 20 is
    190 games), through :data:`tournament_full` (the receivers enqueue ``tournaments.start``)."""
    tournament_full.send(sender=Tournament, tournament_id=tournament_id)


def leave(user: Any, tournament_id: int) -> Tournament:
    """Leave before the start (the entry is gone), or withdraw once it runs: the user is out, their running
    games are resigned and they are not paired again. 409 ``not_entered``; ``not_running`` once it is over.
    Withdrawing twice changes nothing."""
    with transaction.atomic():
        t = _lock(tournament_id)
        entry = Entry.objects.filter(tournament=t, user=user).first()
        if entry is None:
            raise TournamentConflict(gettext("You are not in this tournament."), code="not_entered")
        if t.status == Status.OPEN:
            entry.delete()
            t.player_count -= 1
            t.save(update_fields=["player_count"])
        elif t.status == Status.RUNNING:
            if entry.withdrawn_at is None:
                _withdraw(t, entry)
                announce.standings_changed.send(sender=Tournament, tournament_id=t.pk)
                _advance(t)
                _refresh(t)
        else:
            message = (gettext("This tournament was cancelled: there is nothing to leave.")
                       if t.status == Status.CANCELLED
                       else gettext("This tournament is over: there is nothing to leave."))
            raise TournamentConflict(message, code="not_running")
    return t


def cancel(user: Any, tournament_id: int) -> Tournament:
    """The creator (or an operator) calls off a tournament that has not started. 403 ``not_creator``, 409
    ``not_open``."""
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.created_by_id != user.pk and not user.is_staff:
            raise Forbidden(gettext("Only the player who created this tournament can cancel it."), code="not_creator")
        if t.status != Status.OPEN:
            raise TournamentConflict(gettext("Only a tournament that has not started can be cancelled."),
                                     code="not_open")
        t.status, t.finished_at = Status.CANCELLED, timezone.now()
        t.save(update_fields=["status", "finished_at"])
        announce.cancelled.send(sender=Tournament, tournament_id=t.pk, reason="creator", by=user.pk)
    return t


def _withdraw(t: Tournament, entry: Entry, now: datetime | None = None) -> None:
    """Out (caller holds the tournament's lock): withdrawn now, every running game of theirs resigned through
    the game service and recorded at once (a seat the AI already took plays on; the core forfeits it)."""
    entry.withdrawn_at = now or timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    user = entry.user
    for tg in TournamentGame.objects.filter(tournament=t, finished=False).order_by("round", "board"):
        if entry.user_id not in tg.players:
            continue
        with contextlib.suppress(ServiceError):  # already over, or the seat is the AI's: recorded when it ends
            games.resign(user, tg.game_id)
        _record(t, tg)


# ----------------------------------------------------------------------------------------------- start

def start(tournament_id: int) -> Tournament:
    """Start an open tournament (its start time came, or it is full): seed the entrants by rating, then entry;
    a round robin gets all its games at once, a Swiss or table tournament its first round. Fewer than
    ``min_players`` entrants: cancelled. Entrants whose account is closed are dropped first."""
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status != Status.OPEN:
            return t
        entries = list(Entry.objects.filter(tournament=t).select_related("user").order_by("joined_at", "pk"))
        gone = [e for e in entries if not e.user.is_active]
        if gone:
            Entry.objects.filter(pk__in=[e.pk for e in gone]).delete()
            entries = [e for e in entries if e.user.is_active]
            t.player_count = len(entries)
        now = timezone.now()
        if len(entries) < t.min_players:
            t.status, t.finished_at = Status.CANCELLED, now
            t.save(update_fields=["status", "finished_at", "player_count"])
            announce.cancelled.send(sender=Tournament, tournament_id=t.pk, reason="too_few", by=None)
            log.info("tournament %s cancelled: %d of %d players", t.pk, len(entries), t.min_players)
            return t
        rating = ratings(rating_pool(t), [e.user_id for e in entries])
        entries.sort(key=lambda e: (-rating[e.user_id], e.joined_at, e.pk))
        for i, e in enumerate(entries):
            e.seed, e.rating = i, min(max(rating[e.user_id], 0), 32767)
        Entry.objects.bulk_update(entries, ["seed", "rating"])
        t.status, t.started_at = Status.RUNNING, now
        announce.started.send(sender=Tournament, tournament_id=t.pk)
        n = len(entries)
        if t.format == Format.ROUND_ROBIN:
            schedule = roundrobin.rounds([e.user_id for e in entries])
            for number, boards in enumerate(schedule, start=1):
                _create_games(t, number, boards, entries)
            t.rounds = t.current_round = len(schedule)
        else:
            if t.format == Format.SWISS:
                t.rounds = min(t.rounds or 1, n - 1 if n % 2 == 0 else n)
            _pair_next(t)
        t.save()
        _refresh(t)
    return t


def _create_games(t: Tournament, number: int, boards: Sequence[Sequence[int]], entries: Sequence[Entry]) -> None:
    """The games of one round, through the game service: started (every seat joined), watchable, the
    tournament's time control and rated flag, the clock marked as a tournament's (no vacation or pause)."""
    users = {e.user_id: e.user for e in entries}
    control = time_control_of(t).request()
    ends_by = timezone.now() + t.max_game_days * clock_day()
    made: list[tuple[int, list[int]]] = []
    for board, players in enumerate(boards, start=1):
        first = users[players[0]]
        game = games.create_game(first, t.kind, t.options, len(players),
                                 opponents=[{"type": "user", "user": users[p]} for p in players[1:]],
                                 rated=t.rated, seat=0, time_control=control, seated=True, watchable=True,
                                 tournament=True)
        TournamentGame.objects.create(tournament=t, round=number, board=board, game=game, players=list(players),
                                      ends_by=ends_by)
        made.append((game.pk, list(players)))
    announce.games_created.send(sender=Tournament, tournament_id=t.pk, round=number, games=made)


def _pair_next(t: Tournament) -> bool:
    """Pair round ``current_round + 1`` of a Swiss or table tournament from the standings (caller holds the
    lock); False when too few players are left to play it (the tournament then finishes)."""
    entries = list(Entry.objects.filter(tournament=t).select_related("user").order_by("seed", "pk"))
    now = timezone.now()
    for e in entries:  # a closed account plays no more
        if e.withdrawn_at is None and not e.user.is_active:
            _withdraw(t, e, now)
    order = [e.user_id for e in entries]
    out = {e.user_id for e in entries if e.withdrawn_at is not None}
    tgames = list(TournamentGame.objects.filter(tournament=t).order_by("round", "board"))
    byes = list(Bye.objects.filter(tournament=t).order_by("round", "user_id").values_list("user_id", flat=True))
    score = {s.player: s.score for s in _standings(t, order, tgames, byes, out)}
    active = [p for p in order if p not in out]
    number = t.current_round + 1
    if t.format == Format.SWISS:
        if len(active) < 2:
            return False
        played = [(g.players[0], g.players[1]) for g in tgames]
        paired = swiss.pair_round([swiss.Entry(p, score.get(p, 0.0)) for p in order], played, byes, out)
        if not paired.pairs:
            return False
        if paired.repeats or paired.seat_limit_dropped:
            log.info("tournament %s round %s: %s repeat(s), seat limit dropped: %s", t.pk, number, paired.repeats,
                     paired.seat_limit_dropped)
        boards: list[tuple[int, ...]] = [tuple(p) for p in paired.pairs]
        round_byes = [paired.bye] if paired.bye is not None else []
    else:
        sizes = seat_sizes(t.format, t.kind)
        if len(active) < min(sizes):
            return False
        past = [tables.TableGame(g.round, tuple(g.players)) for g in tgames]
        seated = tables.seat_round([(p, score.get(p, 0.0)) for p in order], past, byes, out, sizes)
        if not seated.tables:
            return False
        boards, round_byes = list(seated.tables), list(seated.byes)
    announce.round_paired.send(sender=Tournament, tournament_id=t.pk, round=number, byes=list(round_byes))
    _create_games(t, number, boards, entries)
    Bye.objects.bulk_create([Bye(tournament=t, round=number, user_id=p) for p in round_byes])
    t.current_round = number
    t.save(update_fields=["current_round", "rounds", "status", "started_at", "player_count"])
    return True


# ----------------------------------------------------------------------------------------------- results

def record_game(game_id: int) -> bool:
    """A game ended: if it is a tournament's, copy its result (once), count a loss on time (the second puts the
    player out), and when it was the last game of its round pair the next round or finish the tournament. True
    if this call recorded it. Safe to repeat, in any order."""
    row = TournamentGame.objects.filter(game_id=game_id).values_list("pk", "tournament_id").first()
    if row is None:
        return False
    with transaction.atomic():
        t = _lock(row[1])
        tg = TournamentGame.objects.get(pk=row[0])
        if tg.finished or not _record(t, tg):
            return False
        announce.standings_changed.send(sender=Tournament, tournament_id=t.pk)
        _advance(t)
        _refresh(t)
    return True


def _record(t: Tournament, tg: TournamentGame) -> bool:
    """Copy an ended game's places and losses on time onto ``tg`` (caller holds the tournament's lock); the
    players who lost their second game on time withdraw. False if the game has not ended."""
    if tg.finished:
        return False
    game = Game.objects.get(pk=tg.game_id)
    if not game.is_over:
        return False
    seats = list(Seat.objects.filter(game=game).order_by("index"))
    n = len(tg.players)
    # An aborted game (never by its players: refused; an operator's) has no winner.
    places = [1] * n if game.status == Game.Status.ABORTED else [s.rank or 1 for s in seats][:n]
    late: list[int] = []
    if game.ended_reason == "timeout" and isinstance(game.result, dict):
        named = game.result.get("timeout")
        late = [named] if isinstance(named, int) else [i for i in (named or []) if isinstance(i, int)]
    if n > 2:  # 3-4 seats: the AI took over a late seat and played on; that player takes the last place
        late = sorted(set(late) | set(SeatDeparture.objects.filter(game=game, reason="timeout")
                                      .values_list("seat", flat=True)))
        if late and len(late) < n:
            last = max(places[i] for i in range(n) if i not in late) + 1
            places = [last if i in late else places[i] for i in range(n)]
    tg.finished, tg.places = True, places
    tg.timed_out = [tg.players[i] for i in late if 0 <= i < n]
    tg.adjudicated = game.ended_reason == "adjudicated"
    tg.save(update_fields=["finished", "places", "timed_out", "adjudicated"])
    for uid in tg.timed_out:
        entry = Entry.objects.select_related("user").get(tournament=t, user_id=uid)
        entry.timeouts += 1
        entry.save(update_fields=["timeouts"])
        if entry.timeouts >= TIMEOUTS_OUT and entry.withdrawn_at is None and t.status == Status.RUNNING:
            _withdraw(t, entry)
    return True


def _advance(t: Tournament) -> None:
    """The round complete (caller holds the lock): pair the next one, or finish."""
    if t.status != Status.RUNNING:
        return
    pending = TournamentGame.objects.filter(tournament=t, finished=False)
    if t.format != Format.ROUND_ROBIN:
        pending = pending.filter(round=t.current_round)
    if pending.exists():
        return
    if t.format != Format.ROUND_ROBIN and t.current_round < (t.rounds or 0) and _pair_next(t):
        return
    t.status, t.finished_at = Status.FINISHED, timezone.now()
    t.save(update_fields=["status", "finished_at"])
    announce.finished.send(sender=Tournament, tournament_id=t.pk)
    log.info("tournament %s finished after round %s", t.pk, t.current_round)


# ----------------------------------------------------------------------------------------------- standings

def _result(places: Sequence[int] | None) -> standings.Result | None:
    if places is None:
        return None
    if places[0] == places[1]:
        return "draw"
    return "first" if places[0] < places[1] else "second"


def _standings(t: Tournament, order: Sequence[int], tgames: Sequence[TournamentGame], byes: Sequence[int],
               out: set[int]) -> list[standings.Standing]:
    if t.format == Format.TABLES:
        tabled = [tables.TableGame(g.round, tuple(g.players), tuple(g.places) if g.finished and g.places else None,
                                   g.timed_out[0] if g.timed_out else None) for g in tgames]
        return standings.tables(order, tabled, byes, out)
    played = [standings.Game(g.round, g.players[0], g.players[1], _result(g.places) if g.finished else None,
                             g.timed_out[0] if len(g.timed_out) == 1 else None) for g in tgames]
    if t.format == Format.SWISS:
        return standings.swiss(order, played, byes, out)
    return standings.round_robin(order, played, out)


def _refresh(t: Tournament) -> None:
    """Recompute the cached standings and crosstable from the tournament's rows (caller holds the lock)."""
    entries = list(Entry.objects.filter(tournament=t).order_by("seed", "pk").values_list("user_id", "withdrawn_at"))
    order = [uid for uid, _ in entries]
    out = {uid for uid, at in entries if at is not None}
    tgames = list(TournamentGame.objects.filter(tournament=t).order_by("round", "board"))
    byes = list(Bye.objects.filter(tournament=t).order_by("round", "user_id").values_list("user_id", flat=True))
    rows = _standings(t, order, tgames, byes, out)
    t.standings = [{"rank": s.rank, "user_id": s.player, "score": s.score, "tiebreaks": list(s.tiebreaks),
                    "games": s.games, "wins": s.wins, "out": s.out} for s in rows]
    if t.format == Format.TABLES:
        t.crosstable = []
    else:
        played = [standings.Game(g.round, g.players[0], g.players[1], _result(g.places) if g.finished else None)
                  for g in tgames]
        cross = standings.crosstable(played, out)
        t.crosstable = [{"user_id": a, "opponent_id": b, "points": pts} for (a, b), pts in sorted(cross.items())]
    t.save(update_fields=["standings", "crosstable"])


# ----------------------------------------------------------------------------------------------- the beat

def seconds_used(game: Game, now: datetime | None = None) -> list[float]:
    """The thinking time each seat has used, from the game's history (one query over one game): a move costs
    its seat the time since the previous turn-starting entry (clock entries start no turn); the seats to act
    now are charged the time since."""
    now = now or timezone.now()
    used = [0.0] * game.seat_count
    start: datetime | None = None
    for type_, seat, at in (GameEvent.objects.filter(game=game).order_by("version")
                            .values_list("type", "seat", "created_at")):
        if type_ in CLOCK_EVENT_TYPES:
            continue
        if type_ == "move" and seat is not None and start is not None and 0 <= seat < len(used):
            used[seat] += max((at - start).total_seconds(), 0.0)
        start = at
    if start is not None:
        for index in Seat.objects.filter(game=game, to_act=True).values_list("index", flat=True):
            if 0 <= index < len(used):
                used[index] += max((now - start).total_seconds(), 0.0)
    return used


def adjudicate_game(game_id: int, now: datetime | None = None) -> bool:
    """A tournament game past its tournament's maximum duration: the clocks decide (the seat that used clearly
    the most time loses), else a draw, through the game service; the result is recorded at once."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return False
    ended = False
    if game.status == Game.Status.ACTIVE:
        places = adjudicate_places(seconds_used(game, now), margin=clock_day().total_seconds())
        ended = games.adjudicate(game_id, places) is not None
    return record_game(game_id) or ended


def start_due(now: datetime | None = None) -> int:
    """Start the open tournaments whose start time has passed (or that are full without one)."""
    now = now or timezone.now()
    due = list(Tournament.objects.filter(status=Status.OPEN, starts_at__lte=now).order_by("starts_at")
               .values_list("pk", flat=True)[:50])
    due += list(Tournament.objects.filter(status=Status.OPEN, starts_at__isnull=True,
                                          player_count__gte=F("max_players")).values_list("pk", flat=True)[:50])
    for pk in due:
        try:
            start(pk)
        except Exception:
            log.exception("starting tournament %s failed", pk)
    return len(due)


def adjudicate_due(now: datetime | None = None) -> int:
    """Adjudicate the tournament games still running past their ``ends_by``; record the games that ended
    without their result reaching the tournament (a lost task). Returns how many games were settled."""
    now = now or timezone.now()
    done = 0
    for game_id in (TournamentGame.objects.filter(finished=False, ends_by__lte=now).order_by("ends_by")
                    .values_list("game_id", flat=True)[:BEAT_BATCH]):
        try:
            done += adjudicate_game(game_id, now)
        except Exception:
            log.exception("adjudicating game %s failed", game_id)
    for game_id in (TournamentGame.objects.filter(finished=False, game__status__in=[Game.Status.FINISHED,
                                                                                      Game.Status.ABORTED])
                    .values_list("game_id", flat=True)[:BEAT_BATCH]):
        try:
            done += record_game(game_id)
        except Exception:
            log.exception("recording game %s failed", game_id)
    return done


# ----------------------------------------------------------------------------------------------- accounts

def on_account_deleting(user: Any) -> None:
    """An account being deleted leaves the tournaments not started and withdraws from the running ones."""
    ids = list(Entry.objects.filter(user=user, tournament__status__in=[Status.OPEN, Status.RUNNING],
                                    withdrawn_at__isnull=True).values_list("tournament_id", flat=True)[:100])
    for tid in ids:
        with contextlib.suppress(ServiceError):
            leave(user, tid)
