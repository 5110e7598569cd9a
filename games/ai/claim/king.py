"""Level 3 "King": search for Claim, Claim 2 and the 2-player mix.

Phase 1 (hidden cards): determinization (PIMC). Each iteration deals the unseen cards at random
consistent with the view (opponent hand, opponent blind follower draws, deck order; the opponent's hand
holds none of its public ``voids``; :func:`.knowledge.sample_hidden`), builds the engine core state for
that deal and, for every candidate move, plays the move and finishes the game with the engine's fast
playout (:func:`games.rules.claim.playout.random_playout`), in which a follower wins the trick with its
cheapest winning card or else dumps its cheapest card ``GREEDY`` of the time (random play misjudges
what phase-1 prizes are worth; on 200 games vs the Knight this took the King from 66% to 73%).
The same deal is used for every candidate in an iteration (common random numbers), and the move
with the most wins is chosen. Candidates that the Knight rates clearly worse are pruned first so the
playouts concentrate on plausible moves.

Phase 2 (C7) is perfect information for 2 players (the opponent's hand is every unseen card). When
few cards are left it is solved exactly: a memoised AND/OR search "can I force a win (or a draw)?"
over core-resolved tricks, within a node budget. Before that, or if the budget runs out, flat Monte
Carlo with random playouts on the exact state.

3-4 seats (claim-mix, M3-M7): phase 2 is no longer perfect information (the unseen cards are
shared among N-1 hands), so both phases use determinization: each iteration places the unseen cards
with the right counts per seat (:func:`.knowledge.sample_hidden_n`; known prizes and Seer peeks kept
in their seat), builds the engine core (:func:`.knowledge.build_core_n`) and finishes every
candidate with ``random_playout`` (the engine's N-seat path); a playout scores 1 when this seat is
among the winners (4 seats: its team, M7.3; 3 seats: a shared win is split), 0.5 for a 4-seat draw.
Candidates are pruned with the N-seat Knight (:mod:`.knight_n`). The exact solver stays 2-seat only.

Determinism: the time budget (seconds per move on one core) is converted into a fixed number of
playouts / search nodes with constants measured on the development machine (``PLAYOUTS_PER_SEC``,
``NODES_PER_SEC``); the clock is never read, so the same inputs and seed give the same move.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.rules.claim import core
from games.rules.claim.multi import winners_n
from games.rules.claim.playout import random_playout

from . import knight, knight_n
from .knowledge import (
    Knowledge,
    apply_core,
    build_core,
    build_core_n,
    core_move,
    opponent_hand_phase2,
    read_view,
    sample_hidden,
    sample_hidden_n,
)
from .solver import Budget, Solver

PLAYOUTS_PER_SEC = 7000.0  # calibrated so that p95 think time ~ budget on the bench machine
PLAYOUTS_PER_SEC_N = 1000.0  # 3-4 seats: the playout runs through the core functions (slower)
NODES_PER_SEC = 20000.0
EXACT_CARDS = 14  # phase 2: try the exact search when both hands hold at most this many cards together
GREEDY = 0.7  # playouts: a follower wins cheaply / dumps low this often, else plays at random (bench/ai.py)
# 2 seats: keep candidates whose Knight score is within PRUNE_MARGIN of the best, at most MAX_CANDIDATES
# (0.08 / 6 until the greedy playouts: on the same 100 Claim 2 deals at 0.25 s, 74.0% -> 81.5% vs the Knight)
PRUNE_MARGIN = 0.25
MAX_CANDIDATES = 10
PRUNE_MARGIN_N = 0.08  # 3-4 seats (fewer, slower playouts)
MAX_CANDIDATES_N = 6


def _playout_scores(make_state: Callable[[], core.Core], cands: Sequence[int], seat: int, n: int,
                    rng: random.Random) -> dict[int, float]:
    """Mean result of each candidate for ``seat`` over ``n`` iterations, every candidate on the same state from
    ``make_state`` per iteration: 2 seats 1 win, 0.5 draw (greedy playouts); 3-4 seats :func:`_result_n`."""
    wins = dict.fromkeys(cands, 0.0)
    for _ in range(n):
        base = make_state()
        for m in cands:
            st = base.copy()
            apply_core(st, m)
            w = random_playout(st, rng, greedy=GREEDY)  # greedy applies to 2 seats only
            if st.seats == 2:
                wins[m] += 0.5 if w is None else (1.0 if w == seat else 0.0)
            else:
                wins[m] += _result_n(st, seat)
    return {m: wins[m] / max(1, n) for m in cands}


def deal_sampler(k: Knowledge, rng: random.Random) -> Callable[[], core.Core]:
    """One determinization of ``k`` per call: an engine core state consistent with the seat's view (2 seats,
    phase 2: the one exact state, copied)."""
    if k.seats != 2:
        return lambda: build_core_n(k, *sample_hidden_n(k, rng))
    if k.phase == 2:
        return build_core(k, opponent_hand_phase2(k)).copy

    def make() -> core.Core:
        hand, foll, deck = sample_hidden(k, rng)
        return build_core(k, hand, foll, deck)

    return make


def playout_scores(k: Knowledge, cands: Sequence[int], n: int, rng: random.Random) -> dict[int, float]:
    """The King's estimate of each candidate for ``k.seat`` (no pruning): its mean playout result over ``n``
    determinizations, every candidate on the same deals, with the King's playout policy (1 win, 0.5 draw; 3-4
    seats: :func:`_result_n`). Used by the move choice and by the review (:mod:`games.ai.review`)."""
    return _playout_scores(deal_sampler(k, rng), cands, k.seat, n, rng)


def exact_scores(k: Knowledge, cands: Sequence[int], max_nodes: int) -> dict[int, float] | None:
    """2 seats, phase 2 with both hands together at most :data:`EXACT_CARDS` cards: the exact value of each
    candidate for ``k.seat`` against best play (1 forces a win, 0.5 a draw, else 0), by the King's solver;
    ``None`` when the position is out of its reach or ``max_nodes`` runs out."""
    if k.seats != 2 or k.phase != 2:
        return None
    opp_hand = opponent_hand_phase2(k)
    if len(k.hand) + len(opp_hand) > EXACT_CARDS:
        return None
    root = build_core(k, opp_hand)
    solver = Solver(k.seat, max_nodes)
    out: dict[int, float] = {}
    try:
        for m in cands:
            child = root.copy()
            apply_core(child, m)
            out[m] = 1.0 if solver.force(child, 1.0) else 0.5 if solver.force(child, 0.5) else 0.0
    except Budget:
        return None
    return out


def _prune(k: Knowledge, cands: list[int], rng: random.Random) -> list[int]:
    if len(cands) <= 2 or any(m < 0 for m in cands):
        return cands
    scores = knight.phase1_scores(k, cands, rng) if k.phase == 1 else knight.phase2_scores(k, cands)
    best = max(scores.values())
    keep = sorted((c for c in cands if scores[c] >= best - PRUNE_MARGIN), key=lambda c: -scores[c])
    return keep[:MAX_CANDIDATES]


def choose_core(k: Knowledge, cands: list[int], seed: int, budget: float) -> int:
    rng = random.Random(seed)
    cands = sorted(set(cands))
    if len(cands) == 1:
        return cands[0]
    seat = k.seat
    if k.phase == 2:
        opp_hand = opponent_hand_phase2(k)
        root = build_core(k, opp_hand)
        if len(k.hand) + len(opp_hand) <= EXACT_CARDS:
            solver = Solver(seat, max(200, int(budget * NODES_PER_SEC)))
            try:
                solved = solver.best(root, cands)
                if solved is not None:
                    return solved
            except Budget:
                pass
        cands = _prune(k, cands, rng)
        n = max(1, int(budget * PLAYOUTS_PER_SEC / len(cands)))
        scores = _playout_scores(root.copy, cands, seat, n, rng)
    else:
        cands = _prune(k, cands, rng)
        if len(cands) == 1:
            return cands[0]
        n = max(1, int(budget * PLAYOUTS_PER_SEC / len(cands)))
        scores = _playout_scores(deal_sampler(k, rng), cands, seat, n, rng)
    best = max(scores.values())
    return min(m for m in cands if scores[m] >= best)


def _result_n(st: core.Core, seat: int) -> float:
    winners = winners_n(st)
    if not winners:
        return 0.5  # 4 seats: a draw between the teams (M7.3)
    if seat not in winners:
        return 0.0
    return 1.0 if st.seats == 4 else 1.0 / len(winners)


def choose_core_n(k: Knowledge, cands: list[int], seed: int, budget: float) -> int:
    """3-4 seats: determinized rollouts in both phases (see the module docstring)."""
    rng = random.Random(seed)
    cands = sorted(set(cands))
    if len(cands) == 1:
        return cands[0]
    if all(m >= 0 for m in cands) and len(cands) > 2:
        scores = knight_n.scores(k, cands, rng)
        best = max(scores.values())
        keep = sorted((c for c in cands if scores[c] >= best - PRUNE_MARGIN_N), key=lambda c: -scores[c])
        cands = sorted(keep[:MAX_CANDIDATES_N])
        if len(cands) == 1:
            return cands[0]
    n = max(1, int(budget * PLAYOUTS_PER_SEC_N / len(cands)))
    wins = _playout_scores(deal_sampler(k, rng), cands, k.seat, n, rng)
    best_w = max(wins.values())
    return min(m for m in cands if wins[m] >= best_w)


def choose(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], seed: int,
           budget: float) -> dict[str, Any]:
    k = read_view(view)
    cards = [core_move(m) for m in legal]
    if k.seats != 2:
        m = choose_core_n(k, cards, seed, budget)
        return dict(legal[cards.index(m)])
    m = choose_core(k, cards, seed, budget)
    return dict(legal[cards.index(m)])
