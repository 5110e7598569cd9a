"""Build Inheritors states directly for unit tests (every unplaced card goes to the box, so
card conservation still holds)."""

from __future__ import annotations

from typing import Any

from games.rules.inheritors import RULES, data
from games.rules.inheritors import cards as C
from games.rules.inheritors.state import PRE, InheritorsState


def build(
    seats: int = 2,
    hands: list[list[str]] | None = None,
    stacks: list[dict[str, list[str]]] | None = None,
    market: list[list[str]] | None = None,
    deck: list[str] | None = None,
    removed: list[str] | None = None,
    quest_row: list[str] | None = None,
    quests: list[list[str]] | None = None,
    honor_row: list[str] | None = None,
    honors: list[list[str]] | None = None,
    clan_row: list[str] | None = None,
    clan_attached: dict[str, list[str]] | None = None,
    clans: list[str | None] | None = None,
    current: int = 0,
    start_player: int = 0,
    colours: list[str] | None = None,
    phase: str = PRE,
    **extra: Any,
) -> InheritorsState:
    hands = hands if hands is not None else [[] for _ in range(seats)]
    stacks = stacks if stacks is not None else [{} for _ in range(seats)]
    market = market if market is not None else [[], [], []]
    deck = deck if deck is not None else []
    removed = removed or []
    clan_attached = clan_attached if clan_attached is not None else {}
    used: list[str] = list(deck) + list(removed)
    for h in hands:
        used += h
    for st in stacks:
        for s in st.values():
            used += s
    for p in market:
        used += p
    for v in clan_attached.values():
        used += v
    assert len(used) == len(set(used)), "a card is placed twice"
    box = sorted(set(C.CARDS) - set(used))
    state = InheritorsState(
        seats=seats,
        options=RULES.normalize_options(None, seats),
        colours=colours or list(data.COLOURS),
        removed_colour=None,
        deck=list(deck),
        hands=[list(h) for h in hands],
        stacks=[{c: list(s) for c, s in st.items()} for st in stacks],
        market=[list(p) for p in market],
        removed=list(removed),
        box=box,
        quest_row=list(quest_row if quest_row is not None else ["Q-red", "Q-relics"]),
        quests=quests or [[] for _ in range(seats)],
        honor_row=list(honor_row if honor_row is not None else ["H1", "H2"]),
        honors=honors or [[] for _ in range(seats)],
        clan_row=list(clan_row if clan_row is not None else []),
        clan_attached={k: list(v) for k, v in clan_attached.items()},
        clans=clans or [None] * seats,
        start_player=start_player,
        current=current,
        phase=phase,
        **extra,
    )
    state.setup = {"seats": seats, "options": state.options, "colours": state.colours,
                   "removed_colour": None, "quest_row": state.quest_row, "honor_row": state.honor_row,
                   "clan_row": state.clan_row, "clan_attached": state.clan_attached, "box": box,
                   "hands": state.hands, "deck": state.deck, "start_player": start_player}
    return state


def play(state: InheritorsState, seat: int, move: dict[str, Any]) -> InheritorsState:
    new, _ = RULES.apply(state, seat, move)
    return new


def play_ev(state: InheritorsState, seat: int, move: dict[str, Any]) -> tuple[InheritorsState, list[dict[str, Any]]]:
    return RULES.apply(state, seat, move)


def filler(n: int, colour: str = "yellow") -> list[str]:
    """n distinct harmless cards of one colour (values 1..), for padding hands/decks."""
    out = [cid for cid, c in C.CARDS.items() if c.kind == C.INFLUENCE and c.colour == colour]
    return out[:n]
