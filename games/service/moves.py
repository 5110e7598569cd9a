"""Moves: a player's move (versioned, retry-safe), the AI's turn, and replaying the log."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games.ai import choose_move
from games.models import Game, Move, Seat
from games.rules.base import NotYourTurn, Rules, RulesError, replay

from ._common import (
    after_commit,
    apply_result,
    bump,
    derive_seed,
    load_state,
    lock_game,
    log,
    rules_of,
    seats_of,
    sync_to_act,
)
from .access import require_joined_seat
from .errors import Conflict, GameNotFound, IllegalMoveError
from .payload import game_view_payload

_MALFORMED = "This move is malformed for this game: send one of your legal_moves."


def _commit_move(game: Game, seats: list[Seat], rules: Rules, seat: int, move: Mapping[str, Any], new_state: Any,
                 events: list[dict[str, Any]], client_id: str | None) -> Move:
    """Append the move to the log, store the new snapshot, bump the version (caller holds the row lock)."""
    game.move_count += 1
    row = Move.objects.create(game=game, number=game.move_count, seat=seat, move=dict(move), client_id=client_id,
                              version=game.version + 1)
    game.state = rules.to_json(new_state)
    if rules.is_over(new_state):
        apply_result(game, seats, rules.result(new_state) or {"winner": None}, "normal")
    else:
        sync_to_act(game, seats, rules.to_act(new_state))
    bump(game, "move", seat, events, move=row)
    game.save()
    return row


def make_move(user: Any, game_id: int, version: int, move: Mapping[str, Any],
              client_id: str | None = None) -> tuple[dict[str, Any], bool]:
    """Play ``move`` for the user's seat against ``version``. Returns (payload, applied now).

    A repeated ``client_id`` returns the stored first answer and applies nothing. Errors: 404 invisible
    game, 403 not seated/joined, 409 ``not_active`` / ``stale_version`` (with the current view) /
    ``not_your_turn``, 400 ``illegal_move`` with the engine's message.
    """
    with transaction.atomic():
        game = lock_game(game_id)
        seats = seats_of(game)
        mine = require_joined_seat(game, seats, user)
        if client_id:
            prior = Move.objects.filter(game=game, seat=mine.index, client_id=client_id).first()
            if prior is not None:
                return prior.response or game_view_payload(game, user, seats=seats), False
        if game.status != Game.Status.ACTIVE:
            raise Conflict(f"This game is not in play (status: {game.status}).", code="not_active",
                           payload={"view": game_view_payload(game, user, seats=seats)})
        if version != game.version:
            raise Conflict(f"Your move was made against version {version}, but the game is at version "
                           f"{game.version}: look at the current view and try again.", code="stale_version",
                           payload={"view": game_view_payload(game, user, seats=seats)})
        rules = rules_of(game)
        state = load_state(game, rules)
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
        row = _commit_move(game, seats, rules, mine.index, move, new_state, events, client_id)
        payload = game_view_payload(game, user, seats=seats)
        row.response = payload
        row.save(update_fields=["response"])
        after_commit(game, seats)
        log.info("game %s: seat %s moved (move %s, version %s)", game.pk, mine.index, row.number, game.version)
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
        view = rules.view(state, seat.index)
        legal = rules.legal_moves(state, seat.index)
        move = choose_move(game.kind, seat.ai_level, view, legal, derive_seed(game.seed, game.version, seat.index))
        new_state, events = rules.apply(state, seat.index, move)
        row = _commit_move(game, seats, rules, seat.index, move, new_state, events, None)
        after_commit(game, seats)
        log.info("game %s: AI seat %s moved (move %s, version %s)", game.pk, seat.index, row.number, game.version)
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
    events: list[dict[str, Any]] = []
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
    """Re-enqueue the AI turn of active games where an AI seat must act and nothing happened for a while.

    The safety net for the gap between a commit and its ``on_commit`` enqueue (a process dying there
    leaves a game waiting for an AI that was never asked). Harmless when run often: the task is
    idempotent by version. Returns the (game id, version) pairs enqueued. Meant for Celery beat.
    """
    from datetime import timedelta

    from django.utils import timezone

    from ._common import schedule_ai_turn

    cutoff = timezone.now() - timedelta(seconds=idle_seconds)
    stalled = list(
        Game.objects.filter(status=Game.Status.ACTIVE, updated_at__lt=cutoff,
                            seats__ai_level__isnull=False, seats__to_act=True)
        .values_list("pk", "version").distinct()
    )
    for game_id, version in stalled:
        schedule_ai_turn(game_id, version)
    if stalled:
        log.warning("resumed %d stalled AI turn(s)", len(stalled))
    return stalled
