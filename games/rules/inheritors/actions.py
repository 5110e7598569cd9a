"""The five actions A1-A5 (I5) and the pass (I4.3): legality, enumeration and application.

Multi-step actions continue as pending decisions (see :mod:`pending`): the Wolf's second card,
the second and third quest discards, and every advocate effect.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import IllegalMove
from . import advocates, clans, tableau
from . import cards as C
from .state import InheritorsState, JSONDict
from .types import InheritorsEvent, InheritorsMove

Move = InheritorsMove
PILES = (0, 1, 2)


# ------------------------------------------------------------------ helpers
def _card_in_hand(state: InheritorsState, seat: int, cid: Any) -> str:
    if not isinstance(cid, str) or cid not in C.CARDS:
        raise IllegalMove(f"there is no card called {cid!r}")
    if cid not in state.hands[seat]:
        raise IllegalMove(f"you don't hold {C.display(cid)} ({cid})")
    return cid


def _pile(value: Any, what: str = "pile") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in PILES:
        raise IllegalMove(f"the {what} must be market pile 0, 1 or 2, not {value!r}")
    return value


def can_pass(state: InheritorsState, seat: int) -> bool:
    """I4.3 [R] (AMB-35): the action is "pass" exactly when the hand is empty."""
    return not state.hands[seat]


# ------------------------------------------------------------------ A3 matching
def matching_piles(state: InheritorsState, seat: int, cid: str) -> list[int]:
    """I5.3.2 the non-empty piles whose top matches discard D (I6.4; Fox wild); A3 takes one other than X."""
    wild = clans.fox_discards_wild(state, seat)
    return [y for y in PILES if state.market[y] and C.cards_match(cid, state.market[y][-1], wild)]


# ------------------------------------------------------------------ A4 one-colour test
def quest_card_ok(state: InheritorsState, seat: int, chosen: list[str], cid: str) -> bool:
    """I5.4.1 [R] (AMB-10): may ``cid`` join the already discarded ``chosen`` cards so that three
    cards of one colour (I2.3: wilds fill any colour, three advocates are white) can still be
    completed from the hand? With Fox any three cards qualify (I8.5)."""
    hand = state.hands[seat]
    need_after = 3 - len(chosen) - 1
    if clans.fox_discards_wild(state, seat):
        return len(hand) - 1 >= need_after
    common = set(C.colours_of(cid))
    for other in chosen:
        common &= C.colours_of(other)
    if not common:
        return False
    for k in common:
        count = sum(1 for x in hand if x != cid and k in C.colours_of(x))
        if count >= need_after:
            return True
    return False


def quest_first_cards(state: InheritorsState, seat: int) -> list[str]:
    if not state.quest_row or len(state.hands[seat]) < 3:
        return []
    return [cid for cid in state.hands[seat] if quest_card_ok(state, seat, [], cid)]


# ------------------------------------------------------------------ enumeration
def action_moves(state: InheritorsState, seat: int) -> list[Move]:
    """Every legal action move of the active seat in its pre-action window."""
    hand = state.hands[seat]
    if can_pass(state, seat):
        return [{"pass": True}]
    moves: list[Move] = []
    for cid in tableau.playable(state, seat):
        moves.append({"action": "play", "card": cid})
    for cid in hand:
        for p in PILES:
            moves.append({"action": "discard_draw", "card": cid, "pile": p})
    for cid in hand:
        targets = matching_piles(state, seat, cid)
        for p in PILES:
            for y in targets:
                if y != p:
                    moves.append({"action": "discard_take", "card": cid, "pile": p, "take": y})
    for cid in quest_first_cards(state, seat):
        for p in PILES:
            moves.append({"action": "quest", "card": cid, "pile": p})
    for cid in hand:
        if C.is_advocate(cid) and advocates.playable_problem(state, seat, cid) is None:
            moves.append({"action": "advocate", "card": cid})
    return moves


# ------------------------------------------------------------------ application
def apply_action(state: InheritorsState, seat: int, move: Mapping[str, Any], events: list[InheritorsEvent]) -> None:
    """Validate and carry out an action move (I5); the caller switches to the post window."""
    kind = move.get("action")
    if kind == "play":
        _a1_play(state, seat, move, events)
    elif kind == "discard_draw":
        _a2_discard_draw(state, seat, move, events)
    elif kind == "discard_take":
        _a3_discard_take(state, seat, move, events)
    elif kind == "quest":
        _a4_quest(state, seat, move, events)
    elif kind == "advocate":
        _a5_advocate(state, seat, move, events)
    else:
        raise IllegalMove(
            f"unknown action {kind!r}: choose play, discard_draw, discard_take, quest or advocate")


def _a1_play(state: InheritorsState, seat: int, move: Mapping[str, Any], events: list[InheritorsEvent]) -> None:
    """I5.1 A1: play the next influence card of a colour; Wolf may add a second (I5.1.3)."""
    cid = _card_in_hand(state, seat, move.get("card"))
    problem = tableau.next_value_problem(state, seat, cid)
    if problem:
        raise IllegalMove(problem)
    state.emit(events, {"type": "action", "seat": seat, "action": "play"})
    tableau.place(state, seat, cid, events, how="play")
    if clans.wolf_second_play(state, seat):
        state.pending.append({"kind": "wolf", "seat": seat})


def _a2_discard_draw(state: InheritorsState, seat: int, move: Mapping[str, Any], events: list[InheritorsEvent]) -> None:
    """I5.2 A2: discard one card on any pile, draw two."""
    cid = _card_in_hand(state, seat, move.get("card"))
    pile = _pile(move.get("pile"))
    state.emit(events, {"type": "action", "seat": seat, "action": "discard_draw"})
    state.discard_to_market(seat, cid, pile, events, reason="discard_draw")
    state.draw(seat, 2, events)


def _a3_discard_take(state: InheritorsState, seat: int, move: Mapping[str, Any], events: list[InheritorsEvent]) -> None:
    """I5.3 A3: discard D on pile X, take a *different* non-empty pile Y whose top matches D."""
    cid = _card_in_hand(state, seat, move.get("card"))
    pile = _pile(move.get("pile"))
    take = _pile(move.get("take"), "pile to take")
    if take == pile:
        raise IllegalMove(f"you can't take pile {take}: it must be a different pile from the one "
                          f"you discard to (pile {pile})")
    if not state.market[take]:
        raise IllegalMove(f"you can't take pile {take}: it is empty")
    top = state.market[take][-1]
    if not C.cards_match(cid, top, clans.fox_discards_wild(state, seat)):
        raise IllegalMove(f"you can't take pile {take} with {C.display(cid)}: its top card "
                          f"{C.display(top)} shares no value, colour or name with it")
    state.emit(events, {"type": "action", "seat": seat, "action": "discard_take"})
    state.discard_to_market(seat, cid, pile, events, reason="discard_take")
    state.take_pile(seat, take, events, reason="discard_take")
    state.refill(take, events)  # I5.3.3


def _a4_quest(state: InheritorsState, seat: int, move: Mapping[str, Any], events: list[InheritorsEvent]) -> None:
    """I5.4 A4: three cards of one colour go to the market one at a time (sub-moves), then a
    quest and a draw. Accepts the first card (``card``/``pile``) or all three (``cards``/``piles``)."""
    if not state.quest_row:
        raise IllegalMove("you can't take a quest: the quest row is empty")
    if "cards" in move:
        cards_, piles_ = move.get("cards"), move.get("piles")
        if not isinstance(cards_, list) or not isinstance(piles_, list) or len(cards_) != 3 \
                or len(piles_) != 3:
            raise IllegalMove("a quest needs 3 cards and 3 piles (one pile per card)")
        steps = list(zip(cards_, piles_, strict=True))
    else:
        steps = [(move.get("card"), move.get("pile"))]
    first_cid = _card_in_hand(state, seat, steps[0][0])
    if len(state.hands[seat]) < 3:
        raise IllegalMove("you can't take a quest: you need 3 cards of one colour in hand")
    if not quest_card_ok(state, seat, [], first_cid):
        raise IllegalMove(f"you can't start a quest with {C.display(first_cid)}: you don't hold "
                          f"3 cards of one colour including it")
    _pile(steps[0][1])
    state.emit(events, {"type": "action", "seat": seat, "action": "quest"})
    frame: JSONDict = {"kind": "quest_discard", "seat": seat, "chosen": []}
    state.pending.append(frame)
    for cid, pile in steps:
        quest_discard(state, seat, frame, {"discard": cid, "pile": pile}, events)


def quest_discard(state: InheritorsState, seat: int, frame: JSONDict, move: Mapping[str, Any],
                  events: list[InheritorsEvent]) -> None:
    """I5.4.2 one of the three quest discards; after the third: I5.4.3 quest, I5.4.4 draw."""
    cid = _card_in_hand(state, seat, move.get("discard"))
    pile = _pile(move.get("pile"))
    chosen: list[str] = frame["chosen"]
    if not quest_card_ok(state, seat, chosen, cid):
        already = ", ".join(C.display(c) for c in chosen)
        raise IllegalMove(f"you can't add {C.display(cid)} to your quest discards ({already}): "
                          f"the three cards must share a colour")
    state.discard_to_market(seat, cid, pile, events, reason="quest")
    chosen.append(cid)
    if len(chosen) == 3:
        state.pending.remove(frame)
        take_quest(state, seat, events)
        state.draw(seat, 1, events)


def take_quest(state: InheritorsState, seat: int, events: list[InheritorsEvent]) -> None:
    """I5.4.3 [R] (AMB-11): a uniformly random face-down quest. The row was shuffled from the seed
    at setup, so taking the first remaining quest is that random pick (and replayable)."""
    qid = state.quest_row.pop(0)
    state.quests[seat].append(qid)
    state.emit(events, {"type": "take_quest", "seat": seat})  # which quest stays secret (I10.1)


def _a5_advocate(state: InheritorsState, seat: int, move: Mapping[str, Any], events: list[InheritorsEvent]) -> None:
    """I5.5 A5: play an advocate, resolve it (I7), Removed area; Rat afterwards (I8.5)."""
    cid = _card_in_hand(state, seat, move.get("card"))
    if not C.is_advocate(cid):
        raise IllegalMove(f"you can't play {C.display(cid)} as an advocate: it isn't one")
    problem = advocates.playable_problem(state, seat, cid)
    if problem:
        raise IllegalMove(problem)
    state.emit(events, {"type": "action", "seat": seat, "action": "advocate"})
    advocates.play_advocate(state, seat, cid, events)
