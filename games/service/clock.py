"""A game's clock as part of the game: time controls, deadlines and banks, the clock in the payloads, pauses.

What every transaction of a game needs from its clock (the service's ``create_game`` parses the time
control, a move ends a pause, the payloads show the clock) and the bank arithmetic over the game's
history, deterministic so that repeating it is safe. The clock *app* (:mod:`games.clock`: deadlines
that passed, +time, pause requests, vacation, the beat task, its API) builds on this; this module
imports nothing of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.models import DAYS_PER_MOVE_CHOICES, Game, GameClock, GameEvent, Seat

from ._common import bump, load_state, rules_of
from .errors import InvalidRequest

# History entries of the clock itself: they do not start anyone's turn (a bank keeps running).
CLOCK_EVENT_TYPES = frozenset({"clock", "time_given", "paused", "resumed", "pause_asked", "vacation"})


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


UNLIMITED_RATED = gettext_lazy("Unlimited games are never rated: choose days per move or a bank clock, or an "
                               "unrated game.")


def refuse_unlimited_rated(rated: bool, control: TimeControl) -> None:
    """Unlimited games are never rated: 400 ``unlimited_rated`` (``POST /games``, challenges and seeks alike)."""
    if rated and not control.timed:
        raise InvalidRequest(str(UNLIMITED_RATED), field="rated", code="unlimited_rated")


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
    kind = value.get("type")
    control = CONTROL_NAMES.get(kind) if isinstance(kind, str) else None
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
        if type(days) is not int or days not in DAYS_PER_MOVE:  # 3.0 == 3, True == 1: the JSON integer only
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
    """The game's :class:`~games.models.GameClock` or None; no query when it was loaded with the game
    (``select_related("clock")``: the service's ``lock_game``, the publisher, the read views)."""
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


def seats_to_act(game: Game) -> frozenset[int]:
    """The seats the engine waits for (none while the game is open)."""
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


def bonus_of(clock: Any, count: int) -> list[int]:
    return (list(clock.bonus_seconds or []) + [0] * count)[:count]


def _deadline_of(game: Game, clock: Any, seats: list[Seat], to_act: frozenset[int] | set[int],
                 banks: list[float], start: datetime | None) -> datetime | None:
    if game.status != Game.Status.ACTIVE or clock.paused_at is not None or start is None:
        return None
    bonus = bonus_of(clock, game.seat_count)
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
    return _deadline_of(game, clock, seats, seats_to_act(game) if to_act is None else to_act, banks, start)


def write_bank(game: Game, clock: Any, seats: list[Seat], to_act: frozenset[int] | None = None) -> datetime | None:
    """Rewrite the clock's bank snapshot at the game's version (caller holds the game lock); returns the
    deadline (the caller stores it on the game)."""
    banks, start = _history_banks(game, clock)
    clock.banks, clock.turn_started_at, clock.synced_version = banks, start, game.version
    clock.save(update_fields=["banks", "turn_started_at", "synced_version"])
    if game.status != Game.Status.ACTIVE or clock.paused_at is not None:
        return None
    return _deadline_of(game, clock, seats, seats_to_act(game) if to_act is None else to_act, banks, start)


def turn_start(game: Game) -> datetime | None:
    """When the current turn started: the last history entry that is not the clock's own."""
    return (GameEvent.objects.filter(game=game).exclude(type__in=CLOCK_EVENT_TYPES)
            .order_by("-version").values_list("created_at", flat=True).first())


def banks_now(game: Game, clock: Any, seats: list[Seat]) -> list[float]:
    """Each seat's bank in seconds at the start of the current turn (bonus time included)."""
    banks, _ = _history_banks(game, clock)
    bonus = bonus_of(clock, game.seat_count)
    return [b + bonus[i] for i, b in enumerate(banks)]


# ----------------------------------------------------------------------------------------- vacation on the clock

#: A user's booked vacation periods not yet over, ``(start, end)`` ordered by start.
Periods = Sequence[tuple[datetime, datetime]]
#: Reads the periods of the given users: ``{user id: periods}`` (users without any may be left out).
VacationReader = Callable[[Sequence[int]], Mapping[int, Periods]]
_vacation_reader: VacationReader | None = None


def set_vacation_reader(reader: VacationReader | None) -> None:
    """The clock app (``games.clock.apps``) names how booked vacation is read; without it no seat shows any."""
    global _vacation_reader
    _vacation_reader = reader


def vacations_of(user_ids: Iterable[int]) -> Mapping[int, Periods]:
    ids = sorted(set(user_ids))
    if not ids or _vacation_reader is None:
        return {}
    return _vacation_reader(ids)


def covered_until(deadline: datetime, periods: Periods) -> tuple[datetime, tuple[datetime, datetime] | None]:
    """The deadline that really applies given booked ``periods`` (the rule of the deadline task,
    :func:`games.clock.vacation.extension_for`): a period covering the deadline moves it to the period's end,
    and again while a next period covers that end. Returns it with the first period that covered it (or None)."""
    first = None
    for _ in range(len(periods)):
        period = next(((s, e) for s, e in periods if s <= deadline < e), None)
        if period is None:
            break
        first = first or period
        deadline = period[1]
    return deadline, first


def seat_vacation(periods: Periods, deadline: datetime | None, now: datetime) -> tuple[datetime, datetime] | None:
    """The period a seat's clock shows: the one covering its running deadline, else the current or next one."""
    periods = [p for p in periods if p[1] > now]
    if deadline is not None:
        _, covering = covered_until(deadline, periods)
        if covering is not None:
            return covering
    return periods[0] if periods else None


def _vacation_json(period: tuple[datetime, datetime] | None) -> dict[str, str | None] | None:
    return None if period is None else {"start": _iso(period[0]), "end": _iso(period[1])}


# ----------------------------------------------------------------------------------------- the clock as shown

def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat().replace("+00:00", "Z") if dt is not None else None


def clock_view(game: Game, seats: list[Seat], to_act: frozenset[int] | set[int] | list[int], clock: Any,
               last_event: Any = None, vacations: Mapping[int, Periods] | None = None) -> dict[str, Any]:
    """The live clock of a game as every viewer may see it (``clock`` in the game payloads).

    Instants, not countdowns, so the same version gives the same JSON (a booking, cancelling or shortening
    of vacation makes a new ``vacation`` version of the games it shows in: :mod:`games.clock.service`;
    only a period that has ended drops out): a running seat has a
    ``deadline`` (clients count down to it); a seat whose clock stands still (a bank waiting for its
    turn, a paused clock) has ``left_seconds``. Only human seats have a clock. ``last_event``: the game's
    history entry at its current version if the caller has it (saves the history query of a bank clock
    whose snapshot is one version behind).

    Vacation: each seat has ``vacation`` (``{start, end}`` or null: the period of its user that covers its
    running deadline, else the current or next one), and a running ``deadline`` is the one that really applies
    (a booked period covering it moves it to the period's end: :func:`covered_until`). ``vacations``: the
    periods per user if the caller has them (read otherwise, active games only: :func:`vacations_of`)."""
    tc = time_control_of(game, clock)
    to_act = set(to_act)
    active = game.status == Game.Status.ACTIVE
    paused = clock is not None and clock.paused_at is not None
    rows: list[dict[str, Any]] = [{"index": s.index, "running": False, "deadline": None, "left_seconds": None,
                                   "vacation": None} for s in seats]
    humans = {s.index for s in seats if not s.is_ai and s.user_id is not None}
    acting = humans & to_act if active else set()
    deadline = game.deadline if active else None
    if active and tc.control == "bank":
        banks, start = _bank_state(game, clock, last_event)
        bonus = bonus_of(clock, game.seat_count)
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
                    row["running"], row["deadline"] = True, end
            else:
                row["left_seconds"] = max(int(have), 0)
    elif active and tc.control == "days":
        for row in rows:
            if row["index"] not in acting:
                continue
            if paused:
                left = clock.paused_remaining
                row["left_seconds"] = None if left is None else max(int(left), 0)
            elif game.deadline is not None:
                row["running"], row["deadline"] = True, game.deadline
    if active and tc.timed:
        if clock is None or not clock.tournament:  # a tournament game takes no vacation (games.clock.service)
            _apply_vacations(rows, seats, vacations)
        ends = [row["deadline"] for row in rows if row["running"]]
        deadline = min(ends) if ends else (None if tc.control == "bank" else deadline)
    for row in rows:
        row["deadline"] = _iso(row["deadline"])
    return {
        "deadline": _iso(deadline),
        "paused": paused,
        "paused_at": _iso(clock.paused_at) if paused else None,
        "pause_requests": list(clock.pause_requests or []) if clock is not None else [],
        "seats": rows,
    }


def _apply_vacations(rows: list[dict[str, Any]], seats: list[Seat], vacations: Mapping[int, Periods] | None) -> None:
    """Each human seat's ``vacation``, and a running deadline moved by a booked period (in place)."""
    users = {s.index: s.user_id for s in seats if not s.is_ai and s.user_id is not None}
    if vacations is None:
        vacations = vacations_of(users.values())
    if not vacations:
        return
    now = timezone.now()
    for row in rows:
        periods = [p for p in vacations.get(users.get(row["index"], -1), ()) if p[1] > now]
        if not periods:
            continue
        running = row["deadline"] if row["running"] else None
        row["vacation"] = _vacation_json(seat_vacation(periods, running, now))
        if running is not None:
            row["deadline"] = covered_until(running, periods)[0]


def is_paused(game: Game) -> bool:
    clock = clock_row(game)
    return clock is not None and clock.paused_at is not None


def end_pause_by_move(game: Game, seats: list[Seat], seat: int) -> bool:
    """A move during a pause ends it, inside the move's transaction (caller holds the row lock): the
    pause requests are cleared and a ``resumed`` history entry (``"by": "move"``) comes before the
    move's, so the move's answer already says ``paused: false``. False: the game was not paused."""
    clock = clock_row(game)
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
        for i in seats_to_act(game):
            bonus[i] += paused
        clock.bonus_seconds = bonus
    clock._remaining = clock.paused_remaining
    clock.paused_at = None
    clock.paused_remaining = None
    clock.paused_version = None
    clock.pause_requests = []
    clock.save()


def only_clock_entries_since(game: Game, version: int) -> bool:
    """True when every version of ``game`` after ``version`` is a clock entry (+time, pause; issue 22): the
    play is as it was at ``version``, so a move made against it is still a move of the current position."""
    if not 0 < version < game.version:
        return False
    return not (GameEvent.objects.filter(game=game, version__gt=version)
                .exclude(type__in=CLOCK_EVENT_TYPES).exists())
