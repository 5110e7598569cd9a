"""Builders for specific Claim situations (explicit hands, deck, phase, zones)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.rules.cards import CARD_ID, FACTION_ALIASES, parse_card
from games.rules.claim import CLAIM, CLAIM2, CLAIM_MIX
from games.rules.claim.core import PHASE1, PHASE2, Core, new_core
from games.rules.claim.engine import ClaimRules
from games.rules.claim.types import ClaimEvent as Event

RULES = {"claim": CLAIM, "claim2": CLAIM2, "claim-mix": CLAIM_MIX}
DEFAULT_FACTIONS = {
    "claim": ["goblin", "knight", "undead", "dwarf", "doppelganger"],
    "claim2": ["gnome", "giant", "dragon", "troll", "seer"],
}


def c(card: str) -> int:
    return parse_card(card)


def cs(cards: Sequence[str]) -> list[int]:
    return [parse_card(x) for x in cards]


def make_state(
    kind: str,
    hands: Sequence[Sequence[str]],
    *,
    deck: Sequence[str] = (),
    leader: int = 0,
    phase: int = PHASE1,
    factions: Sequence[str] | None = None,
    score: Sequence[Sequence[str]] | None = None,
    gnomes: Sequence[Sequence[str]] | None = None,
    pool: Sequence[str] = (),
) -> Core:
    """A state where ``leader`` is about to lead. Phase 1 reveals ``deck[0]`` as the prize."""
    fac = factions or DEFAULT_FACTIONS[kind]
    fids = tuple(sorted(FACTION_ALIASES[f] for f in fac))
    if phase == PHASE1:
        st = new_core(kind, fids, [cs(h) for h in hands], cs(deck), leader)
    else:
        st = new_core(kind, fids, [[] for _ in hands], [], leader)
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


def rules_for(st: Core) -> ClaimRules:
    return RULES[st.kind]


def play(st: Core, *moves: str) -> tuple[Core, list[Event]]:
    """Apply moves for whoever must act: "knight-5" plays a card, "seer:top"/"seer:prize" choose,
    "smash:2" is the Giant choice (M6.5) of seat 2's Gnome."""
    rules = rules_for(st)
    events: list[Event] = []
    for m in moves:
        seat = next(iter(rules.to_act(st)))
        move: dict[str, Any] = ({"seer": m.split(":")[1]} if m.startswith("seer:")
                                else {"smash": int(m.split(":")[1])} if m.startswith("smash:") else {"play": m})
        st, ev = rules.apply(st, seat, move)
        events.extend(ev)
    return st, events


def legal_cards(st: Core) -> list[str]:
    rules = rules_for(st)
    seat = next(iter(rules.to_act(st)))
    return [m["play"] for m in rules.legal_moves(st, seat)]


def score_ids(st: Core, seat: int) -> list[str]:
    return sorted(CARD_ID[x] for x in st.score[seat])


def ids(cards: Sequence[int]) -> list[str]:
    return sorted(CARD_ID[x] for x in cards)


# --- zones of a state, for the property tests (2 seats and 3-4 seats) ---


def all_cards(s: Core) -> Counter:
    zones = [*s.hands, *s.followers, *s.score, *s.gnomes, s.pool, s.discard, s.smashed, s.played,
             list(s.deck[s.dpos:])]
    total = Counter(c for z in zones for c in z)
    if s.prize >= 0:
        total[s.prize] += 1
    return total


def visible_cards(s: Core, seat: int | None) -> set[int]:
    """Cards a seat may legitimately see somewhere (public zones + own private + known)."""
    vis = {*s.pool, *s.discard, *s.smashed, *s.played}
    for z in (*s.score, *s.gnomes, *s.public_followers):
        vis.update(z)
    if s.prize >= 0:
        vis.add(s.prize)
    if seat is not None:
        vis.update(s.hands[seat])
        vis.update(s.followers[seat])
        vis.update(s.peeked[seat])
        if s.seer == seat:
            vis.add(s.deck[s.dpos])
    return vis


def hidden_cards(s: Core, seat: int | None) -> set[int]:
    """Cards whose id must not appear in the seat's view (they are only in hidden places)."""
    secret = set(s.deck[s.dpos:])
    for o in range(s.seats):
        if o != seat:
            secret.update(s.hands[o])
            secret.update(s.followers[o])
    return secret - visible_cards(s, seat)
