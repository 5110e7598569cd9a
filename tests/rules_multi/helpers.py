"""Builders for 3-4 seat Claim situations (claim-combined.md M3-M7)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.rules.base import Event
from games.rules.cards import CARD_ID, FACTION_ALIASES, parse_card
from games.rules.claim import CLAIM_MIX
from games.rules.claim.core import PHASE1, PHASE2, Core, new_core

KG = ["knight", "goblin", "undead", "dwarf", "doppelganger", "dragon", "seer"]
GG = ["gnome", "giant", "undead", "dwarf", "dragon", "troll", "seer"]


def cs(cards: Sequence[str]) -> list[int]:
    return [parse_card(x) for x in cards]


def ids(cards: Sequence[int]) -> list[str]:
    return sorted(CARD_ID[x] for x in cards)


def make_state(hands: Sequence[Sequence[str]], *, deck: Sequence[str] = (), leader: int = 0,
               phase: int = PHASE1, factions: Sequence[str] = KG,
               score: Sequence[Sequence[str]] | None = None,
               gnomes: Sequence[Sequence[str]] | None = None, pool: Sequence[str] = ()) -> Core:
    """A claim-mix state with ``len(hands)`` seats where ``leader`` is about to lead."""
    fids = tuple(sorted(FACTION_ALIASES[f] for f in factions))
    n = len(hands)
    if phase == PHASE1:
        st = new_core("claim-mix", fids, [cs(h) for h in hands], cs(deck), leader)
    else:
        st = new_core("claim-mix", fids, [[] for _ in range(n)], [], leader)
        st.hands = [cs(h) for h in hands]
        st.phase = PHASE2
        st.turn = leader
        st.prize = -1
    if score is not None:
        st.score = [cs(p) for p in score]
    if gnomes is not None:
        st.gnomes = [cs(p) for p in gnomes]
    st.pool = cs(pool)
    return st


def play(st: Core, *moves: str) -> tuple[Core, list[Event]]:
    """Apply moves for whoever must act: "knight-5" plays a card, "seer:top"/"seer:prize" choose."""
    events: list[Event] = []
    for m in moves:
        seat = next(iter(CLAIM_MIX.to_act(st)))
        move: dict[str, Any] = {"seer": m.split(":")[1]} if m.startswith("seer:") else {"play": m}
        st, ev = CLAIM_MIX.apply(st, seat, move)
        events.extend(ev)
    return st, events


def legal_cards(st: Core) -> list[str]:
    seat = next(iter(CLAIM_MIX.to_act(st)))
    return [m["play"] for m in CLAIM_MIX.legal_moves(st, seat)]
