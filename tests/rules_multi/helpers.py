"""Builders for 3-4 seat Claim situations (claim-combined.md M3-M7)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.rules.cards import CARD_ID
from games.rules.claim import CLAIM_MIX, core
from games.rules.claim.core import PHASE1, Core
from games.rules.claim.serial import move_json
from games.rules.claim.types import ClaimEvent as Event
from tests.rules.helpers import cs  # noqa: F401 - re-exported for the multi-seat tests
from tests.rules.helpers import make_state as _make_state

KG = ["knight", "goblin", "undead", "dwarf", "doppelganger", "dragon", "seer"]
GG = ["gnome", "giant", "undead", "dwarf", "dragon", "troll", "seer"]


def ids(cards: Sequence[int]) -> list[str]:
    return sorted(CARD_ID[x] for x in cards)


def make_state(hands: Sequence[Sequence[str]], *, deck: Sequence[str] = (), leader: int = 0,
               phase: int = PHASE1, factions: Sequence[str] = KG,
               score: Sequence[Sequence[str]] | None = None,
               gnomes: Sequence[Sequence[str]] | None = None, pool: Sequence[str] = ()) -> Core:
    """A claim-mix state with ``len(hands)`` seats where ``leader`` is about to lead."""
    return _make_state("claim-mix", hands, deck=deck, leader=leader, phase=phase, factions=factions, score=score,
                       gnomes=gnomes, pool=pool)


def play(st: Core, *moves: str) -> tuple[Core, list[Event]]:
    """Apply moves for whoever must act: "knight-5" plays a card, "seer:top"/"seer:prize" choose,
    "smash:2" is the Giant choice (M6.5) of seat 2's Gnome."""
    events: list[Event] = []
    for m in moves:
        seat = next(iter(CLAIM_MIX.to_act(st)))
        move: dict[str, Any] = ({"seer": m.split(":")[1]} if m.startswith("seer:")
                                else {"smash": int(m.split(":")[1])} if m.startswith("smash:") else {"play": m})
        st, ev = CLAIM_MIX.apply(st, seat, move)
        events.extend(ev)
    return st, events


def legal_cards(st: Core) -> list[str]:
    seat = next(iter(CLAIM_MIX.to_act(st)))
    return [m["play"] for m in CLAIM_MIX.legal_moves(st, seat)]


def steer_to_giant_choice(st: Core, seed: int = 0, tries: int = 5000) -> list[tuple[int, dict[str, Any]]]:
    """Moves from ``st`` (random legal ones) after which a seat owes a Giant choice with at least two
    candidates (M6.5): found by random playouts of the engine's core from ``st``."""
    rng = random.Random(seed)
    for _ in range(tries):
        s = st.copy()
        moves: list[tuple[int, dict[str, Any]]] = []
        while s.phase != core.OVER:
            if s.smash_seat >= 0:
                return moves
            opts = [core.SEER_PRIZE, core.SEER_TOP] if s.seer >= 0 else sorted(set(core.legal(s)))
            m = opts[rng.randrange(len(opts))]
            moves.append((s.turn, move_json(m)))
            core.apply_move(s, m)
    raise AssertionError("no Giant choice reached")  # pragma: no cover


def giant_choice_seed(options: dict[str, Any], seats: int = 3) -> int:
    """A game seed whose deal reaches a Giant choice within a few random playouts (tests pin the game's
    seed to it so that they never depend on a deal without one)."""
    for seed in range(10_000):
        try:
            steer_to_giant_choice(CLAIM_MIX.setup(options, seats, seed), tries=20)
        except AssertionError:
            continue
        return seed
    raise AssertionError("no seed found")  # pragma: no cover
