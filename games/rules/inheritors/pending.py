"""Pending decisions: the frames that multi-step actions and effects push on ``state.pending``.

Frame kinds, the seat(s) that decide and the move that answers them:

=================== ======================== ===================================================
kind                who                      move
=================== ======================== ===================================================
``wolf``            active seat              ``{"play": card}`` or ``{"skip": true}``
``quest_discard``   active seat              ``{"discard": card, "pile": p}`` (2nd and 3rd card)
``skip_play``       active seat              ``{"skip_play": card}`` (Conspirator, Ambassador)
``spy``             active seat              ``{"ask": seat, "colour": c}``
``advisor``         active seat              ``{"take_card": card}`` (twice)
``saboteur_discard`` every other seat with   ``{"discard": card, "pile": p}`` (twice each)
                    cards, simultaneously
``take_pile``       active / claiming seat   ``{"take_pile": p}`` (Saboteur, Lynx)
``agent``           active seat              ``{"agent_effect": "conspirator"|"spy"|"advisor"}``
``rat``             active seat              ``{"put_back": card}``
``after_advocate``  (automatic)              -
=================== ======================== ===================================================

A frame without any possible answer is resolved automatically (:func:`advance`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import IllegalMove
from . import actions, advocates, tableau
from . import cards as C
from .actions import PILES, _card_in_hand, _pile
from .clans import rat_put_back
from .state import InheritorsState, JSONDict
from .types import InheritorsEvent, InheritorsMove

Move = InheritorsMove

EXPECTED = {
    "wolf": 'Wolf: play a second influence card {"play": card} or {"skip": true}',
    "quest_discard": 'discard the next quest card: {"discard": card, "pile": 0-2}',
    "skip_play": 'place a card with a skip-play: {"skip_play": card}',
    "spy": 'Spy: name a player and a colour: {"ask": seat, "colour": colour}',
    "advisor": 'Advisor: take a market card: {"take_card": card}',
    "saboteur_discard": 'Saboteur: discard a card to the market: {"discard": card, "pile": 0-2}',
    "take_pile": 'take a whole market pile: {"take_pile": 0-2}',
    "agent": 'Agent: choose an effect: {"agent_effect": "conspirator"|"spy"|"advisor"}',
    "rat": 'Rat: put a card from your hand on top of the deck: {"put_back": card}',
}


def acting_seats(state: InheritorsState) -> frozenset[int]:
    frame = state.pending[-1]
    if frame["kind"] == "saboteur_discard":
        return frozenset(int(s) for s, n in frame["need"].items() if len(frame["chosen"][s]) < n)
    return frozenset((int(frame["seat"]),))


def frame_moves(state: InheritorsState, frame: JSONDict, seat: int) -> list[Move]:
    kind = frame["kind"]
    owner = int(frame["seat"])
    if kind == "wolf":
        moves: list[Move] = [{"play": cid} for cid in tableau.playable(state, owner)]
        return [*moves, {"skip": True}]
    if kind == "quest_discard":
        return [{"discard": cid, "pile": p} for cid in state.hands[owner]
                if actions.quest_card_ok(state, owner, frame["chosen"], cid) for p in PILES]
    if kind == "skip_play":
        return [{"skip_play": cid} for cid in advocates.skip_play_options(state, owner, frame["condition"])]
    if kind == "spy":
        return [{"ask": q, "colour": c} for q, c in advocates.spy_requests(state, owner)]
    if kind == "advisor":
        return [{"take_card": cid} for cid in advocates.market_cards(state)]
    if kind == "saboteur_discard":
        key = str(seat)
        if key not in frame["need"] or len(frame["chosen"][key]) >= frame["need"][key]:
            return []
        chosen = {cid for cid, _ in frame["chosen"][key]}
        return [{"discard": cid, "pile": p} for cid in state.hands[seat] if cid not in chosen for p in PILES]
    if kind == "take_pile":
        return [{"take_pile": p} for p in PILES if state.market[p]]
    if kind == "agent":
        return [{"agent_effect": t} for t in advocates.BASIC_TYPES]
    if kind == "rat":
        return [{"put_back": cid} for cid in state.hands[owner]]
    return []


def apply_frame_move(state: InheritorsState, seat: int, move: Mapping[str, Any], events: list[InheritorsEvent]) -> None:
    frame = state.pending[-1]
    kind = frame["kind"]
    expected = EXPECTED.get(kind, kind)
    try:
        _dispatch(state, frame, seat, move, events)
    except _Missing as exc:
        raise IllegalMove(f"waiting for a decision: {expected}") from exc


class _Missing(Exception):
    """The move lacks the key the pending decision needs."""


def _need(move: Mapping[str, Any], key: str) -> Any:
    if key not in move:
        raise _Missing(key)
    return move[key]


def _dispatch(state: InheritorsState, frame: JSONDict, seat: int, move: Mapping[str, Any],
              events: list[InheritorsEvent]) -> None:
    kind = frame["kind"]
    owner = int(frame["seat"])
    if kind == "wolf":
        if move.get("skip") is True:
            state.pending.pop()
            return
        cid = _card_in_hand(state, owner, _need(move, "play"))
        problem = tableau.next_value_problem(state, owner, cid)
        if problem:
            raise IllegalMove(problem)
        state.pending.pop()
        tableau.place(state, owner, cid, events, how="wolf")
    elif kind == "quest_discard":
        _need(move, "discard")
        actions.quest_discard(state, owner, frame, move, events)
    elif kind == "skip_play":
        cid = _card_in_hand(state, owner, _need(move, "skip_play"))
        if cid not in advocates.skip_play_options(state, owner, frame["condition"]):
            raise IllegalMove(_skip_play_problem(state, owner, cid, frame["condition"]))
        state.pending.pop()
        advocates.do_skip_play(state, owner, cid, events)
    elif kind == "spy":
        target, colour = _need(move, "ask"), _need(move, "colour")
        if (target, colour) not in advocates.spy_requests(state, owner):
            if not isinstance(target, int) or target == owner or not 0 <= target < state.seats:
                raise IllegalMove(f"you can't ask seat {target!r}: name another player")
            if colour not in state.colours:
                raise IllegalMove(f"you can't ask for {colour!r}: it is not a colour in this game")
            raise IllegalMove(f"you can't ask for {tableau.state_colour(colour)}: your stack is complete")
        state.pending.pop()
        advocates.spy_resolve(state, owner, target, colour, events)
    elif kind == "advisor":
        cid = _need(move, "take_card")
        if cid not in advocates.market_cards(state):
            raise IllegalMove(f"you can't take {cid!r}: it is not in the market")
        advocates.advisor_take(state, owner, frame, cid, events)
        if frame["left"] <= 0 or not advocates.market_cards(state):
            state.pending.pop()
            state.refill_all(frame["emptied"], events)
    elif kind == "saboteur_discard":
        key = str(seat)
        cid = _card_in_hand(state, seat, _need(move, "discard"))
        pile = _pile(move.get("pile"))
        if any(c == cid for c, _ in frame["chosen"][key]):
            raise IllegalMove(f"you already chose {C.display(cid)} for the Saboteur")
        frame["chosen"][key].append([cid, pile])
        state.emit(events, {"type": "saboteur_choice", "seat": seat})  # card and pile stay secret
        if not acting_seats(state):
            state.pending.pop()
            advocates.saboteur_place_all(state, frame, events)
    elif kind == "take_pile":
        pile = _pile(_need(move, "take_pile"))
        if not state.market[pile]:
            raise IllegalMove(f"you can't take pile {pile}: it is empty")
        state.pending.pop()
        state.take_pile(owner, pile, events, reason=frame["reason"])
        state.refill(pile, events)
    elif kind == "agent":
        effect = _need(move, "agent_effect")
        if effect not in advocates.BASIC_TYPES:
            raise IllegalMove(f"the Agent can only use Conspirator, Spy or Advisor effects, not {effect!r}")
        frame["left"] -= 1
        if frame["left"] <= 0:
            state.pending.pop()
        state.emit(events, {"type": "agent_effect", "seat": owner, "effect": effect})
        advocates.start_effect(state, owner, effect, events)
    elif kind == "rat":
        cid = _card_in_hand(state, owner, _need(move, "put_back"))
        state.pending.pop()
        rat_put_back(state, owner, cid, events)
    else:  # pragma: no cover
        raise IllegalMove("nothing to decide")


def _skip_play_problem(state: InheritorsState, seat: int, cid: str, condition: str) -> str:
    c = C.CARDS[cid]
    if c.kind != C.INFLUENCE:
        return f"you can't place {C.display(cid)}: only influence cards go to your tableau"
    colour = c.colour or ""
    top = state.top(seat, colour)
    name = tableau.state_colour(colour)
    if condition == "conspirator" and colour not in advocates.conspirator_colours(state, seat):
        return (f"the Conspirator can't place {C.display(cid)}: no other player shows a {name} "
                f"number higher than your {top}")
    allowed = " or ".join(f"{name} {v}" for v in tableau.skip_play_values(top)) or "nothing"
    return f"you can't place {C.display(cid)}: your {name} stack shows {top}, so only {allowed} may go there"


def advance(state: InheritorsState, events: list[InheritorsEvent]) -> None:
    """Resolve automatic frames and frames that have no possible answer."""
    while state.pending:
        frame = state.pending[-1]
        kind = frame["kind"]
        owner = int(frame["seat"])
        if kind == "after_advocate":
            state.pending.pop()
            advocates.after_advocate(state, owner, events)
            continue
        if kind == "saboteur_discard":
            if acting_seats(state):
                return
            state.pending.pop()
            advocates.saboteur_place_all(state, frame, events)
            continue
        if kind == "wolf":
            if tableau.playable(state, owner):
                return
            state.pending.pop()
            continue
        if kind == "spy" and not advocates.spy_requests(state, owner):
            state.pending.pop()
            advocates.spy_nothing_to_name(state, owner, events)
            continue
        if kind == "advisor" and not advocates.market_cards(state):
            state.pending.pop()
            state.refill_all(frame["emptied"], events)
            continue
        if kind in ("skip_play", "take_pile", "rat") and not frame_moves(state, frame, owner):
            # I7.6: an Agent effect whose condition fails is skipped; an empty market gives
            # nothing to take; an empty hand puts nothing back (AMB-20).
            state.pending.pop()
            if kind == "skip_play":
                state.emit(events, {"type": "effect_skipped", "seat": owner, "effect": frame["condition"]})
            continue
        return
