"""Helpers shared by the service functions: engine access, locking, versioning, commit hooks (signals)."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.utils import timezone

from claim.rowsql import Join, JoinedSelect
from games import signals
from games.models import Game, GameEvent, Move, Seat
from games.rules.registry import AnyRules, get_rules

from .errors import GameNotFound

log = logging.getLogger("games.service")


def rules_of(game: Game) -> AnyRules:
    return get_rules(game.kind)


def load_state(game: Game, rules: AnyRules | None = None) -> Any:
    """The engine state of a started game (``None`` while the game is open)."""
    if game.state is None:
        return None
    return (rules or rules_of(game)).from_json(game.state)


def derive_seed(game_seed: int, version: int, seat: int) -> int:
    """A per-turn AI seed from the secret game seed: deterministic, so a retried task picks the same move."""
    digest = hashlib.sha256(f"claim-ai:{game_seed}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def lock_game(game_id: int) -> Game:
    """The game row, locked until the end of the current transaction (PostgreSQL ``FOR NO KEY UPDATE``: writers
    of the game wait for each other; a row of another table that names the game does not wait).

    Its clock (``games.clock.GameClock``, if any) comes in the same query (joined, not locked: every
    writer of a clock holds this lock), so the game payload shows the clock without a query."""
    found = _LOCKED_GAME.fetch([game_id])
    if not found:
        raise GameNotFound()
    return found[0]


def seats_of(game: Game) -> list[Seat]:
    return _SEATS_WITH_USERS.fetch([game.pk])


# The two SELECTs of every move, compiled once (claim/rowsql.py): the same rows and instances as
# ``Game.objects.select_for_update(no_key=True, of=("self",)).select_related("clock").get(pk=…)`` and
# ``Seat.objects.filter(game=…).select_related("user").order_by("index")``.
_LOCKED_GAME = JoinedSelect(Game, [Join("clock", outer=True)], where="t0.id = %s", for_update_of_base=True)
#: The publisher reads the seats, their users, the game and its clock in one SELECT without a lock, as
#: ``Seat.objects.filter(game=…).select_related("user", "game", "game__clock").order_by("index")``.
SEATS_GAME_CLOCK = JoinedSelect(Seat, [Join("user", outer=True), Join("game"), Join("clock", outer=True, via="game")],
                                where="t0.game_id = %s", order_by='t0."index"')


def game_and_seats(rows_of_seats: list[Seat]) -> tuple[Game | None, list[Seat]]:
    """``(game, seats)`` of :data:`SEATS_GAME_CLOCK`'s instances (``JoinedSelect.build`` gives all seats the
    same game instance)."""
    return (rows_of_seats[0].game if rows_of_seats else None), rows_of_seats
_SEATS_WITH_USERS = JoinedSelect(Seat, [Join("user", outer=True)], where="t0.game_id = %s", order_by='t0."index"')


def seat_of_user(seats: list[Seat], user: Any) -> Seat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for seat in seats:
        if seat.user_id == user.pk:
            return seat
    return None


def move_time(days_per_move: int) -> timedelta:
    """The time a days-per-move seat has for its move (``CLOCK_DAY_SECONDS`` a day: shortened in the
    journey tests only)."""
    return timedelta(seconds=days_per_move * settings.CLOCK_DAY_SECONDS)


def advance(game: Game, now: Any = None) -> Any:
    """Version + 1, timestamps and deadline of one change, in memory only (``bump`` also logs it)."""
    now = now or timezone.now()
    game.version += 1
    game.updated_at = now
    if game.status == Game.Status.ACTIVE and game.days_per_move:
        game.deadline = now + move_time(game.days_per_move)
    else:
        game.deadline = None
    return now


def bump(game: Game, type_: str, seat: int | None, events: list[dict[str, Any]],
         move: Move | None = None) -> GameEvent:
    """One change of the game: version + 1, timestamps, deadline, and its public history entry."""
    now = advance(game)
    return GameEvent.objects.create(game=game, version=game.version, type=type_, seat=seat, events=events,
                                    move=move, created_at=now)


def set_to_act(game: Game, seats: list[Seat], to_act: frozenset[int] | set[int]) -> list[Seat]:
    """Set the engine's ``to_act`` on the seats in memory; returns the seats that changed."""
    changed = []
    for seat in seats:
        want = game.status == Game.Status.ACTIVE and seat.index in to_act
        if seat.to_act != want:
            seat.to_act = want
            changed.append(seat)
    return changed


def save_to_act(changed: list[Seat]) -> None:
    """Store the ``to_act`` of changed seats: one UPDATE whatever their number."""
    ids = [s.pk for s in changed]
    on = [s.pk for s in changed if s.to_act]
    if not ids:
        return
    value: Any = bool(on) if len(on) in (0, len(ids)) else ExpressionWrapper(Q(pk__in=on), output_field=BooleanField())
    Seat.objects.filter(pk__in=ids).update(to_act=value)


def sync_to_act(game: Game, seats: list[Seat], to_act: frozenset[int] | set[int]) -> None:
    """Store the engine's ``to_act`` on the seats (the inbox sorts by it)."""
    save_to_act(set_to_act(game, seats, to_act))


def set_result(game: Game, seats: list[Seat], result: Mapping[str, Any], reason: str) -> None:
    """Finish the game in memory: the result and each seat's outcome, rank and end (``save_result`` saves)."""
    game.status = Game.Status.FINISHED
    game.result = result
    game.ended_reason = reason
    game.finished_at = timezone.now()
    winners = result.get("winners")
    if winners is None:
        winners = [] if result.get("winner") is None else [result["winner"]]
    ranks = result.get("ranks")
    for seat in seats:
        if winners and len(winners) < len(seats):
            seat.outcome = Seat.Outcome.WIN if seat.index in winners else Seat.Outcome.LOSS
        else:
            seat.outcome = Seat.Outcome.DRAW
        if ranks and seat.index < len(ranks):
            seat.rank = ranks[seat.index]
        else:
            seat.rank = 1 if (seat.outcome != Seat.Outcome.LOSS) else 2
        seat.to_act = False
        seat.finished_at = game.finished_at  # the seat_user_finished index: a player's finished games


def save_result(seats: list[Seat]) -> None:
    """Store each seat's outcome, rank and end (``set_result``); ``records.apply_result`` also stores the record."""
    for seat in seats:
        seat.save(update_fields=["outcome", "rank", "to_act", "finished_at"])


def human_has_moved(game: Game, seats: list[Seat]) -> bool:
    """Aborting is possible until a human seat has moved (an AI that leads moves at once; its move doesn't count)."""
    if game.move_count == 0:
        return False
    humans = [s.index for s in seats if not s.is_ai]
    if len(humans) == len(seats):  # no AI seat: every move in the log is a human's
        return True
    return Move.objects.filter(game=game, seat__in=humans).exists()


def ai_seat_to_act(game: Game, seats: list[Seat]) -> bool:
    return game.status == Game.Status.ACTIVE and any(s.is_ai and s.to_act for s in seats)


def after_commit(game: Game, seats: list[Seat], *, views: dict[int, dict[str, Any]] | None = None,
                 parts: Any = None) -> None:
    """Once the current transaction commits, in order: the receivers of ``games.signals.game_committed`` (the
    publisher pushes the new version to the seated users, the background ``game_changed`` follows), then, if
    an AI seat must act, those of ``ai_turn_due`` (the AI scheduler). The service knows its subscribers only
    through these signals (``games.apps`` connects them).

    With ``views`` (``{user_id: payload}`` already built, e.g. the mover's answer) or ``parts`` (the
    :class:`~games.service.payload.GameParts` of this version), ``game`` and ``seats`` must be exactly
    what the transaction committed: the publisher then builds the other views from them (no reload).
    Without, the publisher loads the committed game itself.
    """
    prepared = views or parts
    hooks = signals.commit_hooks(signals.game_committed, game_id=game.pk, version=game.version, status=game.status,
                                 game=game if prepared else None, seats=seats if prepared else None,
                                 views=views, parts=parts)
    if ai_seat_to_act(game, seats):
        hooks += signals.commit_hooks(signals.ai_turn_due, game_id=game.pk, version=game.version)
    for hook, robust in hooks:
        transaction.on_commit(hook, robust=robust)
