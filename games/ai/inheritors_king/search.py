"""The Inheritors King's search: determinized playouts (PIMC) from one seat's view.

Each iteration deals the hidden cards and quests consistently with the view (:class:`Knowledge.sample`), plays
every candidate move on that same deal and finishes the game with a cheap policy for every seat
(:func:`playout`: the Knight's scorer, with probability :data:`EPSILON` a random legal move instead). A playout
scores the seat's share of the win: 1, or 1/k when k seats share it (I12.6), else 0. The candidate's chance is
its mean over the iterations. Same view, moves, iterations and generator state -> same scores.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.ai.inheritors import _Ctx, score
from games.rules.base import IllegalMove
from games.rules.inheritors import engine, scoring
from games.rules.inheritors.state import OVER, InheritorsState

from .determinize import Knowledge

#: Probability that a playout move is a random legal move rather than the Knight's.
EPSILON = 0.1
#: A playout longer than this many moves is stopped and scored on the current totals (never reached in tests).
MAX_PLAYOUT_MOVES = 1000


def state_context(state: InheritorsState, seat: int) -> _Ctx:
    """The Knight scorer's context read from a (determinized) state instead of a view."""
    others = state.others(seat)
    best_other = {c: max(state.top(o, c) for o in others) for c in state.colours}
    return _Ctx(seat, state.hands[seat], state.tops(seat), best_other, state.market, len(state.deck))


def policy_move(state: InheritorsState, seat: int, legal: Sequence[Mapping[str, Any]],
                rng: random.Random) -> Mapping[str, Any]:
    """The playout policy: epsilon-greedy over the Knight's scores (first best on ties)."""
    if len(legal) == 1:
        return legal[0]
    if rng.random() < EPSILON:
        return legal[rng.randrange(len(legal))]
    ctx = state_context(state, seat)
    best = legal[0]
    best_score = score(ctx, best)
    for m in legal[1:]:
        s = score(ctx, m)
        if s > best_score:
            best, best_score = m, s
    return best


def result_for(state: InheritorsState, seat: int) -> float:
    """The seat's share of the win on a finished (or stopped) state."""
    res = state.result if state.phase == OVER and state.result is not None else scoring.compute_result(state)
    winners = res["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def margin_for(state: InheritorsState, seat: int) -> float:
    """The seat's total minus the best other total (I12), on a finished (or stopped) state."""
    res = state.result if state.phase == OVER and state.result is not None else scoring.compute_result(state)
    totals = [row["total"] for row in res["scores"]]
    return float(totals[seat] - max(t for s, t in enumerate(totals) if s != seat))


def finish(state: InheritorsState, rng: random.Random) -> InheritorsState:
    """Plays ``state`` itself to the end of a playout (:func:`policy_move` for every seat) and returns it."""
    for _ in range(MAX_PLAYOUT_MOVES):
        if state.phase == OVER:
            break
        acting = engine.to_act(state)
        mover = min(acting)  # simultaneous Saboteur choices are secret: any order gives the same game
        legal = engine.legal_moves(state, mover)
        engine.play(state, mover, policy_move(state, mover, legal, rng))  # legal moves: never refused
    return state


def playout_scores(know: Knowledge, cands: Sequence[Mapping[str, Any]], iterations: int,
                   rng: random.Random, margin_weight: float = 0.0) -> list[float]:
    """Each candidate's mean playout result over ``iterations`` deals (every candidate on the same deal, its
    playout drawing the same random numbers: common random numbers, so that differences are less noisy).

    ``margin_weight`` > 0 adds that much per point of final margin (:func:`margin_for`) to each result: the
    King's move choice uses a small weight to tell apart candidates with the same number of wins; the review's
    chances use none."""
    totals = [0.0] * len(cands)
    counts = [0] * len(cands)
    for _ in range(iterations):
        state = know.sample(rng)
        playout_seed = rng.getrandbits(32)  # the same playout randomness for every candidate on this deal
        for i, move in enumerate(cands):
            try:
                after, _ = engine.apply(state, know.seat, move)
            except IllegalMove:  # a deal the rebuilt pending stack does not fit: skip this candidate here
                continue
            end = finish(after, random.Random(playout_seed))  # ``after`` is this candidate's own copy
            totals[i] += result_for(end, know.seat)
            if margin_weight:
                totals[i] += margin_weight * margin_for(end, know.seat)
            counts[i] += 1
    return [t / c if c else 0.0 for t, c in zip(totals, counts, strict=True)]
