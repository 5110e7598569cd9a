"""Moves: a player's move (versioned, retry-safe), the AI's turn, and replaying the log."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import connections, transaction
from django.utils import timezone

from claim.rowsql import insert_statement
from games import signals
from games.ai import choose_move
from games.models import Game, GameEvent, Move, Seat
from games.rules.base import NotYourTurn, RulesError, replay
from games.rules.moveshape import MalformedMove, check_move
from games.rules.registry import AnyRules, Event

from ._common import (
    advance,
    after_commit,
    derive_seed,
    load_state,
    lock_game,
    log,
    rules_of,
    save_result,
    save_to_act,
    seats_of,
    set_result,
    set_to_act,
)
from .access import lock_joined_seat, require_joined_seat
from .clock import end_pause_by_move, is_paused, only_clock_entries_since
from .errors import Conflict, GameNotFound, IllegalMoveError
from .payload import GameParts, game_view_payload
from .records import store_record

_MALFORMED = "This move is malformed for this game: send one of your legal_moves."


def _move_row(game: Game, seat: int, move: Mapping[str, Any], client_id: str | None, now: Any,
              response: dict[str, Any] | None) -> Move:
    """The (unsaved) log row of the move that brought ``game`` to its current move count and version."""
    return Move(game=game, number=game.move_count, seat=seat, move=dict(move), client_id=client_id,
                version=game.version, created_at=now, response=response)


def _insert_move(game: Game, seat: int, move: Mapping[str, Any], client_id: str | None, now: Any,
                 response: dict[str, Any] | None) -> int | None:
    """INSERT the move row; ``None`` (nothing written) if the seat already used ``client_id`` in this game.

    One statement (``ON CONFLICT DO NOTHING``) instead of a lookup before every move: a repeated
    ``client_id`` is the rare case, handled by the caller.
    """
    row = _move_row(game, seat, move, client_id, now, response)
    conn = connections[Move.objects.db]
    if not client_id or conn.vendor not in ("postgresql", "sqlite"):
        row.save(force_insert=True)
        return row.pk
    with conn.cursor() as cursor:
        cursor.execute(*insert_statement(row, conn))
        found = cursor.fetchone()
    return found[0] if found else None


@dataclass
class CommitPlan:
    """One move, computed in memory (no query): the new snapshot, version, seats' flags, history entry
    and, with ``respond_to``, the mover's answer. :func:`_commit_move` writes it."""

    game: Game
    seats: list[Seat]
    seat: int
    move: Mapping[str, Any]
    client_id: str | None
    now: Any
    entry: GameEvent
    parts: GameParts
    payload: dict[str, Any] | None
    finished: bool
    changed: list[Seat]

    def game_fields(self) -> list[str]:
        fields = ["move_count", "state", "version", "updated_at", "deadline"]
        if self.finished:
            fields += ["status", "result", "ended_reason", "finished_at"]
        return fields


def plan_move(game: Game, seats: list[Seat], rules: AnyRules, seat: int, move: Mapping[str, Any], new_state: Any,
              events: Sequence[Event], client_id: str | None, respond_to: Any = None) -> CommitPlan:
    """Apply the move to ``game`` and ``seats`` in memory: move count, snapshot, result or ``to_act``,
    version, deadline, the history entry, and the answer for ``respond_to`` (caller holds the row lock)."""
    game.move_count += 1
    game.state = rules.to_json(new_state)
    finished = rules.is_over(new_state)
    if finished:
        set_result(game, seats, rules.result(new_state) or {"winner": None}, "normal")
        changed: list[Seat] = []
    else:
        changed = set_to_act(game, seats, rules.to_act(new_state))
    now = advance(game)
    entry = GameEvent(game=game, version=game.version, type="move", seat=seat, events=events, created_at=now)
    # Right after a move, a human has moved unless this was an AI move (then ask the log, as before).
    mover = next(s for s in seats if s.index == seat)
    # A game that ends now has no rematch yet (one is made from a finished game only).
    parts = GameParts(game, seats, rules=rules, state=new_state, last_event=entry,
                      human_moved=True if not mover.is_ai else None, **({"rematch": None} if finished else {}))
    payload = game_view_payload(game, respond_to, parts=parts) if respond_to is not None else None
    return CommitPlan(game, seats, seat, move, client_id, now, entry, parts, payload, finished, changed)


def _commit_move(game: Game, seats: list[Seat], rules: AnyRules, seat: int, move: Mapping[str, Any], new_state: Any,
                 events: Sequence[Event], client_id: str | None, respond_to: Any = None
                 ) -> tuple[int | None, dict[str, Any] | None, GameParts]:
    """Append the move to the log, store the new snapshot, bump the version (caller holds the row lock).

    Everything is computed in memory first (:func:`plan_move`); then four writes: the move row (with
    ``respond_to``'s answer, built once and reused by the publisher), the seats whose ``to_act`` changed
    (one UPDATE), the history entry, the game row; a move that ends the game saves each seat's result and
    stores the game's record instead of the ``to_act`` UPDATE. Returns ``(move id, answer, parts)``; the move
    id is ``None`` when ``client_id`` was already used by this seat (then nothing was written).
    """
    plan = plan_move(game, seats, rules, seat, move, new_state, events, client_id, respond_to)
    move_id = _insert_move(game, seat, move, client_id, plan.now, plan.payload)
    if move_id is None:
        return None, None, plan.parts
    if plan.finished:
        save_result(seats)
        store_record(game, seats)  # the final move is in the log: the record is complete (issue #32)
    else:
        save_to_act(plan.changed)
    plan.entry.move_id = move_id
    plan.entry.save(force_insert=True)
    game.save(update_fields=plan.game_fields())
    return move_id, plan.payload, plan.parts


def checked_apply(game: Game, seats: list[Seat], user: Any, version: int, move: Mapping[str, Any]
                  ) -> tuple[Seat, AnyRules, Any, Sequence[Event]]:
    """The refusals of a move, in the documented order, then the engine's ``apply``.

    Returns ``(the user's seat, rules, new state, events)``. Raises 404 invisible game, 403 not
    seated/joined, 409 ``not_active`` / ``stale_version`` (with the current view) / ``not_your_turn``,
    400 ``illegal_move`` for a move of no shape its game declares (games/rules/moveshape.py, named problem) or
    with the engine's message. No query: ``game`` and ``seats`` are loaded.
    """
    mine = require_joined_seat(game, seats, user)
    if game.status != Game.Status.ACTIVE:
        raise Conflict(f"This game is not in play (status: {game.status}).", code="not_active",
                       payload={"view": game_view_payload(game, user, seats=seats)})
    if version != game.version and not only_clock_entries_since(game, version):
        raise Conflict(f"Your move was made against version {version}, but the game is at version "
                       f"{game.version}: look at the current view and try again.", code="stale_version",
                       payload={"view": game_view_payload(game, user, seats=seats)})
    rules = rules_of(game)
    state = load_state(game, rules)
    try:  # the one check of a client's move against its game's exact shapes, before the engine sees it
        check_move(rules.move_shapes, move)
    except MalformedMove as exc:
        raise IllegalMoveError(f"This move has no shape of this game: {exc}.",
                               payload={"legal_moves": rules.legal_moves(state, mine.index)}) from None
    to_act = rules.to_act(state)
    if mine.index not in to_act:
        waiting = ", ".join(str(i) for i in sorted(to_act))
        raise Conflict(f"It is not your turn: waiting for seat {waiting}.", code="not_your_turn")
    try:
        new_state, events = rules.apply(state, mine.index, move)
    except NotYourTurn as exc:
        raise Conflict(str(exc), code="not_your_turn") from None
    except RulesError as exc:
        raise IllegalMoveError(str(exc), payload={"legal_moves": rules.legal_moves(state, mine.index)}) from None
    except (TypeError, KeyError, AttributeError, IndexError):
        raise IllegalMoveError(_MALFORMED, payload={"legal_moves": rules.legal_moves(state, mine.index)}) from None
    return mine, rules, new_state, events


def make_move(user: Any, game_id: int, version: int, move: Mapping[str, Any],
              client_id: str | None = None) -> tuple[dict[str, Any], bool]:
    """Play ``move`` for the user's seat against ``version``. Returns (payload, applied now).

    A repeated ``client_id`` returns the stored first answer and applies nothing. Errors: those of
    :func:`checked_apply`.
    """
    with transaction.atomic():
        game, seats, mine = lock_joined_seat(user, game_id)

        def prior() -> tuple[dict[str, Any], bool] | None:
            """The first answer to this ``client_id`` (a retry), or None. Checked before any refusal."""
            if not client_id:
                return None
            row = Move.objects.filter(game=game, seat=mine.index, client_id=client_id).only("response").first()
            if row is None:
                return None
            return row.response or game_view_payload(game, user, seats=seats), False

        # A retry of an applied move is made against an older version (or the game ended): look it up
        # first. At the current version a repeated client_id is caught by the insert (ON CONFLICT).
        if client_id and (game.status != Game.Status.ACTIVE or version != game.version):
            answer = prior()
            if answer is not None:
                return answer
        try:
            _, rules, new_state, events = checked_apply(game, seats, user, version, move)
        except (Conflict, IllegalMoveError):
            answer = prior()
            if answer is not None:
                return answer
            raise
        # A move ends a pause in its own transaction (undone with it if the move is not stored).
        savepoint = transaction.savepoint() if is_paused(game) else None
        if savepoint is not None:
            end_pause_by_move(game, seats, mine.index)
        move_id, payload, parts = _commit_move(game, seats, rules, mine.index, move, new_state, events, client_id,
                                               respond_to=user)
        if move_id is None:  # this client_id was used before, at an older version: its first answer
            if savepoint is not None:
                transaction.savepoint_rollback(savepoint)
            game.refresh_from_db()  # nothing was written: drop the in-memory changes
            seats = seats_of(game)
            answer = prior()
            if answer is None:
                raise Conflict("This move could not be stored; fetch the game and try again.", code="conflict")
            return answer
        assert payload is not None  # a stored move's answer to respond_to (the user)
        after_commit(game, seats, views={user.pk: payload}, parts=parts)
        log.info("game %s: seat %s moved (move %s, version %s)", game.pk, mine.index, game.move_count, game.version)
        return payload, True


def play_ai_turn(game_id: int, version: int) -> bool:
    """Play one move for an AI seat that must act at ``version``. Idempotent: a game that moved on is left
    alone. The AI sees only its seat's view and legal moves. Returns True if a move was played."""
    with transaction.atomic():
        try:
            game = lock_game(game_id)
        except GameNotFound:
            return False
        if game.version != version or game.status != Game.Status.ACTIVE:
            return False
        seats = seats_of(game)
        rules = rules_of(game)
        state = load_state(game, rules)
        to_act = rules.to_act(state)
        ai = [s for s in seats if s.is_ai and s.index in to_act]
        if not ai:
            return False
        seat = ai[0]
        level = seat.ai_level
        assert level is not None  # seat.is_ai
        view = rules.view(state, seat.index)
        legal = rules.legal_moves(state, seat.index)
        move = choose_move(game.kind, level, view, legal, derive_seed(game.seed, game.version, seat.index))
        new_state, events = rules.apply(state, seat.index, move)
        _, _, parts = _commit_move(game, seats, rules, seat.index, move, new_state, events, None)
        after_commit(game, seats, parts=parts)
        log.info("game %s: AI seat %s moved (move %s, version %s)", game.pk, seat.index, game.move_count,
                 game.version)
        return True


@dataclass(frozen=True)
class ReplayCheck:
    ok: bool
    moves: int
    message: str


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def replay_log(game_id: int) -> ReplayCheck:
    """Rebuild the state from (kind, options, seats, seed, moves) and compare it with the stored snapshot."""
    game = Game.objects.get(pk=game_id)
    if game.state is None:
        return ReplayCheck(ok=game.move_count == 0, moves=0, message="not started")
    rules = rules_of(game)
    rows = list(Move.objects.filter(game=game).order_by("number").values_list("number", "seat", "move"))
    numbers = [n for n, _, _ in rows]
    if numbers != list(range(1, len(rows) + 1)) or len(rows) != game.move_count:
        return ReplayCheck(ok=False, moves=len(rows), message=f"move log has gaps or duplicates: {numbers}")
    try:
        state = replay(rules, game.options, game.seat_count, game.seed, [(s, m) for _, s, m in rows])
    except RulesError as exc:
        return ReplayCheck(ok=False, moves=len(rows), message=f"replay failed: {exc}")
    same = _canonical(rules.to_json(state)) == _canonical(game.state)
    return ReplayCheck(ok=same, moves=len(rows), message="identical" if same else "snapshot differs from replay")


def replay_step(game: Game, step: int) -> dict[str, Any]:
    """The game after its first ``step`` moves, every seat's view included (only for ended games)."""
    rules = rules_of(game)
    rows = list(Move.objects.filter(game=game).order_by("number").values("number", "seat", "move"))
    state = rules.setup(game.options, game.seat_count, game.seed)
    events: Sequence[Event] = []
    for row in rows[:step]:
        state, events = rules.apply(state, row["seat"], row["move"])
    return {
        "id": game.pk,
        "step": step,
        "steps": len(rows),
        "move": rows[step - 1] if step > 0 else None,
        "events": events,
        "to_act": sorted(rules.to_act(state)),
        "spectator_view": rules.view(state, None),
        "seat_views": [rules.view(state, s) for s in range(game.seat_count)],
    }


def resume_ai_turns(idle_seconds: float = 120.0) -> list[tuple[int, int]]:
    """Send ``ai_turn_due`` again (the AI scheduler enqueues the turn) for the active games where an AI seat
    must act and nothing happened for a while.

    The safety net for the gap between a commit and its ``on_commit`` enqueue (a process dying there
    leaves a game waiting for an AI that was never asked). Harmless when run often: the task is
    idempotent by version. Returns the (game id, version) pairs enqueued. Meant for Celery beat.
    """
    cutoff = timezone.now() - timedelta(seconds=idle_seconds)
    stalled = list(
        Game.objects.filter(status=Game.Status.ACTIVE, updated_at__lt=cutoff,
                            seats__ai_level__isnull=False, seats__to_act=True)
        .values_list("pk", "version").distinct()
    )
    for game_id, version in stalled:
        signals.ai_turn_due.send(sender=Game, game_id=game_id, version=version)
    if stalled:
        log.warning("resumed %d stalled AI turn(s)", len(stalled))
    return stalled
