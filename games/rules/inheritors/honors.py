"""Honors (I9): the eight conditions, formalised per I9.3 [R] (AMB-13).

Stacks are judged by their top values (covered cards do not count).
"""

from __future__ import annotations

from . import cards as C
from . import data
from .state import POST, InheritorsState
from .types import ClaimHonorEvent, InheritorsEvent


def _stacks_at_least(state: InheritorsState, seat: int, value: int) -> int:
    return sum(1 for c in state.colours if state.top(seat, c) >= value)


def wild_cards_in_hand(state: InheritorsState, seat: int) -> list[str]:
    return [cid for cid in state.hands[seat] if C.is_wild(cid)]


def relics_in_hand(state: InheritorsState, seat: int) -> list[str]:
    return [cid for cid in state.hands[seat] if C.is_relic(cid)]


def honor_condition_problem(state: InheritorsState, seat: int, hid: str) -> str | None:
    """I9.3 [R] why ``seat`` does not meet honor ``hid`` now (None if it does)."""
    if hid == "H1":
        n = len(state.quests[seat])
        return None if n >= 2 else f"H1 needs 2 quests and you own {n}"
    if hid == "H2":
        return None if _stacks_at_least(state, seat, 6) else "H2 needs a stack showing 6"
    if hid == "H3":
        n = _stacks_at_least(state, seat, 4)
        return None if n >= 2 else f"H3 needs 2 stacks showing 4 or more and you have {n}"
    if hid == "H4":
        n = _stacks_at_least(state, seat, 3)
        return None if n >= 3 else f"H4 needs 3 stacks showing 3 or more and you have {n}"
    if hid == "H5":
        n = _stacks_at_least(state, seat, 2)
        return None if n >= 4 else f"H5 needs 4 stacks showing 2 or more and you have {n}"
    if hid == "H6":
        n = len(wild_cards_in_hand(state, seat))
        return None if n >= 3 else f"H6 needs 3 tomes/epics in your hand and you hold {n}"
    if hid == "H7":
        n = len(relics_in_hand(state, seat))
        return None if n >= 3 else f"H7 needs 3 relics in your hand and you hold {n}"
    if hid == "H8":
        return spy_honor_problem(state)
    return f"there is no honor {hid!r}"


def spy_honor_problem(state: InheritorsState) -> str | None:
    """H8 [R] (AMB-13): only in the post-action window of the turn in which a Spy effect placed an
    influence card of value >= 2 in the active player's tableau."""
    if not state.spy_honor:
        return "H8 needs a Spy to have placed a card of value 2 or more in your tableau this turn"
    if state.phase != POST:
        return "H8 can only be claimed after your action"
    return None


def claim_problem(state: InheritorsState, seat: int, hid: str) -> str | None:
    if hid not in data.HONORS:
        return f"there is no honor {hid!r}"
    if hid not in state.honor_row:
        return f"you can't claim {hid}: it is not in the honor row"
    problem = honor_condition_problem(state, seat, hid)
    return f"you can't claim {hid}: {problem}" if problem else None


def reveal_cards(state: InheritorsState, seat: int, hid: str, chosen: list[str] | None) -> list[str]:
    """H6/H7 reveal 3 cards from hand (they stay in hand, I9.3). ``chosen`` may name them;
    otherwise the first three eligible cards in hand order are revealed."""
    if hid not in ("H6", "H7"):
        if chosen:
            raise ValueError(f"{hid} does not need cards to be revealed")
        return []
    eligible = wild_cards_in_hand(state, seat) if hid == "H6" else relics_in_hand(state, seat)
    if chosen is None:
        return eligible[:3]
    if len(chosen) != 3 or len(set(chosen)) != 3 or any(c not in eligible for c in chosen):
        what = "tomes/epics" if hid == "H6" else "relics"
        raise ValueError(f"to claim {hid} reveal exactly 3 different {what} from your hand")
    return list(chosen)


def claim(state: InheritorsState, seat: int, hid: str, revealed: list[str], events: list[InheritorsEvent]) -> None:
    """I9.2 [R]: the honor leaves the row and is kept to the end, even if the condition lapses."""
    state.honor_row.remove(hid)
    state.honors[seat].append(hid)
    ev: ClaimHonorEvent = {"type": "claim_honor", "seat": seat, "honor": hid}
    if revealed:
        ev["revealed"] = revealed  # public (I13)
    state.emit(events, ev)
