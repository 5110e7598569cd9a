"""Helpers for the AI tests: explicit Claim-family positions built with the engine's core."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.ai.match import deal_options
from games.rules.cards import CARD_ID, FACTION_ALIASES, deck_for, parse_card
from games.rules.claim import core
from games.rules.registry import get_rules


def cards(ids: Sequence[str]) -> list[int]:
    return [parse_card(c) for c in ids]


def position(kind: str, factions: Sequence[str], hands: Sequence[Sequence[str]], *, phase: int = 1,
             leader: int = 0, played: Sequence[str] = (), prize: str | None = None,
             deck: Sequence[str] = (), followers: Sequence[Sequence[str]] = ((), ()),
             score: Sequence[Sequence[str]] = ((), ()), discard: Sequence[str] | None = None,
             gnome_rows: Sequence[Sequence[str]] = ((), ())) -> core.Core:
    """A core state with the given zones (sizes are not checked; the engine views it normally).

    ``discard=None`` puts every card not placed elsewhere into the discard (phase 2: the
    opponent's hand is then exactly what the viewer deduces)."""
    fids = tuple(sorted(FACTION_ALIASES[f] for f in factions))
    if discard is None:
        rest = Counter(deck_for(fids))
        placed = [*hands[0], *hands[1], *played, *deck, *followers[0], *followers[1], *score[0],
                  *score[1], *gnome_rows[0], *gnome_rows[1], *([prize] if prize else [])]
        rest.subtract(Counter(cards(placed)))
        discard = [CARD_ID[c] for c in rest.elements()]
    top = [parse_card(prize)] if prize else []
    st = core.new_core(kind, fids, [cards(h) for h in hands], top + cards(deck) or [0], leader)
    st.prize = parse_card(prize) if prize else -1
    st.dpos = 1 if prize else 0
    st.phase = phase
    st.followers = [cards(f) for f in followers]
    st.public_followers = [[], []]
    st.score = [cards(s) for s in score]
    st.discard = cards(discard)
    st.gnomes = [cards(r) for r in gnome_rows]
    st.played = []
    st.turn = leader
    for c in played:
        core.play(st, parse_card(c))
    return st


def view_and_legal(kind: str, st: core.Core) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    rules = get_rules(kind)
    seat = next(iter(rules.to_act(st)))
    return seat, rules.view(st, seat), rules.legal_moves(st, seat)


def random_state(kind: str, seed: int, steps: int) -> Any:
    """A Claim-family state after ``steps`` random moves from a seeded deal (or the last state)."""
    rules = get_rules(kind)
    st = rules.setup(deal_options(kind, seed), 2, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if rules.is_over(st):
            break
        seat = next(iter(rules.to_act(st)))
        nxt, _ = rules.apply(st, seat, rng.choice(rules.legal_moves(st, seat)))
        if rules.is_over(nxt):
            break
        st = nxt
    return st
