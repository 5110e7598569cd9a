"""The Inheritors engine: turn structure (I4), claim windows, end of game (I11), and the
:class:`~games.rules.base.Rules` implementation.

Move vocabulary (every decision is one small JSON dict):

* pre-action window (active seat): ``{"claim_clan": "wolf"}``, ``{"claim_honor": "H3"}``
  (H6/H7 may add ``"cards": [three ids]`` to choose what is revealed), or the action:
  ``{"action": "play", "card": id}`` (A1), ``{"action": "discard_draw", "card": id, "pile": p}``
  (A2), ``{"action": "discard_take", "card": id, "pile": p, "take": q}`` (A3),
  ``{"action": "quest", "card": id, "pile": p}`` (A4, first of three discards; or all at once
  ``{"action": "quest", "cards": [a, b, c], "piles": [p, q, r]}``),
  ``{"action": "advocate", "card": id}`` (A5), or ``{"pass": true}`` with an empty hand (I4.3);
* post-action window: ``{"claim_clan": ...}``, ``{"claim_honor": ...}``, ``{"end_turn": true}``;
* pending decisions: see :mod:`games.rules.inheritors.pending`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import GameInfo, IllegalMove, InvalidOptions, NotYourTurn
from ..moveshape import Shape
from . import actions, clans, honors, pending, scoring, setup, views
from . import record as rec
from .shapes import MOVE_SHAPES
from .state import OVER, POST, PRE, InheritorsState, JSONDict, _deep
from .types import InheritorsEvent, InheritorsMove, InheritorsResult, InheritorsView

Move = InheritorsMove

INFO = GameInfo(kind="inheritors", title="Inheritors", min_seats=2, max_seats=4,
                record_format="inheritors.record/1")


# ------------------------------------------------------------------ turn structure
def to_act(state: InheritorsState) -> frozenset[int]:
    if state.phase == OVER:
        return frozenset()
    if state.pending:
        return pending.acting_seats(state)
    return frozenset((state.current,))


def claim_moves(state: InheritorsState, seat: int) -> list[Move]:
    """I4.2 claims available in a window: at most one clan (I8.2), any honors (I9.2)."""
    moves: list[Move] = []
    if state.clans[seat] is None:
        moves += [{"claim_clan": c} for c in state.clan_row if clans.claim_problem(state, seat, c) is None]
    moves += [{"claim_honor": h} for h in state.honor_row if honors.claim_problem(state, seat, h) is None]
    return moves


def legal_moves(state: InheritorsState, seat: int) -> list[Move]:
    if seat not in to_act(state):
        return []
    if state.pending:
        return pending.frame_moves(state, state.pending[-1], seat)
    moves = claim_moves(state, seat)
    if state.phase == PRE:
        moves += actions.action_moves(state, seat)
    else:
        moves.append({"end_turn": True})
    return moves


def _window_move(state: InheritorsState, seat: int, move: Mapping[str, Any], events: list[InheritorsEvent]) -> None:
    if "claim_clan" in move:
        clan_id = move["claim_clan"]
        problem = clans.claim_problem(state, seat, clan_id) if isinstance(clan_id, str) \
            else f"there is no clan called {clan_id!r}"
        if problem:
            raise IllegalMove(problem)
        clans.claim(state, seat, clan_id, events)
        return
    if "claim_honor" in move:
        hid = move["claim_honor"]
        if not isinstance(hid, str):
            raise IllegalMove(f"there is no honor {hid!r}")
        problem = honors.claim_problem(state, seat, hid)
        if problem:
            raise IllegalMove(problem)
        chosen = move.get("cards")
        try:
            revealed = honors.reveal_cards(state, seat, hid, list(chosen) if chosen is not None else None)
        except (ValueError, TypeError) as exc:
            raise IllegalMove(str(exc)) from exc
        honors.claim(state, seat, hid, revealed, events)
        return
    if state.phase == PRE:
        if "action" in move:
            actions.apply_action(state, seat, move, events)
            state.phase = POST
            return
        if move.get("pass") is True:
            if not actions.can_pass(state, seat):
                raise IllegalMove("you can't pass while you hold cards: choose an action "
                                  "(discarding one card and drawing two is always possible)")
            state.emit(events, {"type": "action", "seat": seat, "action": "pass"})
            state.phase = POST
            return
        if move.get("end_turn") is True:
            raise IllegalMove("you can't end your turn yet: you must take an action first")
        raise IllegalMove("choose an action (play, discard_draw, discard_take, quest, advocate) "
                          "or claim a clan or an honor")
    if move.get("end_turn") is True:
        end_turn(state, events)
        return
    if "action" in move or "pass" in move:
        raise IllegalMove("you have already taken your action this turn: claim a clan or honors, "
                          "or end your turn")
    raise IllegalMove("claim a clan or an honor, or end your turn")


def cleanup(state: InheritorsState, events: list[InheritorsEvent]) -> None:
    """I4.4 [R] (AMB-07): at the end of every turn each player with an empty hand draws 1,
    the active player first, then clockwise."""
    for i in range(state.seats):
        seat = (state.current + i) % state.seats
        if not state.hands[seat] and state.deck:
            state.draw(seat, 1, events, reason="cleanup")


def round_complete(state: InheritorsState) -> bool:
    """I11.2 [R] (AMB-06): after the trigger, the game ends once the seat immediately before the
    start player has finished its turn, including an extra turn it earned (I4.5)."""
    return state.end_triggered and state.current == state.last_seat() and not state.extra_turn


def end_turn(state: InheritorsState, events: list[InheritorsEvent]) -> None:
    """I4.1 steps 4-6: cleanup, end check, extra turn or next seat."""
    cleanup(state, events)
    check_trigger(state, events)
    state.emit(events, {"type": "end_turn", "seat": state.current})
    if round_complete(state):
        state.phase = OVER
        state.pending = []
        state.result = scoring.compute_result(state)
        state.emit(events, {"type": "game_over", "result": state.result})
        return
    if state.extra_turn:  # I7.6 / I4.5
        state.extra_turn = False
        state.emit(events, {"type": "extra_turn", "seat": state.current})
    else:
        state.current = (state.current + 1) % state.seats
    state.turn += 1
    state.phase = PRE
    state.spy_honor = False
    state.emit(events, {"type": "turn", "seat": state.current, "turn": state.turn})


def check_trigger(state: InheritorsState, events: list[InheritorsEvent]) -> None:
    """I11.1 (a) quest and honor rows both empty; (b) the deck became empty (set where cards
    leave the deck, :meth:`InheritorsState.take_from_deck`). I11.3 [R]: never undone."""
    if not state.quest_row and not state.honor_row:
        state.end_triggered = True


def apply(state: InheritorsState, seat: int, move: Mapping[str, Any]) -> tuple[InheritorsState, list[InheritorsEvent]]:
    """``move`` by ``seat`` on a copy of ``state``: the new state and its events (``state`` is unchanged)."""
    new = state.clone()
    return new, play(new, seat, move)


def _check_turn(state: InheritorsState, seat: int, move: object) -> None:
    if state.phase == OVER:
        raise IllegalMove("the game is over")
    if not isinstance(move, Mapping):
        raise IllegalMove("a move must be a JSON object")
    acting = to_act(state)
    if seat not in acting:
        who = ", ".join(f"seat {s}" for s in sorted(acting))
        raise NotYourTurn(f"it is not your turn: waiting for {who}")


def play(state: InheritorsState, seat: int, move: Mapping[str, Any]) -> list[InheritorsEvent]:
    """``move`` by ``seat`` on ``state`` itself; its events. A refused move (:class:`IllegalMove`) may leave
    ``state`` half changed: only a state that is thrown away then (a playout's) is played on directly."""
    _check_turn(state, seat, move)
    events: list[InheritorsEvent] = []
    was_triggered = state.end_triggered
    if state.pending:
        pending.apply_frame_move(state, seat, move, events)
    else:
        _window_move(state, seat, move, events)
    pending.advance(state, events)
    if state.phase != OVER:
        check_trigger(state, events)
        if state.end_triggered and not was_triggered:
            state.emit(events, {"type": "end_triggered", "last_seat": state.last_seat()})
    state.moves.append({"seat": seat, "move": _deep(dict(move))})
    return events


# ------------------------------------------------------------------ the Rules object
class InheritorsRules:
    """:class:`games.rules.base.Rules` for Inheritors (2-4 seats): a
    ``Rules[InheritorsState, InheritorsMove, InheritorsView, InheritorsEvent, InheritorsResult]``."""

    info = INFO
    move_shapes: tuple[Shape, ...] = MOVE_SHAPES

    def normalize_options(self, options: Mapping[str, Any] | None, seats: int) -> JSONDict:
        return setup.normalize_options(options, seats)

    def setup(self, options: Mapping[str, Any] | None, seats: int, seed: int) -> InheritorsState:
        return setup.state_from_setup(setup.make_setup(options, seats, seed))

    def to_act(self, state: InheritorsState) -> frozenset[int]:
        return to_act(state)

    def legal_moves(self, state: InheritorsState, seat: int) -> list[Move]:
        return legal_moves(state, seat)

    def apply(self, state: InheritorsState, seat: int,
              move: Mapping[str, Any]) -> tuple[InheritorsState, list[InheritorsEvent]]:
        return apply(state, seat, move)

    def view(self, state: InheritorsState, seat: int | None) -> InheritorsView:
        return views.view(state, seat, to_act(state))

    def spectator_view(self, state: InheritorsState) -> InheritorsView:
        """The view of someone who is no player (``view(state, None)``, I13 "others see"): hand and quest
        counts, tableaux, market, rows, Removed and the public log; never a hand, an owned quest, the quest
        row, the deck (a Rat's card included) or a Saboteur's choices while the game runs."""
        return views.view(state, None, to_act(state))

    def is_over(self, state: InheritorsState) -> bool:
        return state.phase == OVER

    def result(self, state: InheritorsState) -> InheritorsResult | None:
        result: InheritorsResult | None = _deep(state.result)
        return result

    def record(self, state: InheritorsState) -> JSONDict:
        return rec.make_record(state, INFO.record_format)

    def from_record(self, record: Mapping[str, Any]) -> InheritorsState:
        return rec.replay_record(record, apply)

    def to_json(self, state: InheritorsState) -> JSONDict:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> InheritorsState:
        try:
            return InheritorsState.from_json(dict(data))
        except TypeError as exc:
            raise InvalidOptions(f"not an Inheritors state: {exc}") from exc
