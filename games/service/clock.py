"""Clock transactions: a deadline that passed (loss on time / AI replacement), +time, mutual pause.

One transaction each with the game row locked, like the rest of :mod:`games.service`, reusing its helpers
(``apply_result``, ``bump``, ``after_commit``) so that ending a game works exactly as for a resignation.

Rulings:

* Only human seats time out; an AI seat that must act is the AI task's business.
* 2 seats: the seat to act loses on time (``ended_reason`` and ``result.reason`` = "timeout"); both seats
  to act and both out of time is a draw.
* 3-4 seats: each timed-out seat is handed to the AI (level ``CLOCK_REPLACEMENT_AI_LEVEL``, default 2),
  and the user is recorded as having left (:class:`games.clock.models.SeatDeparture`); the game goes on.
* Vacation first: a booked period or (with auto-use on) days from the balance move the deadline instead
  (no new version; the user gets a notice).
* Idempotent: :func:`expire_deadline` acts only at the given version, on an active game whose deadline
  is still in the past.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import DAYS_PER_MOVE_CHOICES, Game, Seat

from ._common import after_commit, apply_result, bump, load_state, lock_game, log, move_time, rules_of, seats_of
from .access import require_joined_seat
from .errors import Conflict, InvalidRequest

GIVE_TIME = timedelta(days=1)
#: +time limits (issue 22: 60 taps gave 60 days, docs/rulings.md): what one player may give in one game in
#: all, and the most time for the current move a gift may leave anyone with (the longest days-per-move control).
GIVE_TIME_PER_GAME = timedelta(days=7)
GIVE_TIME_MAX_LEFT = timedelta(days=14)
# History entries of the clock itself: they do not start anyone's turn (a bank keeps running).
CLOCK_EVENT_TYPES = frozenset({"clock", "time_given", "paused", "resumed", "pause_asked"})


def replacement_level() -> int:
    return int(getattr(settings, "CLOCK_REPLACEMENT_AI_LEVEL", 2))


# ----------------------------------------------------------------------------------------- time controls

DAY = 86400
DAYS_PER_MOVE = tuple(d for d, _ in DAYS_PER_MOVE_CHOICES)
BANK_MIN_INITIAL = 3600  # 1 hour
BANK_MAX_SECONDS = 60 * DAY
BANK_MAX_INCREMENT = 14 * DAY
#: ``time_control.type`` names a request may use (the answer says "correspondence" for days per move).
CONTROL_NAMES = {"days": "days", "correspondence": "days", "bank": "bank", "unlimited": "unlimited"}


def _duration(seconds: int) -> str:
    """``86400`` → "1 day", ``7200`` → "2 hours", ``5400`` → "90 minutes"."""
    for unit, size in (("day", DAY), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0 and seconds >= size:
            n = seconds // size
            return f"{n} {unit}" if n == 1 else f"{n} {unit}s"
    return f"{seconds} seconds"


@dataclass(frozen=True)
class TimeControl:
    """A game's time control: ``days`` (``days_per_move``), ``bank`` (initial, increment, cap in seconds)
    or ``unlimited`` (no deadline, never rated)."""

    control: str
    days_per_move: int | None = None
    initial_seconds: int = 0
    increment_seconds: int = 0
    cap_seconds: int = 0

    @property
    def timed(self) -> bool:
        return self.control != "unlimited"

    def describe(self) -> str:
        if self.control == "days":
            return f"{_duration((self.days_per_move or 0) * DAY)} per move"
        if self.control == "bank":
            text = f"{_duration(self.initial_seconds)}"
            if self.increment_seconds:
                text += f" + {_duration(self.increment_seconds)} per move"
            return f"{text} (at most {_duration(self.cap_seconds)})"
        return "Unlimited"

    def payload(self) -> dict[str, Any]:
        """``time_control`` of the game payloads (``type`` "correspondence" = days per move)."""
        bank = self.control == "bank"
        return {
            "type": "correspondence" if self.control == "days" else self.control,
            "days_per_move": self.days_per_move,
            "initial_seconds": self.initial_seconds if bank else None,
            "increment_seconds": self.increment_seconds if bank else None,
            "cap_seconds": self.cap_seconds if bank else None,
            "description": self.describe(),
        }

    def request(self) -> dict[str, Any]:
        """The ``time_control`` a create request needs for the same control (rematch)."""
        if self.control == "bank":
            return {"type": "bank", "initial_seconds": self.initial_seconds,
                    "increment_seconds": self.increment_seconds, "cap_seconds": self.cap_seconds}
        if self.control == "days":
            return {"type": "days", "days_per_move": self.days_per_move}
        return {"type": "unlimited"}


def _seconds(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequest(f"time_control.{name} must be a whole number of seconds.", field="time_control")
    if not low <= value <= high:
        raise InvalidRequest(f"time_control.{name} must be between {low} and {high} seconds "
                             f"({_duration(low) if low else '0'} to {_duration(high)}), got {value}.",
                             field="time_control")
    return value


def parse_time_control(value: Mapping[str, Any] | None, days_per_move: int | None = None) -> TimeControl:
    """Validate a create request's ``time_control`` (or the older ``days_per_move``; null = unlimited).

    ``{"type": "days", "days_per_move": 3}``, ``{"type": "bank", "initial_seconds": 259200,
    "increment_seconds": 86400, "cap_seconds": 604800}`` (cap defaults to the initial time) or
    ``{"type": "unlimited"}``. Raises :class:`InvalidRequest` (field ``time_control``) with a message
    a person can act on.
    """
    if value is None:
        if days_per_move is None:
            return TimeControl("unlimited")
        if days_per_move not in DAYS_PER_MOVE:
            raise InvalidRequest(f"days_per_move must be one of {list(DAYS_PER_MOVE)} or null (unlimited).",
                                 field="days_per_move")
        return TimeControl("days", days_per_move=days_per_move)
    if not isinstance(value, Mapping):
        raise InvalidRequest('time_control must be an object, e.g. {"type": "days", "days_per_move": 3}.',
                             field="time_control")
    control = CONTROL_NAMES.get(value.get("type")) if isinstance(value.get("type"), str) else None
    if control is None:
        raise InvalidRequest('time_control.type must be "days", "bank" or "unlimited".', field="time_control")
    allowed = {"type", "days_per_move"} if control == "days" else (
        {"type", "initial_seconds", "increment_seconds", "cap_seconds"} if control == "bank" else {"type"})
    extra = sorted(set(value) - allowed)
    if extra:
        raise InvalidRequest(f"time_control of type {value['type']!r} does not take {', '.join(extra)}.",
                             field="time_control")
    if control == "days":
        days = value.get("days_per_move")
        if isinstance(days, bool) or days not in DAYS_PER_MOVE:
            raise InvalidRequest(f"time_control.days_per_move must be one of {list(DAYS_PER_MOVE)}.",
                                 field="time_control")
        tc = TimeControl("days", days_per_move=days)
    elif control == "bank":
        if "initial_seconds" not in value:
            raise InvalidRequest("time_control.initial_seconds is required for a bank clock.", field="time_control")
        initial = _seconds(value["initial_seconds"], "initial_seconds", BANK_MIN_INITIAL, BANK_MAX_SECONDS)
        increment = _seconds(value.get("increment_seconds", 0), "increment_seconds", 0, BANK_MAX_INCREMENT)
        cap = value.get("cap_seconds")
        cap = initial if cap is None else _seconds(cap, "cap_seconds", BANK_MIN_INITIAL, BANK_MAX_SECONDS)
        if cap < initial:
            raise InvalidRequest(f"time_control.cap_seconds ({cap}) cannot be below initial_seconds ({initial}).",
                                 field="time_control")
        tc = TimeControl("bank", initial_seconds=initial, increment_seconds=increment, cap_seconds=cap)
    else:
        tc = TimeControl("unlimited")
    if days_per_move is not None and tc.days_per_move != days_per_move:
        raise InvalidRequest("Give the time control once: time_control, or days_per_move (older form), "
                             "not both with different values.", field="days_per_move")
    return tc


def clock_row(game: Game) -> Any:
    """The game's :class:`~games.clock.models.GameClock` or None; no query when it was loaded with the game
    (``select_related("clock")``: the service's ``lock_game``, the publisher, the read views)."""
    from games.clock.models import GameClock

    descriptor = Game.clock
    if descriptor.is_cached(game):
        try:
            return game.clock
        except GameClock.DoesNotExist:
            return None
    clock = GameClock.objects.filter(game=game).first()
    descriptor.related.set_cached_value(game, clock)
    return clock


def time_control_of(game: Game, clock: Any) -> TimeControl:
    if clock is not None and clock.control == clock.Control.BANK:
        return TimeControl("bank", initial_seconds=clock.initial_seconds, increment_seconds=clock.increment_seconds,
                           cap_seconds=clock.cap_seconds or clock.initial_seconds)
    if game.days_per_move:
        return TimeControl("days", days_per_move=game.days_per_move)
    return TimeControl("unlimited")


def _clock_of(game: Game):
    return clock_row(game)


def _to_act(game: Game) -> frozenset[int]:
    state = load_state(game)
    return frozenset() if state is None else frozenset(rules_of(game).to_act(state))


# ----------------------------------------------------------------------------------------- bank arithmetic

def _step(banks: list[float], start: datetime | None, type_: str, seat: int | None, at: datetime,
          clock: Any) -> datetime | None:
    """One history entry applied to the banks (in place); returns when the current turn started.

    Clock entries (pause, +time) start nobody's turn; a move costs its seat the time since the previous
    turn-starting entry, then the increment is added (never above the cap)."""
    if type_ in CLOCK_EVENT_TYPES:
        return start
    if type_ == "move" and seat is not None and start is not None and seat < len(banks):
        banks[seat] = banks[seat] - (at - start).total_seconds() + clock.increment_seconds
        if clock.cap_seconds:
            banks[seat] = min(banks[seat], float(clock.cap_seconds))
    return at


def _history_banks(game: Game, clock: Any) -> tuple[list[float], datetime | None]:
    """Each seat's bank (bonus excluded) at the start of the current turn, from the whole history."""
    from games.models import GameEvent

    banks = [float(clock.initial_seconds)] * game.seat_count
    start = None
    for type_, seat, at in (GameEvent.objects.filter(game=game).order_by("version")
                            .values_list("type", "seat", "created_at")):
        start = _step(banks, start, type_, seat, at, clock)
    return banks, start


def _bank_state(game: Game, clock: Any, last_event: Any = None) -> tuple[list[float], datetime | None]:
    """The banks at the current turn's start: the clock's snapshot, extended in memory by the game's last
    entry when the snapshot is one version behind (right after a move, before the receiver ran); from the
    history otherwise (one query)."""
    banks = [float(b) for b in (clock.banks or [])]
    if len(banks) == game.seat_count:
        if clock.synced_version == game.version:
            return banks, clock.turn_started_at
        if (clock.synced_version + 1 == game.version and last_event is not None
                and last_event.version == game.version):
            start = _step(banks, clock.turn_started_at, last_event.type, last_event.seat, last_event.created_at,
                          clock)
            return banks, start
    return _history_banks(game, clock)


def bank_needs_history(game: Game, clock: Any) -> bool:
    """True when a move's answer would read the bank from the whole history (:func:`_bank_state`: the
    clock's snapshot is not at the game's version yet), a query the asynchronous move path cannot make."""
    if clock is None or clock.control != clock.Control.BANK:
        return False
    return len(clock.banks or []) != game.seat_count or clock.synced_version != game.version


def _bonus(clock: Any, count: int) -> list[int]:
    return (list(clock.bonus_seconds or []) + [0] * count)[:count]


def _deadline_of(game: Game, clock: Any, seats: list[Seat], to_act: frozenset[int] | set[int],
                 banks: list[float], start: datetime | None) -> datetime | None:
    if game.status != Game.Status.ACTIVE or clock.paused_at is not None or start is None:
        return None
    bonus = _bonus(clock, game.seat_count)
    humans = [s.index for s in seats if s.index in to_act and not s.is_ai and s.user_id is not None]
    if not humans:
        return None
    return start + timedelta(seconds=min(banks[i] + bonus[i] for i in humans))


def bank_deadline(game: Game, clock: Any, seats: list[Seat], to_act: frozenset[int] | None = None) -> datetime | None:
    """The deadline of a bank clock, recomputed from the history (deterministic, so safe to repeat):
    the earliest run-out among the human seats to act."""
    if game.status != Game.Status.ACTIVE or clock.paused_at is not None:
        return None
    banks, start = _history_banks(game, clock)
    return _deadline_of(game, clock, seats, _to_act(game) if to_act is None else to_act, banks, start)


def write_bank(game: Game, clock: Any, seats: list[Seat], to_act: frozenset[int] | None = None) -> datetime | None:
    """Rewrite the clock's bank snapshot at the game's version (caller holds the game lock); returns the
    deadline (the caller stores it on the game)."""
    banks, start = _history_banks(game, clock)
    clock.banks, clock.turn_started_at, clock.synced_version = banks, start, game.version
    clock.save(update_fields=["banks", "turn_started_at", "synced_version"])
    if game.status != Game.Status.ACTIVE or clock.paused_at is not None:
        return None
    return _deadline_of(game, clock, seats, _to_act(game) if to_act is None else to_act, banks, start)


def _turn_start(game: Game) -> datetime | None:
    from games.models import GameEvent

    return (GameEvent.objects.filter(game=game).exclude(type__in=CLOCK_EVENT_TYPES)
            .order_by("-version").values_list("created_at", flat=True).first())


def banks_now(game: Game, clock: Any, seats: list[Seat]) -> list[float]:
    """Each seat's bank in seconds at the start of the current turn (bonus time included)."""
    banks, _ = _history_banks(game, clock)
    bonus = _bonus(clock, game.seat_count)
    return [b + bonus[i] for i, b in enumerate(banks)]


def sync_bank_deadline(game_id: int, version: int) -> None:
    """After a change committed: write the bank snapshot and deadline (only if the game is still at ``version``)."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.version != version:
            return
        clock = _clock_of(game)
        if clock is None or clock.control != clock.Control.BANK:
            return
        deadline = write_bank(game, clock, seats_of(game))
        if deadline != game.deadline:
            game.deadline = deadline
            game.save(update_fields=["deadline"])


# ----------------------------------------------------------------------------------------- the clock as shown

def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat().replace("+00:00", "Z") if dt is not None else None


def clock_view(game: Game, seats: list[Seat], to_act: frozenset[int] | set[int] | list[int], clock: Any,
               last_event: Any = None) -> dict[str, Any]:
    """The live clock of a game as every viewer may see it (``clock`` in the game payloads).

    Instants, not countdowns, so the same version always gives the same JSON: a running seat has a
    ``deadline`` (clients count down to it); a seat whose clock stands still (a bank waiting for its
    turn, a paused clock) has ``left_seconds``. Only human seats have a clock. ``last_event``: the game's
    history entry at its current version if the caller has it (saves the history query of a bank clock
    whose snapshot is one version behind)."""
    tc = time_control_of(game, clock)
    to_act = set(to_act)
    active = game.status == Game.Status.ACTIVE
    paused = clock is not None and clock.paused_at is not None
    rows: list[dict[str, Any]] = [{"index": s.index, "running": False, "deadline": None, "left_seconds": None}
                                  for s in seats]
    humans = {s.index for s in seats if not s.is_ai and s.user_id is not None}
    acting = humans & to_act if active else set()
    deadline = game.deadline if active else None
    if active and tc.control == "bank":
        banks, start = _bank_state(game, clock, last_event)
        bonus = _bonus(clock, game.seat_count)
        synced = clock.synced_version == game.version
        floor = game.deadline if synced else None  # vacation may have moved a synced deadline later
        ends = []
        for row in rows:
            i = row["index"]
            if i not in humans or i >= len(banks):
                continue
            have = banks[i] + bonus[i]
            if i in acting and start is not None:
                if paused:
                    row["left_seconds"] = max(int(have - (clock.paused_at - start).total_seconds()), 0)
                else:
                    end = start + timedelta(seconds=have)
                    if floor is not None and floor > end:
                        end = floor
                    row["running"], row["deadline"] = True, _iso(end)
                    ends.append(end)
            else:
                row["left_seconds"] = max(int(have), 0)
        deadline = min(ends) if ends else None
    elif active and tc.control == "days":
        for row in rows:
            if row["index"] not in acting:
                continue
            if paused:
                left = clock.paused_remaining
                row["left_seconds"] = None if left is None else max(int(left), 0)
            elif game.deadline is not None:
                row["running"], row["deadline"] = True, _iso(game.deadline)
    return {
        "deadline": _iso(deadline),
        "paused": paused,
        "paused_at": _iso(clock.paused_at) if paused else None,
        "pause_requests": list(clock.pause_requests or []) if clock is not None else [],
        "seats": rows,
    }


def expire_deadline(game_id: int, version: int, now: datetime | None = None) -> str | None:
    """End the turn of the seats whose deadline passed. Returns what happened: "timeout" (2 seats,
    game over), "replaced" (3-4 seats, AI took over), "vacation" (deadline moved) or None (nothing)."""
    from games.clock.models import SeatDeparture
    from games.clock.vacation import extension_for

    now = now or timezone.now()
    notices: list[tuple[int, int, datetime]] = []
    with transaction.atomic():
        game = lock_game(game_id)
        if (game.version != version or game.status != Game.Status.ACTIVE or game.deadline is None
                or game.deadline > now):
            return None
        seats = seats_of(game)
        to_act = _to_act(game)
        late = [s for s in seats if s.index in to_act and not s.is_ai and s.user_id is not None]
        if not late:
            return None
        extensions = {s.index: extension_for(s.user, game, game.deadline, now) for s in late}
        timed_out = [s for s in late if extensions[s.index] is None]
        if not timed_out:
            game.deadline = min(extensions.values())
            game.save(update_fields=["deadline"])
            notices = [(s.user_id, game.pk, game.deadline) for s in late]
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
            from games.clock.notices import seat_replaced

            gone = [d.user_id for d in SeatDeparture.objects.filter(game=game, seat__in=[s.index for s in timed_out])]
            transaction.on_commit(lambda g=game.pk, u=gone: seat_replaced(u, g), robust=True)
        log.info("game %s v%s: deadline passed -> %s", game_id, version, outcome)
    if notices:
        from games.clock.notices import vacation_used

        for user_id, gid, until in notices:
            transaction.on_commit(lambda u=user_id, g=gid, t=until: vacation_used(u, g, t), robust=True)
    return outcome


def _bank_after(game: Game, seats: list[Seat]) -> None:
    clock = _clock_of(game)
    if clock is not None and clock.control == clock.Control.BANK and game.status == Game.Status.ACTIVE:
        game.deadline = write_bank(game, clock, seats)
        game.save(update_fields=["deadline"])


def _days(td: timedelta) -> str:
    """``timedelta(days=13, hours=5)`` -> "13 days 5 hours" (whole hours, for people)."""
    days, hours = divmod(max(int(td.total_seconds()), 0) // 3600, 24)
    parts = [f"{days} day" + ("s" if days != 1 else "")] if days else []
    if hours or not parts:
        parts.append(f"{hours} hour" + ("s" if hours != 1 else ""))
    return " ".join(parts)


def _given_by(game: Game, seat: int) -> timedelta:
    """The time ``seat`` has given in this game so far (its ``time_given`` history entries)."""
    from games.models import GameEvent

    seconds = 0
    for events in GameEvent.objects.filter(game=game, type="time_given", seat=seat).values_list("events", flat=True):
        seconds += sum(int(e.get("seconds", 0)) for e in events if e.get("type") == "time_given")
    return timedelta(seconds=seconds)


def _longest_left(game: Game, clock: Any, targets: list[int], now: datetime) -> timedelta:
    """The most time any of ``targets`` has left for the current move (after :func:`write_bank` for a bank)."""
    left = game.deadline - now if game.deadline is not None else timedelta(0)
    if clock is not None and clock.control == clock.Control.BANK and clock.turn_started_at is not None:
        bonus = _bonus(clock, game.seat_count)
        banks = list(clock.banks or []) + [0.0] * game.seat_count
        at = clock.paused_at or now
        for i in targets:
            left = max(left, clock.turn_started_at + timedelta(seconds=banks[i] + bonus[i]) - at)
    return left


def only_clock_entries_since(game: Game, version: int) -> bool:
    """True when every version of ``game`` after ``version`` is a clock entry (+time, pause; issue 22): the
    play is as it was at ``version``, so a move made against it is still a move of the current position."""
    from games.models import GameEvent

    if not 0 < version < game.version:
        return False
    return not (GameEvent.objects.filter(game=game, version__gt=version)
                .exclude(type__in=CLOCK_EVENT_TYPES).exists())


def give_time(user: Any, game_id: int) -> Game:
    """An opponent gives the seat(s) to act one more day (one tap). 409 if it is the caller's own turn, or
    beyond the limits: :data:`GIVE_TIME_PER_GAME` per player and game, :data:`GIVE_TIME_MAX_LEFT` left."""
    with transaction.atomic():
        game = lock_game(game_id)
        seats = seats_of(game)
        mine = require_joined_seat(game, seats, user)
        if game.status != Game.Status.ACTIVE:
            raise Conflict("Only a game in play has a clock.", code="not_active")
        to_act = _to_act(game)
        if mine.index in to_act:
            raise Conflict("You cannot give yourself more time.", code="own_turn")
        targets = [s.index for s in seats if s.index in to_act and not s.is_ai]
        clock = _clock_of(game)
        if not targets or (game.deadline is None and (clock is None or clock.control != clock.Control.BANK)):
            raise Conflict("Nobody's clock is running.", code="no_clock")
        given = _given_by(game, mine.index)
        if given + GIVE_TIME > GIVE_TIME_PER_GAME:
            raise Conflict(f"You have given {_days(given)} in this game, the most one player may give.",
                           code="give_time_limit")
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
            game.deadline = max(old, timezone.now()) + GIVE_TIME
        left = _longest_left(game, clock, targets, timezone.now())
        if left > GIVE_TIME_MAX_LEFT:  # raised inside the transaction: nothing of this gift is stored
            raise Conflict(f"That would leave {_days(left)} for this move; a gift may not leave anyone more "
                           f"than {_days(GIVE_TIME_MAX_LEFT)}.", code="time_left_limit")
        game.save()
        after_commit(game, seats)
    return game


def request_pause(user: Any, game_id: int) -> Game:
    """Ask for a pause; once every human seat has asked, the clock stops (no deadline) until someone
    resumes or moves."""
    from games.clock.models import GameClock

    with transaction.atomic():
        game = lock_game(game_id)
        seats = seats_of(game)
        mine = require_joined_seat(game, seats, user)
        if game.status != Game.Status.ACTIVE:
            raise Conflict("Only a game in play can be paused.", code="not_active")
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
        game = lock_game(game_id)
        seats = seats_of(game)
        mine = require_joined_seat(game, seats, user)
        clock = _clock_of(game)
        if game.status != Game.Status.ACTIVE or clock is None or clock.paused_at is None:
            raise Conflict("This game is not paused.", code="not_paused")
        now = timezone.now()
        end_pause(game, clock, seats, now)
        bump(game, "resumed", mine.index, [{"type": "resumed", "seat": mine.index}])
        game.deadline = _deadline_after_pause(game, clock, seats, now)
        game.save()
        after_commit(game, seats)
    return game


def is_paused(game: Game) -> bool:
    clock = _clock_of(game)
    return clock is not None and clock.paused_at is not None


def end_pause_by_move(game: Game, seats: list[Seat], seat: int) -> bool:
    """A move during a pause ends it, inside the move's transaction (caller holds the row lock): the
    pause requests are cleared and a ``resumed`` history entry (``"by": "move"``) comes before the
    move's, so the move's answer already says ``paused: false``. False: the game was not paused."""
    clock = _clock_of(game)
    if clock is None or clock.paused_at is None:
        return False
    end_pause(game, clock, seats, timezone.now())
    bump(game, "resumed", seat, [{"type": "resumed", "seat": seat, "by": "move"}])
    return True


def end_pause(game: Game, clock: Any, seats: list[Seat], now: datetime) -> None:
    """Clear the pause; a bank clock is credited with the paused time for the seats to act."""
    if clock.control == clock.Control.BANK and clock.paused_at is not None:
        paused = int((now - clock.paused_at).total_seconds())
        bonus = (list(clock.bonus_seconds or []) + [0] * game.seat_count)[: game.seat_count]
        for i in _to_act(game):
            bonus[i] += paused
        clock.bonus_seconds = bonus
    clock._remaining = clock.paused_remaining
    clock.paused_at = None
    clock.paused_remaining = None
    clock.paused_version = None
    clock.pause_requests = []
    clock.save()


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
