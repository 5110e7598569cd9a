"""Clans (I8): claiming and the five beginner clan abilities (I8.5).

Each [R] detail of a clan ability lives in one function here so it can be changed alone.
"""

from __future__ import annotations

from . import data
from .state import InheritorsState
from .types import InheritorsEvent


def owns(state: InheritorsState, seat: int, clan_id: str) -> bool:
    return state.clans[seat] == clan_id


def clan_name(clan_id: str) -> str:
    return str(data.CLANS[clan_id]["name"])


def clan_colour(clan_id: str) -> str:
    return str(data.CLANS[clan_id]["colour"])


def claim_problem(state: InheritorsState, seat: int, clan_id: str) -> str | None:
    """I8.2/I8.3 why ``seat`` cannot claim ``clan_id`` now (None if it can)."""
    if clan_id not in data.CLANS:
        return f"there is no clan called {clan_id!r}"
    name = clan_name(clan_id)
    if state.clans[seat] is not None:
        return f"you can't claim the {name} clan: you already own the {clan_name(state.clans[seat] or '')} clan"
    if clan_id not in state.clan_row:
        return f"you can't claim the {name} clan: it is not available"
    colour = clan_colour(clan_id)
    top = state.top(seat, colour)
    if top < 3:
        cname = data.COLOUR_NAMES[colour]
        shown = f"your {cname} stack shows {top}" if top else f"you have no {cname} stack"
        return f"you can't claim the {name} clan: it needs a {cname} 3 or higher and {shown}"
    return None


def claim(state: InheritorsState, seat: int, clan_id: str, events: list[InheritorsEvent]) -> None:
    """I8.2 move the clan to the tableau; I8.4 attached cards go to hand; Lynx's on-claim take."""
    state.clan_row.remove(clan_id)
    state.clans[seat] = clan_id
    attached = attached_cards_to_hand(state, seat, clan_id)
    state.emit(events, {"type": "claim_clan", "seat": seat, "clan": clan_id, "cards": attached})
    if clan_id == "lynx":
        lynx_on_claim(state, seat)


def attached_cards_to_hand(state: InheritorsState, seat: int, clan_id: str) -> list[str]:
    """I8.4 [R] (AMB-16): on claim, the clan's attached special advocates/epics go to hand."""
    attached = state.clan_attached.pop(clan_id, [])
    state.hands[seat].extend(attached)
    return attached


def lynx_on_claim(state: InheritorsState, seat: int) -> None:
    """I8.5 Lynx [R] (AMB-19): once, on claim, take all cards of one non-empty pile of the
    claimer's choice (no discard, no match), then refill. A pending decision of the claimer."""
    state.pending.append({"kind": "take_pile", "seat": seat, "reason": "lynx"})


def wolf_second_play(state: InheritorsState, seat: int) -> bool:
    """I5.1.3 / I8.5 Wolf [R] (AMB-17): after an A1 play (and only A1, once per A1) the Wolf
    owner may play one more influence card under I5.1.1."""
    return owns(state, seat, "wolf")


def fox_draw_on_new_stack(state: InheritorsState, seat: int, events: list[InheritorsEvent]) -> None:
    """I5.1.4 / I8.5 Fox (a) [R] (AMB-18): whenever a new stack appears in the Fox owner's tableau,
    by any means (A1, Wolf, Spy placement, skip-play), the owner draws 1 card."""
    if owns(state, seat, "fox"):
        state.draw(seat, 1, events, reason="fox")


def fox_discards_wild(state: InheritorsState, seat: int) -> bool:
    """I8.5 Fox (b) [R] (AMB-18): the Fox owner's discards are wild for the A3 match (I6.4) and
    the A4 one-colour test (I5.4.1)."""
    return owns(state, seat, "fox")


def rat_after_advocate(state: InheritorsState, seat: int, events: list[InheritorsEvent]) -> None:
    """I8.5 Rat [R] (AMB-20): after every advocate the Rat owner plays (A5, including the Agent)
    resolves, draw 2, then put 1 card of the owner's choice from hand face down on top of the deck
    (a pending decision); with an empty hand nothing is put back."""
    if not owns(state, seat, "rat"):
        return
    state.draw(seat, 2, events, reason="rat")
    if state.hands[seat]:
        state.pending.append({"kind": "rat", "seat": seat})


def rat_put_back(state: InheritorsState, seat: int, cid: str, events: list[InheritorsEvent]) -> None:
    """Rat: the chosen card goes face down on top of the deck; only the owner may see it (I13).
    Putting a card back never undoes the end trigger (I11.3)."""
    state.hands[seat].remove(cid)
    state.deck.insert(0, cid)
    state.rat_top = [seat, cid]
    state.emit(events, {"type": "rat_put_back", "seat": seat})


def relic_value(state: InheritorsState, seat: int) -> int:
    """I12.4 / I8.5 Bear: relics are worth +2/-2 instead of +1/-1."""
    return data.BEAR_RELIC_VALUE if owns(state, seat, "bear") else data.RELIC_VALUE


def tome_bonus(state: InheritorsState, seat: int) -> int:
    """I12.3 / I8.5 Lynx [R] (AMB-19): +2 to the tome-majority count, even with no tome."""
    return data.LYNX_TOME_BONUS if owns(state, seat, "lynx") else 0
