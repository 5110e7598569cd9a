"""The clock app's transactions: a deadline that passed (loss on time / AI replacement), +time, mutual pause,
and the bank deadline written after every version.

One transaction each with the game row locked, like the game service's own, built from its public
building blocks (``lock_game``, ``bump``, ``apply_result``, ``after_commit``) so that ending a game works
exactly as for a resignation; the deadline arithmetic is the game's (:mod:`games.service.clock`).

Rulings:

* Only human seats time out; an AI seat that must act is the AI task's business.
* 2 seats: the seat to act loses on time (``ended_reason`` and ``result.reason`` = "timeout"); both seats
  to act and both out of time is a draw.
* 3-4 seats: each timed-out seat is handed to the AI (level ``CLOCK_REPLACEMENT_AI_LEVEL``, default 2),
  and the user is recorded as having left (:class:`games.models.SeatDeparture`); the game goes on.
* Vacation first: a booked period or (with auto-use on) days from the balance move the deadline instead
  (no new version; the user gets a notice). Not in a tournament game (``GameClock.tournament``): there the
  seat times out, no pause can be asked for (409 ``tournament_game``), and vacation never shows on its clock.
* Idempotent: :func:`expire_deadline` acts only at the given version, on an active game whose deadline
  is still in the past.
* A vacation booked, cancelled or shortened is a ``vacation`` version (a clock entry, like +time) of each
  active game of the user whose clock shows it differently (:func:`announce_vacation`), so every table
  and bot sees it live; a deadline the deadline task had moved to the end of a period cut short comes back
  to the new end (at least an hour from now).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from games.models import Game, GameClock, GameEvent, Seat, SeatDeparture
from games.service import (
    Conflict,
    after_commit,
    apply_result,
    bump,
    lock_game,
    lock_joined_seat,
    move_time,
    seats_of,
)
from games.service.clock import bonus_of, clock_row, covered_until, end_pause, seat_vacation, seats_to_act, write_bank

from .notices import seat_replaced, vacation_used
from .vacation import extension_for, periods_of

log = logging.getLogger("games.clock")

GIVE_TIME = timedelta(days=1)
#: +time limits (issue 22: 60 taps gave 60 days, docs/rulings.md): what one player may give in one game in
#: all, and the most time for the current move a gift may leave anyone with (the longest days-per-move control).
GIVE_TIME_PER_GAME = timedelta(days=7)
GIVE_TIME_MAX_LEFT = timedelta(days=14)


#: The refusal of a pause request in a tournament game.
TOURNAMENT_NO_PAUSE = gettext_lazy("A tournament game cannot be paused: every game of a tournament runs on its time "
                                   "control, without pauses or vacation.")


def _tournament_clock(game: Game) -> bool:
    """A tournament game: no vacation, no pause (its clock row, joined by ``lock_game``: no query)."""
    clock = clock_row(game)
    return clock is not None and bool(clock.tournament)


def replacement_level() -> int:
    """The AI level that takes over a 3-4 player seat whose time ran out."""
    return int(getattr(settings, "CLOCK_REPLACEMENT_AI_LEVEL", 2))


def sync_bank_deadline(game_id: int, version: int) -> None:
    """After a change committed: write the bank snapshot and deadline (only if the game is still at ``version``)."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.version != version:
            return
        clock = clock_row(game)
        if clock is None or clock.control != clock.Control.BANK:
            return
        deadline = write_bank(game, clock, seats_of(game))
        if deadline != game.deadline:
            game.deadline = deadline
            game.save(update_fields=["deadline"])


def expire_deadline(game_id: int, version: int, now: datetime | None = None) -> str | None:
    """End the turn of the seats whose deadline passed. Returns what happened: "timeout" (2 seats,
    game over), "replaced" (3-4 seats, AI took over), "vacation" (deadline moved) or None (nothing)."""
    now = now or timezone.now()
    notices: list[tuple[int, int, datetime]] = []
    with transaction.atomic():
        game = lock_game(game_id)
        if (game.version != version or game.status != Game.Status.ACTIVE or game.deadline is None
                or game.deadline > now):
            return None
        seats = seats_of(game)
        to_act = seats_to_act(game)
        late = [s for s in seats if s.index in to_act and not s.is_ai and s.user_id is not None]
        if not late:
            return None
        strict = _tournament_clock(game)
        extensions = {s.index: None if strict else extension_for(s.user, game, game.deadline, now) for s in late}
        timed_out = [s for s in late if extensions[s.index] is None]
        if not timed_out:  # every late seat has its extension; each has a user (late)
            deadline = min(until for until in extensions.values() if until is not None)
            game.deadline = deadline
            game.save(update_fields=["deadline"])
            notices = [(s.user_id, game.pk, deadline) for s in late if s.user_id is not None]
            outcome = "vacation"
        elif game.seat_count == 2:
            loser = timed_out[0]
            if len(timed_out) == 2:
                result: dict[str, Any] = {"winner": None, "winners": [], "ranks": [1, 1], "reason": "timeout",
                                          "timeout": [s.index for s in timed_out]}
            else:
                winner = next(s.index for s in seats if s.index != loser.index)
                ranks = [1 if s.index == winner else 2 for s in seats]
                result = {"winner": winner, "winners": [winner], "ranks": ranks, "reason": "timeout",
                          "timeout": loser.index}
            apply_result(game, seats, result, "timeout")
            bump(game, "timeout", loser.index if len(timed_out) == 1 else None,
                 [{"type": "timeout", "seat": s.index} for s in timed_out] + [{"type": "game_over", "result": result}])
            game.save()
            after_commit(game, seats)
            outcome = "timeout"
        else:
            level = replacement_level()
            events = []
            for seat in timed_out:
                SeatDeparture.objects.get_or_create(game=game, seat=seat.index,
                                                    defaults={"user": seat.user, "replaced_by_ai": level,
                                                              "created_at": now})
                seat.user = None
                seat.ai_level = level
                seat.save(update_fields=["user", "ai_level"])
                events.append({"type": "timeout", "seat": seat.index, "replaced_by": "ai", "level": level})
            bump(game, "timeout", None, events)
            game.save()
            _bank_after(game, seats)
            after_commit(game, seats)
            outcome = "replaced"
            gone = [d.user_id for d in SeatDeparture.objects.filter(game=game, seat__in=[s.index for s in timed_out])]
            transaction.on_commit(partial(seat_replaced, gone, game.pk), robust=True)
        log.info("game %s v%s: deadline passed -> %s", game_id, version, outcome)
    if notices:
        for user_id, gid, until in notices:
            transaction.on_commit(partial(vacation_used, user_id, gid, until), robust=True)
    return outcome


#: At most this many active games of one user are told of a vacation change (a player has about 100).
ANNOUNCE_MAX_GAMES = 500
#: The least time a deadline moved by a period cut short gets from now (as the deadline task gives).
VACATION_GRACE = timedelta(hours=1)

Span = tuple[datetime, datetime]


def _span(pair: list[str] | None) -> Span | None:
    return None if not pair else (datetime.fromisoformat(pair[0]), datetime.fromisoformat(pair[1]))


def announce_vacation(user_id: int, old: list[str] | None = None, new: list[str] | None = None) -> int:
    """After the periods of ``user_id`` changed (``old`` → ``new``: the period booked, cancelled or shortened,
    ISO instants): a ``vacation`` version for each of the user's active games whose clock shows it
    differently. Returns how many games got one. The games come from one query on the user's seats of
    unfinished games (index ``seat_user``), active ones only, at most :data:`ANNOUNCE_MAX_GAMES`; each is its
    own short locked transaction."""
    before, after = _span(old), _span(new)
    # The user's seats of unfinished games (``finished_at`` is set when a game finishes), active ones only.
    game_ids = list(Game.objects.filter(seats__user_id=user_id, seats__finished_at__isnull=True,
                                        status=Game.Status.ACTIVE)
                    .order_by("pk").values_list("pk", flat=True)[:ANNOUNCE_MAX_GAMES])
    periods = list(periods_of([user_id]).get(user_id, []))
    earlier = sorted([p for p in periods if p != after] + ([before] if before else []))
    done = 0
    for game_id in game_ids:
        try:
            done += _announce_in(game_id, user_id, earlier, periods, before, after)
        except Exception:
            log.exception("telling game %s of the vacation of user %s failed", game_id, user_id)
    return done


def _announce_in(game_id: int, user_id: int, earlier: list[Span], periods: list[Span], before: Span | None,
                 after: Span | None) -> int:
    now = timezone.now()
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != Game.Status.ACTIVE or _tournament_clock(game):
            return 0
        seats = seats_of(game)
        mine = next((s for s in seats if s.user_id == user_id and not s.is_ai), None)
        if mine is None:
            return 0
        deadline = game.deadline
        running = deadline if (mine.to_act and deadline is not None) else None
        if before is not None and running is not None and running == before[1]:
            # the deadline task had moved this deadline to the end of the period now cut short
            deadline = max(after[1] if after else now, now + VACATION_GRACE)
            running = deadline
        shown = seat_vacation(periods, running, now)
        same = (deadline == game.deadline and shown == seat_vacation(earlier, running, now)
                and (running is None or covered_until(running, periods)[0] == covered_until(running, earlier)[0]))
        if same:
            return 0
        vacation = None if shown is None else {"start": _iso(shown[0]), "end": _iso(shown[1])}
        bump(game, "vacation", mine.index, [{"type": "vacation", "seat": mine.index, "vacation": vacation}])
        game.deadline = deadline  # a clock entry: the deadline stays (bump set a fresh one)
        game.save()
        after_commit(game, seats)
    return 1


def _iso(dt: datetime) -> str:
    return dt.isoformat().replace("+00:00", "Z")


def _bank_after(game: Game, seats: list[Seat]) -> None:
    clock = clock_row(game)
    if clock is not None and clock.control == clock.Control.BANK and game.status == Game.Status.ACTIVE:
        game.deadline = write_bank(game, clock, seats)
        game.save(update_fields=["deadline"])


def _days(td: timedelta) -> str:
    """``timedelta(days=13, hours=5)`` -> "13 days 5 hours" (whole hours, for people)."""
    days, hours = divmod(max(int(td.total_seconds()), 0) // 3600, 24)
    parts = [ngettext("{count} day", "{count} days", days).format(count=days)] if days else []
    if hours or not parts:
        parts.append(ngettext("{count} hour", "{count} hours", hours).format(count=hours))
    return " ".join(parts)


def _given_by(game: Game, seat: int) -> timedelta:
    """The time ``seat`` has given in this game so far (its ``time_given`` history entries)."""
    seconds = 0
    for events in GameEvent.objects.filter(game=game, type="time_given", seat=seat).values_list("events", flat=True):
        seconds += sum(int(e.get("seconds", 0)) for e in events if e.get("type") == "time_given")
    return timedelta(seconds=seconds)


def _longest_left(game: Game, clock: Any, targets: list[int], now: datetime) -> timedelta:
    """The most time any of ``targets`` has left for the current move (after :func:`write_bank` for a bank)."""
    left = game.deadline - now if game.deadline is not None else timedelta(0)
    if clock is not None and clock.control == clock.Control.BANK and clock.turn_started_at is not None:
        bonus = bonus_of(clock, game.seat_count)
        banks = list(clock.banks or []) + [0.0] * game.seat_count
        at = clock.paused_at or now
        for i in targets:
            left = max(left, clock.turn_started_at + timedelta(seconds=banks[i] + bonus[i]) - at)
    return left


def give_time(user: Any, game_id: int) -> Game:
    """An opponent gives the seat(s) to act one more day (one tap). 409 if it is the caller's own turn, or
    beyond the limits: :data:`GIVE_TIME_PER_GAME` per player and game, :data:`GIVE_TIME_MAX_LEFT` left."""
    with transaction.atomic():
        game, seats, mine = lock_joined_seat(user, game_id, active=gettext("Only a game in play has a clock."))
        to_act = seats_to_act(game)
        if mine.index in to_act:
            raise Conflict(gettext("You cannot give yourself more time."), code="own_turn")
        targets = [s.index for s in seats if s.index in to_act and not s.is_ai]
        clock = clock_row(game)
        if not targets or (game.deadline is None and (clock is None or clock.control != clock.Control.BANK)):
            raise Conflict(gettext("Nobody's clock is running."), code="no_clock")
        given = _given_by(game, mine.index)
        if given + GIVE_TIME > GIVE_TIME_PER_GAME:
            raise Conflict(gettext("You have given {time} in this game, the most one player may give.").format(
                time=_days(given)), code="give_time_limit")
        old = game.deadline
        bump(game, "time_given", mine.index, [{"type": "time_given", "by": mine.index, "to": targets,
                                               "seconds": int(GIVE_TIME.total_seconds())}])
        if clock is not None and clock.control == clock.Control.BANK:
            bonus = list(clock.bonus_seconds or []) + [0] * game.seat_count
            bonus = bonus[: game.seat_count]
            for i in targets:
                bonus[i] += int(GIVE_TIME.total_seconds())
            clock.bonus_seconds = bonus
            clock.save(update_fields=["bonus_seconds"])
            game.deadline = write_bank(game, clock, seats, to_act)
        else:
            assert old is not None  # a clock other than a bank runs to the deadline (checked above)
            game.deadline = max(old, timezone.now()) + GIVE_TIME
        left = _longest_left(game, clock, targets, timezone.now())
        if left > GIVE_TIME_MAX_LEFT:  # raised inside the transaction: nothing of this gift is stored
            raise Conflict(gettext("That would leave {time} for this move; a gift may not leave anyone more than "
                                   "{most}.").format(time=_days(left), most=_days(GIVE_TIME_MAX_LEFT)),
                           code="time_left_limit")
        game.save()
        after_commit(game, seats)
    return game


def request_pause(user: Any, game_id: int) -> Game:
    """Ask for a pause; once every human seat has asked, the clock stops (no deadline) until someone
    resumes or moves."""
    with transaction.atomic():
        game, seats, mine = lock_joined_seat(user, game_id, active=gettext("Only a game in play can be paused."))
        if _tournament_clock(game):
            raise Conflict(str(TOURNAMENT_NO_PAUSE), code="tournament_game")
        clock, _ = GameClock.objects.get_or_create(game=game, defaults={
            "control": GameClock.Control.DAYS if game.days_per_move else GameClock.Control.UNLIMITED})
        game.clock = clock  # the answer shows this row (the lock may have cached "no clock")
        if clock.paused_at is not None or mine.index in (clock.pause_requests or []):
            return game  # asked already: no new version (a burst of asks must not make moves stale)
        asked = sorted(set(clock.pause_requests or []) | {mine.index})
        humans = {s.index for s in seats if not s.is_ai and s.user_id is not None}
        old_deadline = game.deadline
        clock.pause_requests = asked
        if humans <= set(asked):
            now = timezone.now()
            bump(game, "paused", mine.index, [{"type": "paused", "seat": mine.index}])
            clock.paused_at = now
            clock.paused_version = game.version
            clock.paused_remaining = (old_deadline - now).total_seconds() if old_deadline else None
            game.deadline = None
        else:
            bump(game, "pause_asked", mine.index, [{"type": "pause_asked", "seat": mine.index}])
            game.deadline = old_deadline
        clock.save()
        game.save()
        after_commit(game, seats)
    return game


def resume(user: Any, game_id: int) -> Game:
    """End a pause (any seated player). The seats to act get back the time they had left."""
    with transaction.atomic():
        game, seats, mine = lock_joined_seat(user, game_id)
        clock = clock_row(game)
        if game.status != Game.Status.ACTIVE or clock is None or clock.paused_at is None:
            raise Conflict(gettext("This game is not paused."), code="not_paused")
        now = timezone.now()
        end_pause(game, clock, seats, now)
        bump(game, "resumed", mine.index, [{"type": "resumed", "seat": mine.index}])
        game.deadline = _deadline_after_pause(game, clock, seats, now)
        game.save()
        after_commit(game, seats)
    return game


def _deadline_after_pause(game: Game, clock: Any, seats: list[Seat], now: datetime) -> datetime | None:
    if clock.control == clock.Control.BANK:
        return write_bank(game, clock, seats)
    remaining = getattr(clock, "_remaining", None)
    if remaining is None:
        return now + move_time(game.days_per_move) if game.days_per_move else None
    return now + timedelta(seconds=max(remaining, 0))


def expired_games(now: datetime | None = None, limit: int = 500) -> list[tuple[int, int]]:
    now = now or timezone.now()
    return list(Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now)
                .order_by("deadline").values_list("pk", "version")[:limit])
