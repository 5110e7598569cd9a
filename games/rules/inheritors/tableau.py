"""Tableau stacks (I5.1, I7.9): what may be placed, and placing it."""

from __future__ import annotations

from . import cards as C
from . import clans
from .data import COLOUR_NAMES
from .state import InheritorsState
from .types import InheritorsEvent, PlaceEvent


def next_value_problem(state: InheritorsState, seat: int, cid: str) -> str | None:
    """I5.1.1 why ``cid`` is not the next card of its stack (None if it is)."""
    c = C.CARDS[cid]
    if c.kind != C.INFLUENCE:
        return f"you can't play a {C.display(cid)} to your tableau: only influence cards go there"
    assert c.colour is not None and c.value is not None
    top = state.top(seat, c.colour)
    name = state_colour(c.colour)
    if c.value == top + 1:
        return None
    if top == 6:
        return f"you can't play {C.display(cid)}: your {name} stack is complete at 6"
    if top == 0:
        return f"you can't play {C.display(cid)}: you have no {name} stack, so only {name} 1 can start it"
    return f"you can't play {C.display(cid)}: your {name} stack shows {top}, so only {name} {top + 1} is next"


def state_colour(colour: str) -> str:
    return COLOUR_NAMES.get(colour, colour)


def playable(state: InheritorsState, seat: int) -> list[str]:
    """I5.1.1 the influence cards in hand that are the next card of their colour."""
    out = []
    for cid in state.hands[seat]:
        c = C.CARDS[cid]
        if c.kind == C.INFLUENCE and c.value == state.top(seat, c.colour or "") + 1:
            out.append(cid)
    return out


def skip_play_values(top: int) -> tuple[int, ...]:
    """I7.9 [R] (AMB-23): a skip-play places top+1 or top+2 (never above 6); an absent stack has
    top 0, so a stack may start with a 2."""
    return tuple(v for v in (top + 1, top + 2) if v <= 6)


def skip_playable(state: InheritorsState, seat: int, colours: set[str] | None = None) -> list[str]:
    """Influence cards in hand that are a legal skip-play (restricted to ``colours`` if given)."""
    out = []
    for cid in state.hands[seat]:
        c = C.CARDS[cid]
        if c.kind != C.INFLUENCE or (colours is not None and c.colour not in colours):
            continue
        if c.value in skip_play_values(state.top(seat, c.colour or "")):
            out.append(cid)
    return out


def place(state: InheritorsState, seat: int, cid: str, events: list[InheritorsEvent], how: str,
          from_seat: int | None = None) -> None:
    """Put influence card ``cid`` on ``seat``'s stack of its colour (I5.1.2), taking it from the
    hand of ``from_seat`` (default: ``seat``). Creates the stack if absent (Fox draws, I8.5)."""
    c = C.CARDS[cid]
    assert c.colour is not None and c.value is not None
    source = seat if from_seat is None else from_seat
    state.hands[source].remove(cid)
    top = state.top(seat, c.colour)
    if c.value == top + 2:
        state.skip_plays.append(cid)
    new_stack = c.colour not in state.stacks[seat]
    state.stacks[seat].setdefault(c.colour, []).append(cid)
    ev: PlaceEvent = {"type": "place", "seat": seat, "card": cid, "how": how}
    if from_seat is not None and from_seat != seat:
        ev["from_seat"] = from_seat
    state.emit(events, ev)
    if new_stack:
        clans.fox_draw_on_new_stack(state, seat, events)
