"""Playing whole games between AI players (for the bench and the tests; no Django).

A player is ``"random"`` (uniform legal moves) or an AI level (1, 2, 3). Each move's seed is
derived from the deal seed and the move number, so a game is fully reproducible.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.ai import choose_move, random_move
from games.rules.cards import FACTION_NAMES
from games.rules.claim.options import random_mix
from games.rules.inheritors import RULES
from games.rules.registry import get_rules

Player = str | int


def deal_options(kind: str, deal_seed: int, seats: int = 2) -> dict[str, Any] | None:
    """Game options for one deal: claim-mix draws a random valid faction mix from the seed
    (one pair + 3 singles for 2 seats, + 5 singles for 3-4 seats, M3.1)."""
    if kind == "claim-mix":
        return {"factions": [FACTION_NAMES[f] for f in random_mix(random.Random(deal_seed), seats)]}
    return None


def get_engine(kind: str) -> Any:
    if kind == "inheritors":
        return RULES
    return get_rules(kind)


@dataclass
class GameOutcome:
    winner: int | None
    # every winning seat: the winner alone (2 seats), shared winners (3 seats), the winning team's
    # two seats (4 seats, M7.3); empty for a draw
    winners: list[int] = field(default_factory=list)
    times: dict[int, list[float]] = field(default_factory=dict)  # seat -> wall seconds per decision
    cpu: dict[int, list[float]] = field(default_factory=dict)  # seat -> CPU seconds per decision


def pick(player: Player, kind: str, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
         seed: int, budget: float | None = None) -> dict[str, Any]:
    if player == "random":
        return random_move(legal, seed)
    return choose_move(kind, int(player), view, legal, seed, budget=budget)


def play_game(kind: str, players: Sequence[Player], deal_seed: int, budget: float | None = None,
              seats: int | None = None) -> GameOutcome:
    """Play one game; ``players[s]`` sits in seat ``s``. The deal depends on ``deal_seed`` only."""
    rules = get_engine(kind)
    n = seats or len(players)
    opts = deal_options(kind, deal_seed) if n == 2 else deal_options(kind, deal_seed, n)
    state = rules.setup(opts, n, deal_seed)
    out = GameOutcome(None, [], {s: [] for s in range(n)}, {s: [] for s in range(n)})
    step = 0
    perf = time.perf_counter
    cpu = time.thread_time
    while not rules.is_over(state):
        for seat in sorted(rules.to_act(state)):
            legal = rules.legal_moves(state, seat)
            if not legal:
                continue
            view = rules.view(state, seat)
            t0 = perf()
            c0 = cpu()
            move = pick(players[seat], kind, view, legal, (deal_seed * 1_000_003 + step) & 0x7FFFFFFF,
                        budget)
            out.cpu[seat].append(cpu() - c0)
            out.times[seat].append(perf() - t0)
            state, _ = rules.apply(state, seat, move)
            step += 1
            break  # re-read to_act after every move
    res = rules.result(state)
    out.winner = res["winner"]
    winners = res.get("winners")
    out.winners = list(winners) if winners is not None else ([] if out.winner is None else [out.winner])
    return out
