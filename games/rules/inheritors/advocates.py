"""Advocates (I7): playability, effects, and the pending decisions their effects create.

Playing an advocate (A5) moves the card to the public Removed area at once (it is out of play
while it resolves), pushes an ``after_advocate`` marker (Rat, I8.5) and then the effect's
decision frame(s). Frames are resolved by :mod:`pending`.
"""

from __future__ import annotations

from . import cards as C
from . import clans, tableau
from .state import InheritorsState, JSONDict
from .types import AgentEffect, InheritorsEvent

BASIC_TYPES: tuple[AgentEffect, ...] = ("conspirator", "spy", "advisor")


def conspirator_colours(state: InheritorsState, seat: int) -> set[str]:
    """I7.2 [R] (AMB-22): colours c where some *other* player's top exceeds P's current top."""
    out = set()
    for c in state.colours:
        mine = state.top(seat, c)
        if any(state.top(o, c) > mine for o in state.others(seat)):
            out.add(c)
    return out


def skip_play_options(state: InheritorsState, seat: int, condition: str) -> list[str]:
    """Cards P may skip-play (I7.9) now; Conspirator restricts the colours (I7.2)."""
    if condition == "conspirator":
        return tableau.skip_playable(state, seat, conspirator_colours(state, seat))
    return tableau.skip_playable(state, seat)


def playable_problem(state: InheritorsState, seat: int, cid: str) -> str | None:
    """I7.1 [R]: an advocate may be played only if its mandatory part can be carried out: the
    Conspirator and the Ambassador need a legal skip-play; the others are always playable."""
    atype = C.CARDS[cid].advocate_type
    if atype == "conspirator" and not skip_play_options(state, seat, "conspirator"):
        return ("you can't play the Conspirator: you have no card to place in a colour where "
                "another player shows a higher number than you")
    if atype == "ambassador" and not skip_play_options(state, seat, "ambassador"):
        return "you can't play the Ambassador: no card in your hand can go on your stacks, even skipping one"
    return None


def play_advocate(state: InheritorsState, seat: int, cid: str, events: list[InheritorsEvent]) -> None:
    """I5.5 / I7.1: the advocate goes to Removed; resolve its effect; then Rat (after_advocate)."""
    state.hands[seat].remove(cid)
    state.removed.append(cid)
    atype = C.CARDS[cid].advocate_type or ""
    state.emit(events, {"type": "advocate", "seat": seat, "card": cid, "advocate": atype})
    state.pending.append({"kind": "after_advocate", "seat": seat})
    start_effect(state, seat, atype, events)


def start_effect(state: InheritorsState, seat: int, atype: str, events: list[InheritorsEvent]) -> None:
    """Start the effect of one advocate type (also used by the Agent, I7.6)."""
    if atype in ("conspirator", "ambassador"):
        state.pending.append({"kind": "skip_play", "seat": seat, "condition": atype})
    elif atype == "spy":
        state.pending.append({"kind": "spy", "seat": seat})
    elif atype == "advisor":
        state.pending.append({"kind": "advisor", "seat": seat, "left": 2, "emptied": []})
    elif atype == "knight":
        knight(state, seat, events)
    elif atype == "saboteur":
        saboteur_start(state, seat)
    elif atype == "agent":
        agent_start(state, seat)
    else:  # pragma: no cover - the catalog has no other types
        raise ValueError(atype)


# ------------------------------------------------------------------ skip-play (I7.9)
def do_skip_play(state: InheritorsState, seat: int, cid: str, events: list[InheritorsEvent]) -> None:
    tableau.place(state, seat, cid, events, how="skip_play")


# ------------------------------------------------------------------ Spy (I7.3)
def spy_requests(state: InheritorsState, seat: int) -> list[tuple[int, str]]:
    """I7.3 [R] (AMB-24): (other seat, colour) pairs; the value is always top(P, c) + 1 (no skip),
    and only colours whose stack is below 6."""
    colours = [c for c in state.colours if state.top(seat, c) < 6]
    return [(q, c) for q in state.others(seat) for c in colours]


def spy_resolve(state: InheritorsState, seat: int, target: int, colour: str, events: list[InheritorsEvent]) -> None:
    """I7.3 steps 2-4: Q hands over one copy if able (automatic; public), else P draws 1.
    The placement is not an A1 (no Wolf) but can create a stack (Fox draws)."""
    value = state.top(seat, colour) + 1
    copies = sorted(cid for cid in state.hands[target]
                    if C.CARDS[cid].kind == C.INFLUENCE and C.CARDS[cid].colour == colour
                    and C.CARDS[cid].value == value)
    answer = copies[0] if copies else None
    state.emit(events, {"type": "spy", "seat": seat, "target": target, "colour": colour,
                        "value": value, "answer": answer})
    if answer is None:
        state.draw(seat, 1, events, reason="spy")
        return
    tableau.place(state, seat, answer, events, how="spy", from_seat=target)
    spy_honor_earned(state, seat, value)


def spy_nothing_to_name(state: InheritorsState, seat: int, events: list[InheritorsEvent]) -> None:
    """Spec silent (ruling in docs/rulings.md, Inheritors): if P can name no card at all (every
    active stack shows 6), the Spy is treated as refused and P draws 1."""
    state.emit(events, {"type": "spy", "seat": seat, "target": None, "colour": None, "value": None,
                        "answer": None})
    state.draw(seat, 1, events, reason="spy")


def spy_honor_earned(state: InheritorsState, seat: int, value: int) -> None:
    """I7.3 step 4 / H8: a Spy placed a card of value >= 2 in the active player's tableau."""
    if value >= 2 and seat == state.current:
        state.spy_honor = True


# ------------------------------------------------------------------ Advisor (I7.4)
def advisor_take(state: InheritorsState, seat: int, frame: JSONDict, cid: str, events: list[InheritorsEvent]) -> None:
    """I7.4 [R] (AMB-25): take any card from any position of any pile; refill emptied piles after
    both cards (or fewer, if the market runs dry) are taken."""
    for p, pile in enumerate(state.market):
        if cid in pile:
            pile.remove(cid)
            state.hands[seat].append(cid)
            if not pile:
                frame["emptied"].append(p)
            state.emit(events, {"type": "take_card", "seat": seat, "card": cid, "pile": p,
                                "reason": "advisor"})
            break
    frame["left"] -= 1


def market_cards(state: InheritorsState) -> list[str]:
    return [cid for pile in state.market for cid in pile]


# ------------------------------------------------------------------ Knight (I7.7)
def knight(state: InheritorsState, seat: int, events: list[InheritorsEvent]) -> None:
    """I7.7: draw as many cards as P's highest top value (0 with no stack)."""
    n = max((state.top(seat, c) for c in state.colours), default=0)
    state.draw(seat, n, events, reason="knight")


# ------------------------------------------------------------------ Saboteur (I7.8)
def saboteur_start(state: InheritorsState, seat: int) -> None:
    """I7.8 [R] (AMB-28): every other player chooses 2 cards (all if fewer) and a pile for each;
    then P takes a whole non-empty pile of P's choice (no match) and it is refilled.

    The other players choose at the same time (they are all in ``to_act``); their choices stay
    secret until everyone has chosen, then the cards are placed clockwise starting with P's left
    neighbour, each player's cards in the order chosen - the placement order of I7.8.
    """
    state.pending.append({"kind": "take_pile", "seat": seat, "reason": "saboteur"})
    need = {str(o): min(2, len(state.hands[o])) for o in state.others(seat)}
    need = {k: v for k, v in need.items() if v > 0}
    state.pending.append({"kind": "saboteur_discard", "seat": seat, "need": need,
                          "chosen": {k: [] for k in need}})


def saboteur_place_all(state: InheritorsState, frame: JSONDict, events: list[InheritorsEvent]) -> None:
    owner = int(frame["seat"])
    for o in state.others(owner):
        for cid, pile in frame["chosen"].get(str(o), []):
            state.discard_to_market(o, cid, pile, events, reason="saboteur")


# ------------------------------------------------------------------ Agent (I7.6)
def agent_start(state: InheritorsState, seat: int) -> None:
    """I7.6 [R] (AMB-26, low confidence): two basic-advocate effects of P's choice, one after the
    other, no card needed (an effect whose condition fails is skipped); then one extra turn."""
    state.extra_turn = True
    state.pending.append({"kind": "agent", "seat": seat, "left": 2})


def after_advocate(state: InheritorsState, seat: int, events: list[InheritorsEvent]) -> None:
    """Runs once the advocate's effect is fully resolved: Rat (I8.5)."""
    clans.rat_after_advocate(state, seat, events)
