"""Inheritors level 3 "King": determinized playouts (PIMC) from the seat's view only (see docs/ai.md).

:func:`choose` claims like the Knight (an honor or a clan only adds points, I8/I9), otherwise keeps the Knight's
:data:`MAX_CANDIDATES` best-scored legal moves and plays the one whose playouts (:mod:`.search`) win most (the
final score margin, weighted by :data:`MARGIN_WEIGHT`, tells apart candidates with as many wins). The
time budget is converted into a fixed number of playouts (:data:`PLAYOUTS_PER_SEC`, never the clock), split
evenly over the candidates, and the generator is seeded by ``seed``: same view, moves and seed -> same move.
Pending decisions (Wolf, quest discards, Spy, Advisor, Agent, Rat, take-pile) are searched the same way; a seat
asked during simultaneous Saboteur discards decides from its own view only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.ai.inheritors import context, score

from .determinize import Knowledge
from .search import playout_scores

#: Playouts per second of budget on one core (measured on the dev machine: a playout from mid-game is a few ms).
PLAYOUTS_PER_SEC = 150
#: The Knight's best-scored moves the King searches.
MAX_CANDIDATES = 4
#: The move choice adds this much per point of the playout's final margin to its win share, so that candidates with
#: as many wins (common with a few playouts) are told apart by how well they score.
MARGIN_WEIGHT = 0.05
#: At least this many deals per candidate, whatever the budget.
MIN_ITERATIONS = 2


def _kind(move: Mapping[str, Any]) -> str:
    """A move without its market pile: moves that differ only in the pile a card goes to are one kind."""
    return str(sorted((k, v) for k, v in move.items() if k not in ("pile", "piles")))


def candidates(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], limit: int) -> list[dict[str, Any]]:
    """The ``limit`` legal moves the Knight scores highest, best first (stable on ties), at most one per kind
    (:func:`_kind`: the same card to another pile is the same choice for the search)."""
    ctx = context(view)
    order = sorted(range(len(legal)), key=lambda i: -score(ctx, legal[i]))
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i in order:
        kind = _kind(legal[i])
        if kind in seen:
            continue
        seen.add(kind)
        out.append(dict(legal[i]))
        if len(out) == limit:
            break
    return out


def choose(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], seed: int, budget: float) -> dict[str, Any]:
    claims = [m for m in legal if "claim_honor" in m or "claim_clan" in m]
    if claims or len(legal) == 1:
        return candidates(view, legal, 1)[0]
    cands = candidates(view, legal, MAX_CANDIDATES)
    iters = max(MIN_ITERATIONS, int(budget * PLAYOUTS_PER_SEC) // len(cands))
    scores = playout_scores(Knowledge(view), cands, iters, random.Random(seed), MARGIN_WEIGHT)
    best = max(range(len(cands)), key=lambda i: (scores[i], -i))  # a tie keeps the Knight's choice (first)
    return cands[best]


__all__ = ["MAX_CANDIDATES", "PLAYOUTS_PER_SEC", "Knowledge", "candidates", "choose", "playout_scores"]
