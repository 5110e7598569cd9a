"""Move-by-move review of an ended game (issue 37), from each seat's own information (pure Python, no Django).

For one decision — a seat's view then (``rules.view(state, seat)``), its legal moves then and the move it played —
:func:`review_decision` estimates the chance of winning of **every** legal move with the King's search
(:mod:`games.ai.claim.king`), never with cards the seat could not see:

* Claim, Claim 2, the 2-player mix: determinization (PIMC) — each iteration deals the unseen cards consistently
  with the view (:func:`king.deal_sampler`), plays every candidate on that same deal and finishes with the King's
  greedy playout (:func:`king.playout_scores`). No candidate is pruned (the played move may be one the King
  would never look at). 2 seats, phase 2 with at most ``king.EXACT_CARDS`` cards in both hands: the King's exact
  solver gives each move its value against best play, 1 (forces a win), 0.5 (a draw) or 0
  (:func:`king.exact_scores`); over its node budget, playouts as before.
* 3-4 seats (claim-mix): the same on the N-seat placements; a playout scores 1 when the seat's side wins (4 seats:
  its team; 3 seats: a win shared by k seats counts 1/k), 0.5 for a 4-seat draw, exactly as the King counts it.
* Inheritors (2-4 seats): the Inheritors King's search (:mod:`games.ai.inheritors_king`): each iteration deals the
  hidden cards and quests consistently with the view, plays every legal move on that deal and finishes with the
  King's playout policy; a playout scores the seat's share of the win. Its own budget: :data:`INHERITORS_PLAYOUTS`.

The budget is a fixed number of playouts per decision (:data:`PLAYOUTS`, split evenly over the candidates, at least
:data:`MIN_ITERATIONS` deals each; 3-4 seats: :data:`N_SEAT_SHARE` of both, the same CPU), the clock is never
read, and the random generator is seeded by the caller (the service derives it from the game id and the decision's
index), so a review is reproducible.

A decision's *drop* is the best move's chance minus the played move's; a drop of at least :data:`INACCURACY` is
an inaccuracy, at least :data:`MISTAKE` a mistake, provided it is larger than :data:`NOISE_Z` standard errors
(:func:`noise_of`; exact values have none): with few playouts per move (Inheritors) only a clear drop is marked.
A forced move (one legal move) gets no evaluation.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from games.ai import inheritors_king
from games.ai.claim import king
from games.ai.claim.knowledge import core_move, read_view

#: Kinds the review can evaluate (the King's search): the Claim family and Inheritors, 2-4 seats.
REVIEW_KINDS = ("claim", "claim2", "claim-mix", "inheritors")
#: Playouts per decision (all candidates together): the review's fixed budget (2 seats; ~0.3 s of CPU, about what
#: the King spends at 1 s of budget, since it measures ~2x faster than its nominal ``PLAYOUTS_PER_SEC``).
PLAYOUTS = 12000
#: Every candidate is tried on at least this many deals.
MIN_ITERATIONS = 500
#: 3-4 seats: the N-seat playouts run through the core functions, ~7x slower (``king.PLAYOUTS_PER_SEC_N``), so
#: the same CPU buys this share of the playouts.
N_SEAT_SHARE = king.PLAYOUTS_PER_SEC_N / king.PLAYOUTS_PER_SEC
#: Node budget of the exact phase-2 solver per decision (the King's at 1 s: ``NODES_PER_SEC``).
EXACT_NODES = 20000
#: Inheritors: playouts per decision (all legal moves together; a playout is a whole game, ~5-15 ms, so this is
#: ~1-2.5 s of CPU), at least :data:`INHERITORS_MIN_ITERATIONS` deals per move.
INHERITORS_PLAYOUTS = 160
INHERITORS_MIN_ITERATIONS = 2
#: Drop thresholds (best chance - played chance).
INACCURACY = 0.05
MISTAKE = 0.15
#: A drop is marked only above this many standard errors: the best of some 30 moves' estimates is itself biased
#: upwards, so 3 (about 95 % over 30 comparisons), not 2.
NOISE_Z = 3.0

Mark = Literal["inaccuracy", "mistake"]


@dataclass(frozen=True)
class Option:
    """A legal move's chance of winning, estimated from ``deals`` playouts (0: the exact solver's value)."""

    move: dict[str, Any]
    chance: float
    deals: int = 0


@dataclass(frozen=True)
class DecisionReview:
    """One decision: ``options`` sorted best first (empty for a forced move, then every chance is ``None``)."""

    played: dict[str, Any]
    best: dict[str, Any]
    chance_played: float | None
    chance_best: float | None
    drop: float | None
    mark: Mark | None
    options: list[Option] = field(default_factory=list)
    method: Literal["forced", "playouts", "exact"] = "forced"


def supports(kind: str) -> bool:
    return kind in REVIEW_KINDS


def playouts_for(kind: str) -> int:
    """The review's playout budget per decision for ``kind`` (stored with the review)."""
    return INHERITORS_PLAYOUTS if kind == "inheritors" else PLAYOUTS


def move_key(kind: str, move: Mapping[str, Any]) -> Any:
    """What makes two moves the same: the engine's card code (Claim family) or the move's JSON (Inheritors)."""
    if kind == "inheritors":
        return json.dumps(dict(move), sort_keys=True)
    return core_move(move)


def mark_for(drop: float | None, noise: float = 0.0) -> Mark | None:
    """The mark of a drop: none under :data:`INACCURACY`, and none unless the drop exceeds ``noise``
    (:func:`noise_of`: :data:`NOISE_Z` standard errors), so that a coarse estimate marks only a clear mistake."""
    if drop is None or drop <= noise:
        return None
    if drop >= MISTAKE:
        return "mistake"
    if drop >= INACCURACY:
        return "inaccuracy"
    return None


def _variance(option: Option) -> float:
    """The variance of a chance estimated from ``deals`` playouts (Agresti-Coull: never 0 for a small sample)."""
    if not option.deals:
        return 0.0
    p = (option.chance * option.deals + 1) / (option.deals + 2)
    return p * (1 - p) / option.deals


def noise_of(best: Option, played: Option) -> float:
    """:data:`NOISE_Z` standard errors of ``best.chance - played.chance`` (0 when both are exact values)."""
    return round(NOISE_Z * math.sqrt(_variance(best) + _variance(played)), 4)


def iterations(candidates: int, playouts: int, seats: int = 2) -> int:
    """Deals per candidate for a decision of ``candidates`` legal moves at a table of ``seats``."""
    share = 1.0 if seats == 2 else N_SEAT_SHARE
    return max(int(MIN_ITERATIONS * share), int(playouts * share) // max(1, candidates))


def evaluate(kind: str, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], seed: int,
             playouts: int | None = None) -> tuple[list[Option], str]:
    """Every legal move's chance of winning for the seat that sees ``view`` (sorted best first, ties in the
    order of ``legal``) and the method (``exact`` or ``playouts``). Deterministic for a given ``seed``."""
    if not supports(kind):
        raise ValueError(f"no review for {kind!r}")
    if len(legal) < 2:
        raise ValueError("a forced move has no evaluation")
    if kind == "inheritors":
        return _evaluate_inheritors(view, legal, seed, INHERITORS_PLAYOUTS if playouts is None else playouts)
    if playouts is None:
        playouts = PLAYOUTS
    k = read_view(view)
    codes = [core_move(m) for m in legal]
    cands = sorted(set(codes))
    method, deals = "exact", 0
    scores = king.exact_scores(k, cands, EXACT_NODES)
    if scores is None:
        method, deals = "playouts", iterations(len(cands), playouts, k.seats)
        scores = king.playout_scores(k, cands, deals, random.Random(seed))
    order = sorted(range(len(legal)), key=lambda i: -scores[codes[i]])
    return [Option(dict(legal[i]), round(scores[codes[i]], 4), deals) for i in order], method


def _evaluate_inheritors(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], seed: int,
                         playouts: int) -> tuple[list[Option], str]:
    iters = max(INHERITORS_MIN_ITERATIONS, playouts // len(legal))
    know = inheritors_king.Knowledge(view)
    scores = inheritors_king.playout_scores(know, [dict(m) for m in legal], iters, random.Random(seed))
    order = sorted(range(len(legal)), key=lambda i: -scores[i])
    return [Option(dict(legal[i]), round(scores[i], 4), iters) for i in order], "playouts"


def review_decision(kind: str, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]],
                    played: Mapping[str, Any], seed: int, playouts: int | None = None) -> DecisionReview:
    """The review of one decision: ``played`` must be one of ``legal`` (:class:`ValueError` otherwise)."""
    if not legal:
        raise ValueError("a decision needs legal moves")
    code = move_key(kind, played) if supports(kind) else None
    if supports(kind) and code not in {move_key(kind, m) for m in legal}:
        raise ValueError(f"the played move {dict(played)} is not among the legal moves")
    if len(legal) == 1:
        return DecisionReview(played=dict(played), best=dict(legal[0]), chance_played=None, chance_best=None,
                              drop=None, mark=None)
    options, method = evaluate(kind, view, legal, seed, playouts)
    top = options[0]
    mine = next(o for o in options if move_key(kind, o.move) == code)
    best = mine if mine.chance >= top.chance else top
    drop = round(max(0.0, best.chance - mine.chance), 4)
    return DecisionReview(played=dict(played), best=dict(best.move), chance_played=mine.chance,
                          chance_best=best.chance, drop=drop, mark=mark_for(drop, noise_of(best, mine)),
                          options=options,
                          method="exact" if method == "exact" else "playouts")


__all__ = ["INACCURACY", "INHERITORS_PLAYOUTS", "MISTAKE", "NOISE_Z", "PLAYOUTS", "REVIEW_KINDS", "DecisionReview",
           "Option", "evaluate", "iterations", "mark_for", "move_key", "noise_of", "playouts_for", "review_decision",
           "supports"]
